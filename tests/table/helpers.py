"""Shared pieces for table tests: a seeded game run synchronously, with optional cheats."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import Deliver, Tamper, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table


def play_sync(
    seed: int,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    table_types: dict[int, type[Table]] | None = None,
    tamper: Tamper | None = None,
    deliver: Deliver | None = None,
    give_up: bool = False,
    until: Callable[[list[Table]], bool] | None = None,
    bot: str = "random",
) -> tuple[list[Table], list[list[ev.Event]]]:
    game = LocalGame.seeded(seed, preset, options)
    tables = game.make_tables()
    for seat, cls in (table_types or {}).items():
        tables[seat] = _rebuild(game, seat, cls, tables)
    bots = [make_bot(bot, seed * 10 + s) for s in range(4)]
    stop = (lambda: until(tables)) if until is not None else None
    events = run_sync(tables, bots, tamper=tamper, deliver=deliver, give_up=give_up, until=stop)
    return tables, events


def _rebuild(game: LocalGame, seat: int, cls: type[Table], tables: list[Table]) -> Table:
    """The same seat, same keys and seeds, but running a (dishonest) subclass."""
    assert game.seed_sources is not None
    kwargs = {"seed_source": game.seed_sources[seat]}
    if seat == 0:
        return cls.host(game.signers[0], game.game_id, game.setup(), **kwargs)
    return cls(game.game_id, signer=game.signers[seat], **kwargs)


def faults_of(events: list[ev.Event]) -> list[ev.Fault]:
    found: list[ev.Fault] = []
    for event in events:
        if isinstance(event, ev.GameAborted):
            found.extend(event.faults)
        elif isinstance(event, ev.FaultFound) and event.fault not in found:
            found.append(event.fault)
    return found


def honest(tables: list[Table], cheater: int) -> list[int]:
    return [s for s in range(len(tables)) if s != cheater]


Cheat = Callable[[Table], None]


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


def resign(signer: Signer, envelope: Envelope, **changes: object) -> bytes:
    """``envelope`` signed again with some fields changed (``msg``, ``view``, ...)."""
    fields = {
        "game": envelope.game,
        "deal": envelope.deal,
        "seq": envelope.seq,
        "prev": envelope.prev,
        "msg": envelope.msg,
        "view": envelope.view,
        **changes,
    }
    return seal_envelope(signer, **fields).raw  # type: ignore[arg-type]
