"""The peer driver's patience: automatic work that never comes is given up on; a person
deciding on a card is not."""

from __future__ import annotations

import trio
from trio.testing import MockClock

from p2pbelka.bots import Bot, make_bot
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, Transport, Waiting
from p2pbelka.peer.local import LocalGame, memory_transports
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.table import Table
from p2pbelka.table import events as ev

PAUSE_AFTER = 0.05
GIVE_UP_AFTER = 3.0
"""Long enough that the others' automatic work never looks gone on a busy machine."""


class UntilTheSecondDeal(BotFrontEnd):
    """Seat 0's bot, which says when its table reaches the second deal (or the end):
    the test stops everyone then.  Told by an event, not looked at every so often: on
    a virtual clock a whole game can pass without a moment of it."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.reached = trio.Event()

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if driver.table.deal_id >= 2 or driver.table.finished:
            self.reached.set()
        await super().on_event(driver, event)


class SlowPlayer(BotFrontEnd):
    """Before its first card, thinks until seat 0 says it waits for it, then past the
    others' give-up time; later cards come at once, to keep the test short."""

    def __init__(self, bot: Bot, watched: BotFrontEnd) -> None:
        super().__init__(bot)
        self.watched = watched
        self.slow = True

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)
        if isinstance(event, ev.ChoiceNeeded):
            if self.slow:
                self.slow = False
                with trio.fail_after(120):
                    while not self._waited_for():
                        await trio.sleep(0.01)
                await trio.sleep(GIVE_UP_AFTER * 1.5)
            await driver.submit(self.move(driver.table, event))

    def _waited_for(self) -> bool:
        return any(isinstance(e, Waiting) and 1 in e.seats for e in self.watched.events)


async def test_a_slow_player_is_waited_for_not_given_up_on(autojump_clock: MockClock) -> None:
    # Virtual seconds (no real I/O here): they pass only while every peer waits, so the
    # player's long think takes no time and a busy machine cannot time a peer out.
    game = LocalGame.seeded(61)
    tables = game.make_tables()
    transports = memory_transports(4)
    watched = UntilTheSecondDeal(make_bot("random", 0))
    front_ends = [watched, *(BotFrontEnd(make_bot("random", s)) for s in range(1, 4))]
    front_ends[1] = SlowPlayer(make_bot("random", 1), watched)
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                driver = PeerDriver(
                    tables[seat],
                    transports[seat],
                    front_ends[seat],
                    pause_after=PAUSE_AFTER,
                    give_up_after=GIVE_UP_AFTER,
                )
                nursery.start_soon(driver.run)
            # one deal is enough to show patience: then stop everyone
            await watched.reached.wait()
            nursery.cancel_scope.cancel()
    assert not any(t.finished for t in tables), "nobody was given up on"
    waits = [e for e in front_ends[0].events if isinstance(e, Waiting)]
    assert any(w.seats == (1,) and w.seconds >= PAUSE_AFTER for w in waits)
    assert any(isinstance(e, ev.DealAudited) for e in front_ends[0].events)


class Journal:
    """A signed journal that remembers what it was told, in order."""

    syncs = True

    def __init__(self, log: list[tuple[str, bytes]]) -> None:
        self.log = log
        self.kept: list[bytes] = []

    def keep(self, envelopes: list[Envelope]) -> None:
        self.kept += [e.raw for e in envelopes]

    def sync(self) -> None:
        self.log += [("synced", raw) for raw in self.kept]
        self.kept = []

    def sync_inputs(self) -> None:
        # Kept, not synced: the next ``sync`` takes them along.
        self.log += [("inputs synced", raw) for raw in self.kept]


class Watched:
    """A transport that notes what is broadcast (for the order of sync and send)."""

    def __init__(self, inner: Transport, log: list[tuple[str, bytes]]) -> None:
        self.inner, self.log = inner, log

    async def broadcast(self, raw: bytes) -> None:
        self.log.append(("sent", raw))
        await self.inner.broadcast(raw)

    async def receive(self) -> bytes:
        return await self.inner.receive()


class Cut(Watched):
    """Watched, and says seat 3 has no live link."""

    def connected(self) -> set[int]:
        return {0, 1}


async def _watch_seat_2(watching: type[Watched]) -> tuple[list[Table], list[tuple[str, bytes]]]:
    """Two deals of a game where seat 2's sends and syncs are logged in order.  On real
    seconds: after one slow sync (over ``INLINE_SYNC_LIMIT``) a driver syncs in a worker
    thread, and a virtual clock jumps ahead while a thread runs, which could make a
    seat look silent."""
    game = LocalGame.seeded(62)
    tables = game.make_tables()
    transports = memory_transports(4)
    watched = UntilTheSecondDeal(make_bot("random", 0))
    front_ends = [watched, *(BotFrontEnd(make_bot("random", s)) for s in range(1, 4))]
    log: list[tuple[str, bytes]] = []
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                driver = PeerDriver(
                    tables[seat],
                    watching(transports[seat], log) if seat == 2 else transports[seat],
                    front_ends[seat],
                    journal=Journal(log) if seat == 2 else None,
                )
                nursery.start_soon(driver.run)
            await watched.reached.wait()
            nursery.cancel_scope.cancel()
    return tables, log


async def test_what_a_seat_signs_is_synced_before_it_is_sent() -> None:
    tables, log = await _watch_seat_2(Watched)
    sent = [raw for what, raw in log if what == "sent"]
    assert len(sent) > 10
    unsynced: list[str] = []
    synced: list[str] = []
    for raw in sent:
        if ("synced", raw) in log and log.index(("synced", raw)) < log.index(("sent", raw)):
            synced.append(open_envelope(raw).type)
            continue
        # Sent before its own sync: only what a restart signs again byte for byte.
        assert log.index(("inputs synced", raw)) < log.index(("sent", raw))
        envelope = open_envelope(raw)
        assert tables[2].reproducible(envelope), envelope.type
        unsynced.append(envelope.type)
    assert {"shuffle", "lock", "shares", "reveal"} <= set(unsynced)
    assert {"table", "sit", "lot_commit", "lot_reveal"} & set(synced)
    assert "play" in synced  # a card chosen among several waits for the disk


async def test_while_a_seat_is_unreachable_everything_is_synced_before_it_is_sent() -> None:
    """Unsynced, an envelope must reach every seat, or a liar could keep the only copy."""
    tables, log = await _watch_seat_2(Cut)
    sent = [raw for what, raw in log if what == "sent"]
    assert len(sent) > 10
    assert any(tables[2].reproducible(open_envelope(raw)) for raw in sent)
    for raw in sent:
        assert log.index(("synced", raw)) < log.index(("sent", raw)), open_envelope(raw).type
