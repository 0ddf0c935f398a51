"""Sharing results in a lobby, before any game (protocol/results.md 6.2): the exchange
of ``ladder/share.py`` between a joiner and the host, each message wrapped in a
``ladder`` control message on their lobby connection, beside the lobby's own messages.

The joiner begins once the host shows it seated; the host answers a seated joiner's
exchange (the caller hands over only a seated joiner's messages: one the host's person
has not let in, a watcher, or anyone refused, costs nothing here).  One exchange with
a key for the lobby's life (and at most ``RELAYS`` further ones the host begins, below);
each bounded as at a table's end (the exchange's counts and
bytes, ``EARLY`` messages kept before it begins, ``STALL`` seconds for the other side's
next message and for each of ours to leave, ``SHARE_TIME`` in all); and the keys that
never sat at a table with this ledger's owner (strangers) share one at a time, all of
them together within one exchange's bounds for the lobby (``StrangerBudget``), so a
lobby open to anyone costs at most that whatever the keys a visitor makes.

A host whose ledger gained results from one joiner begins the exchange again with each
other seated joiner whose exchange finished (``RELAYS`` times a key at most), so every
seat converges through the host before the game: a joiner answers a ``have`` that
comes after its exchange finished as the host's further exchange.

Nothing here can delay the lobby or the game: the exchanges run in their own tasks;
messages are taken without waiting; the start stops them, and what an exchange cut by
the start brought is not counted (the table's end shares again).  A failure is logged
and said (``ResultsShared``), never a reason to seat or unseat anyone.
"""

from __future__ import annotations

import logging
import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.ladder.share import MAX_BYTES, MAX_RESULTS, ShareError, Sharing, unwrap, wrap
from p2pbelka.net.channel import SecureChannel
from p2pbelka.net.errors import NetError
from p2pbelka.peer import disk
from p2pbelka.peer.share import STALL, Shared, count_received
from p2pbelka.peer.tableshare import EARLY
from p2pbelka.protocol.codec import ProtocolError, decode

log = logging.getLogger(__name__)

SHARE_TIME = 20.0
"""Seconds one exchange in a lobby may take at most (1,000 results take a few)."""

RELAYS = 3
"""Further exchanges one key takes part in at most a lobby, each begun by the host after
its ledger gained from another's (a table of four's other two joiners, and one spare)."""


@dataclass
class StrangerBudget:
    """What every exchange with a stranger in one lobby may take and give in all: one
    exchange's bounds (results.md section 6), drawn on one stranger at a time."""

    results: int = MAX_RESULTS
    taken: int = MAX_BYTES
    given: int = MAX_BYTES
    lock: trio.Lock = field(default_factory=trio.Lock)

    @property
    def spent(self) -> bool:
        return min(self.results, self.taken, self.given) <= 0

    def sharing(self, held: dict[bytes, bytes]) -> Sharing:
        return Sharing(held, ask_most=self.results, take_most=self.taken, give_most=self.given)

    def draw(self, sharing: Sharing) -> None:
        """What one stranger's exchange took and gave (what it asked for and never got
        costs nothing: a stranger that stalls spends no other's share)."""
        self.results -= len(sharing.received)
        self.taken -= sharing.bytes_in
        self.given -= sharing.bytes_out


@dataclass
class LobbyShared:
    """What one exchange in a lobby did (``Shared``), and whether the other side was a
    stranger; ``seconds`` from its first message to its results counted."""

    shared: Shared
    stranger: bool = False
    seconds: float = 0.0


class _Exchange:
    """One exchange on a lobby connection: messages taken as they come (never waiting),
    answers queued and sent by a task of its own."""

    def __init__(
        self, channel: SecureChannel, rounds: int = 0, after: trio.Event | None = None
    ) -> None:
        self.channel = channel
        self.rounds = rounds  # the further exchanges with this key before this one
        self.after = after  # the last one's results counted: this one may read the ledger
        self.seen = 0  # the ledger's gains in this lobby when this one read it
        self.counted = trio.Event()  # what it brought is counted (or it ended without)
        self.early: list[bytes] = []
        self.sharing: Sharing | None = None
        self.error = ""
        self.ended = trio.Event()
        self.heard_at = 0.0
        self.sent = 0
        self._out, self._outbox = trio.open_memory_channel[bytes](math.inf)
        self._queued = 0
        self.ignored = 0

    def heard(self, payload: bytes) -> None:
        if self.ended.is_set():
            self._ignored("the exchange is over")
            return
        if self.sharing is None:
            if len(self.early) < EARLY:
                self.early.append(payload)
            else:
                self._ignored("not asked for now")
            return
        try:
            answer = self.sharing.receive(unwrap(payload))
        except ShareError as exc:
            self.end(f"the peer {exc}")
            return
        self.heard_at = trio.current_time()
        self._queue(answer)

    def _ignored(self, why: str) -> None:
        """Said once an exchange: a peer that floods fills no log."""
        if not self.ignored:
            log.info("lobby: ignored a results message (and any more): %s", why)
        self.ignored += 1

    def _queue(self, messages: list[bytes]) -> None:
        for message in messages:
            self._queued += 1
            self._out.send_nowait(wrap(message))
        self._maybe_done()

    def _maybe_done(self) -> None:
        if self.sharing is not None and self.sharing.done and not self._queued:
            self.end("")

    def end(self, error: str) -> None:
        if not self.ended.is_set():
            self.error = error
            self.ended.set()

    async def run(self, sharing: Sharing) -> None:
        """Send our ``have``, take what came before, then go on until both ``done``s
        are in and ours left, or a bound stops it."""
        self.sharing = sharing
        self.heard_at = start = trio.current_time()
        self._queue(sharing.start())
        for payload in self.early:
            self.heard(payload)
        self.early = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._send)
            while not self.ended.is_set():
                waiting = not sharing.got_all  # for the other side's next message
                until = min(start + SHARE_TIME, self.heard_at + STALL if waiting else math.inf)
                with trio.move_on_at(until):
                    await self.ended.wait()
                now = trio.current_time()
                if now >= start + SHARE_TIME:
                    self.end("the exchange stopped: too slow")
                elif waiting and not sharing.got_all and now >= self.heard_at + STALL:
                    self.end(f"the exchange stopped: no word for {STALL:g} s")
            # the message on its way finishes (cut short, it would end the connection)
            self._out.close()

    async def _send(self) -> None:
        """Our messages, in order, until the exchange ends; one that does not leave
        within ``STALL`` seconds (the other side reads nothing) ends the exchange, and
        the connection with it: a send cut short leaves the channel unusable
        (``SecureChannel.send``)."""
        async for message in self._outbox:
            if self.ended.is_set():
                return
            try:
                with trio.fail_after(STALL):
                    await self.channel.send(message)
            except trio.TooSlowError:
                self.end(f"the exchange stopped: a message did not leave in {STALL:g} s")
                return
            except NetError as exc:
                self.end(f"the exchange stopped: {exc}")
                return
            self.sent += len(message)
            self._queued -= 1
            self._maybe_done()


class LobbyShares:
    """This peer's exchanges in one lobby (a host's: one a seated joiner; a joiner's:
    one with its host).  ``run`` is their home (a task of the lobby's nursery);
    ``heard`` takes a wrapped message from a connection (beginning its exchange if
    none is under way); ``begin`` begins one; ``stop`` ends them all, at the start."""

    def __init__(
        self,
        games: Path,
        owner: bytes,
        said: Callable[[LobbyShared], None] | None = None,
        seated: Callable[[SecureChannel], bool] | None = None,
    ) -> None:
        self.path = ledger_path(games)
        self.seated = seated
        """A host's: whether a channel is a joiner's seated now (it relays to those);
        None on a joiner's side, which takes the host's further exchanges instead."""
        self.owner = owner
        self.said = said if said is not None else _log_shared
        self.strangers = StrangerBudget()
        self._exchanges: dict[bytes, _Exchange] = {}
        self._nursery: trio.Nursery | None = None
        self._stopped = False
        self._ledger = trio.Lock()  # one read or count of the ledger at a time
        self._held: tuple[dict[bytes, bytes], set[bytes]] | None = None
        self._gains = 0  # the counts that added to the ledger in this lobby

    async def run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    def begin(self, channel: SecureChannel) -> None:
        """Share with ``channel``'s key, unless this lobby did so already (or it ended)."""
        key = channel.peer_key
        if self._stopped or self._nursery is None or key in self._exchanges or key == self.owner:
            return
        exchange = self._exchanges[key] = _Exchange(channel)
        self._nursery.start_soon(self._guarded, exchange)

    def heard(self, channel: SecureChannel, payload: bytes) -> None:
        """A wrapped message from ``channel`` (its reading task: never waits)."""
        self.begin(channel)
        exchange = self._exchanges.get(channel.peer_key)
        if exchange is not None and exchange.channel is channel:
            if self._further(exchange, payload):
                exchange = self._again(exchange)
            exchange.heard(payload)
        elif not self._stopped:  # (after the start, the lobby says nothing of it)
            log.info("lobby: ignored a results message from %s", channel.peer_fingerprint)

    def _further(self, exchange: _Exchange, payload: bytes) -> bool:
        """A joiner's side: the host begins a further exchange (its ``have`` after ours
        finished), taken ``RELAYS`` times a connection at most."""
        return (
            self.seated is None
            and not self._stopped
            and _finished(exchange)
            and exchange.rounds < RELAYS
            and _is_have(payload)
        )

    def _again(self, previous: _Exchange) -> _Exchange:
        """A further exchange on ``previous``'s connection, begun once that one counted."""
        key = previous.channel.peer_key
        exchange = _Exchange(previous.channel, previous.rounds + 1, previous.counted)
        self._exchanges[key] = exchange
        if self._nursery is not None:
            self._nursery.start_soon(self._guarded, exchange)
        return exchange

    def _relay(self) -> None:
        """A host's: begin a further exchange with each key owed one whose last exchange
        finished and counted, on the connection it still holds a seat with."""
        if self._stopped or self.seated is None:
            return
        for exchange in list(self._exchanges.values()):
            if (
                exchange.counted.is_set()  # (one under way is owed it once counted)
                and exchange.seen < self._gains
                and _finished(exchange)
                and exchange.rounds < RELAYS
                and self.seated(exchange.channel)
            ):
                self._again(exchange)

    def stop(self) -> None:
        """The game starts: every exchange ends now, none begins, none counts."""
        self._stopped = True
        for exchange in self._exchanges.values():
            exchange.end("the exchange stopped: the game starts")

    async def _guarded(self, exchange: _Exchange) -> None:
        """An exchange that fails in a way nobody foresaw is logged and ends there: it
        shares the lobby's nursery, and must never end the lobby, nor the game."""
        try:
            await self._share(exchange)
        except Exception:  # an extra beside the lobby: logged, never raised
            log.exception("lobby: the results' exchange failed")
            exchange.end("the exchange failed")
        finally:
            exchange.counted.set()
        self._relay()

    async def _share(self, exchange: _Exchange) -> None:
        start = trio.current_time()
        key = exchange.channel.peer_key
        if exchange.after is not None:  # a further exchange: the last one counts first
            await exchange.after.wait()
        async with self._ledger:
            known = await disk.current().blocking(self._read)
            exchange.seen = self._gains
        if known is None:
            exchange.end("no results shared: the ledger cannot be read")
            return
        held, companions = known
        stranger = key not in companions
        if not stranger:
            sharing = Sharing(held)
            await exchange.run(sharing)
        else:
            async with self.strangers.lock:
                if self.strangers.spent or self._stopped:
                    exchange.end("not shared: this lobby's bound for strangers is spent")
                    if not self._stopped:
                        self.said(LobbyShared(Shared(key, error=exchange.error), stranger))
                    return
                sharing = self.strangers.sharing(held)
                await exchange.run(sharing)
                self.strangers.draw(sharing)
        done = LobbyShared(Shared(key, error=exchange.error, sent=exchange.sent), stranger)
        if self._stopped:
            return
        async with self._ledger:
            await disk.current().blocking(lambda: self._count(sharing, done.shared))
            if done.shared.counted and not stranger:  # each other seat is owed it (keys
                # made for the purpose cannot spend the further exchanges seats are owed)
                exchange.seen += exchange.seen == self._gains  # (this one holds it)
                self._gains += 1
        sharing.received = []  # counted: the lobby keeps no certificate of it
        done.seconds = trio.current_time() - start
        self.said(done)

    def _read(self) -> tuple[dict[bytes, bytes], set[bytes]] | None:
        """The certificates to offer and the owner's companions: read once, and again
        only after a count changed them (a stranger a minute costs no read)."""
        if self._held is not None:
            return self._held
        try:
            with Ledger(self.path, self.owner) as ledger:
                self._held = dict(ledger.certificates()), ledger.companions()
                _log_notes(ledger.notes)
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: no results shared: %s", self.path, exc)
            return None
        return self._held

    def _count(self, sharing: Sharing, shared: Shared) -> None:
        if not sharing.received:
            return
        self._held = None
        try:
            with Ledger(self.path, self.owner) as ledger:
                count_received(ledger, sharing, shared)
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: the results shared could not be counted: %s", self.path, exc)


def _finished(exchange: _Exchange) -> bool:
    """The exchange ended with both ``done``s in and ours sent (nothing refused)."""
    sharing = exchange.sharing
    return exchange.ended.is_set() and not exchange.error and sharing is not None and sharing.done


def _is_have(payload: bytes) -> bool:
    try:
        return bool(decode(unwrap(payload), "share").get("t") == "have")
    except (ShareError, ProtocolError, AttributeError):
        return False


def _log_shared(done: LobbyShared) -> None:
    shared = done.shared
    log.info("lobby: results shared: %d came, %d counted", shared.came, shared.counted)
    if shared.error:
        log.info("lobby: results shared: %s", shared.error)
    _log_notes(shared.notes)


def _log_notes(notes: list[str]) -> None:
    for note in notes:
        log.warning("ladder: %s", note)
