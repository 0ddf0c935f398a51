"""Four tables wired together with plain lists, no trio: for tests and benchmarks.

Sans-IO pays off here: the whole protocol runs deterministically in one call
stack, with an optional hook that can drop, alter or inject envelopes on the
way (the tests' dishonest network).  :func:`pump` runs one table with a bot;
:func:`answer` is a bot's move for a table's question (the front ends ask it too).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from p2pbelka.bots.common.seat import Bot
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import (
    Envelope,
    Signer,
    open_envelope,
    remembering,
    seal_envelope,
)
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move
from p2pbelka.table.session import Table

Tamper = Callable[[int, bytes], list[bytes]]
"""Given the sender's seat and an envelope, what actually goes out (default: itself)."""

Deliver = Callable[[int, int, bytes], bytes | None]
"""Given sender, recipient and an envelope, what that recipient gets (None: nothing)."""


def answer(bot: Bot, table: Table, question: ev.ChoiceNeeded) -> Move:
    """The move ``bot`` makes for ``table``'s own seat when the table asks ``question``:
    the seat bot of the game the table's setup names, asked from the seat's view."""
    setup, seat = table.state.setup, table.state.me
    assert setup is not None and seat is not None
    return bot.for_game(setup.game).choose(table.state.game, seat, question)


def pump(table: Table, bot: Bot, log: list[ev.Event]) -> list[bytes]:
    """Take everything ``table`` wants sent, answering its questions with ``bot``, until
    it is quiet; the events go to ``log``."""
    sent: list[bytes] = []
    while True:
        outgoing = table.take_outgoing()
        new = table.take_events()
        if not outgoing and not new:
            if not table.deferred:
                return sent
            table.proceed()
            continue
        sent += outgoing
        for event in new:
            log.append(event)
            if isinstance(event, ev.ChoiceNeeded):
                table.apply(answer(bot, table, event))


def run_sync(
    tables: Sequence[Table],
    bots: Sequence[Bot],
    *,
    tamper: Tamper | None = None,
    deliver: Deliver | None = None,
    resend: bool = True,
    give_up: bool = False,
    until: Callable[[list[list[ev.Event]]], bool] | None = None,
    max_deliveries: int = 1_000_000,
) -> list[list[ev.Event]]:
    """Deliver every envelope to every other table until nothing moves; return each
    table's events.

    When the network is quiet, each unfinished table asks the others for what it
    lacks (``wants`` / ``envelopes_from``, as the mesh's resend does), relayed through
    ``deliver`` like any envelope.  A seat whose peers still wait for it is left
    waiting, unless ``give_up``: then every stuck table gives up as a driver's
    timeout would (``abandon``: the game ends disputed) and what that sends is
    delivered too.  ``until``: stop as soon as it says so, given every table's
    events so far (a test that needs only the first deal).  The tables share the
    envelopes they open (``remembering``)."""
    # every seat is in this process: each envelope is opened once for all of them
    with remembering():
        events: list[list[ev.Event]] = [[] for _ in tables]
        queue: deque[tuple[int, bytes]] = deque()
        for _ in range(max_deliveries):
            for seat, table in enumerate(tables):
                _collect(table, bots[seat], events[seat], queue, seat, tamper)
            if until is not None and until(events):
                return events
            if not queue:
                if resend and _resend_round(tables, deliver):
                    continue
                if give_up and _give_up(tables):
                    continue
                return events
            source, raw = queue.popleft()
            for seat, table in enumerate(tables):
                if seat == source:
                    continue
                received = deliver(source, seat, raw) if deliver else raw
                if received is not None:
                    table.receive(received)
        raise RuntimeError("too many deliveries: the tables never settle")


def _resend_round(tables: Sequence[Table], deliver: Deliver | None) -> bool:
    """Every unfinished table takes what the others hold of what it lacks; True if
    that moved any table on."""
    before = [(len(t.view.transcript), t.state.phase) for t in tables]
    for dest, table in enumerate(tables):
        if table.finished:
            continue
        for seat, seq in enumerate(table.view.wants()):
            for source, other in enumerate(tables):
                if source == dest:
                    continue
                for raw in other.view.envelopes_from(seat, seq):
                    received = deliver(source, dest, raw) if deliver else raw
                    if received is not None:
                        table.receive(received)
    return [(len(t.view.transcript), t.state.phase) for t in tables] != before


def _give_up(tables: Sequence[Table]) -> bool:
    stuck = [t for t in tables if not t.finished and t.view.missing()]
    for table in stuck:
        table.abandon(table.view.missing())
    return bool(stuck)


def _collect(
    table: Table,
    bot: Bot,
    log: list[ev.Event],
    queue: deque[tuple[int, bytes]],
    seat: int,
    tamper: Tamper | None,
) -> None:
    for raw in pump(table, bot, log):
        for sent in tamper(seat, raw) if tamper else [raw]:
            queue.append((seat, sent))


# -- a dishonest network, for tests and vectors ------------------------------------------


class Fork:
    """A ``deliver`` hook: ``cheater`` tells ``victim`` something else.

    From the first envelope that ``change`` alters (it returns the other message,
    or None to leave an envelope alone), the victim gets a second chain of the
    cheater's: every later envelope re-chained to it and signed again, its view
    of its own chain to match, so nothing is wrong on its face.  Resends of the
    same envelope by the cheater get the same twin."""

    def __init__(
        self,
        signer: Signer,
        cheater: int,
        victim: int,
        change: Callable[[Envelope], m.Message | None],
    ) -> None:
        self.signer, self.cheater, self.victim, self.change = signer, cheater, victim, change
        self.fork_seq: int | None = None
        self.twins: dict[int, Envelope] = {}

    def __call__(self, source: int, dest: int, raw: bytes) -> bytes | None:
        # Only what the cheater sends itself: honest peers' relays reach the victim
        # untouched (links are authenticated and encrypted).
        if source != self.cheater or dest != self.victim:
            return raw
        try:
            envelope = open_envelope(raw)
        except ProtocolError:
            return raw
        if envelope.sender != self.signer.public_key:
            return raw
        if envelope.seq in self.twins:
            return self.twins[envelope.seq].raw
        msg: m.Message | None = envelope.msg
        if self.fork_seq is None:
            msg = self.change(envelope)
            if msg is None:
                return raw
            self.fork_seq = envelope.seq
        elif envelope.seq < self.fork_seq:
            return raw
        assert msg is not None
        before = self.twins.get(envelope.seq - 1)
        prev = before.digest if before is not None else envelope.prev
        view = tuple(
            (envelope.seq, prev) if s == self.cheater else entry
            for s, entry in enumerate(envelope.view)
        )
        twin = seal_envelope(
            self.signer, envelope.game, envelope.deal, envelope.seq, prev, msg, view
        )
        self.twins[envelope.seq] = twin
        return twin.raw


def resign(signer: Signer, envelope: Envelope, **changes: Any) -> bytes:
    """``envelope`` signed again with some fields changed (``msg``, ``view``, ...)."""
    fields: dict[str, Any] = {
        "game": envelope.game,
        "deal": envelope.deal,
        "seq": envelope.seq,
        "prev": envelope.prev,
        "msg": envelope.msg,
        "view": envelope.view,
        **changes,
    }
    return seal_envelope(signer, **fields).raw
