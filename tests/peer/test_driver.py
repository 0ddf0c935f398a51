"""The peer driver's patience: automatic work that never comes is given up on; a person
deciding on a card is not."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import Bot, make_bot
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, Transport, Waiting
from p2pbelka.peer.local import LocalGame, memory_transports
from p2pbelka.peer.seatchange.drivers import SegmentDriver
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
        if driver.table.state.deal_id >= 2 or driver.table.finished:
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
    """A signed journal, and the transcript it syncs, that remember what they were told,
    in order: ``log`` gets ("synced", raw) for every envelope kept and every envelope
    appended to the transcript, when they are synced."""

    syncs = True

    def __init__(self, log: list[tuple[str, bytes]]) -> None:
        self.log = log
        self.written: list[bytes] = []

    def append(self, envelope: Envelope) -> None:
        self.written.append(envelope.raw)

    def keep(self, envelopes: list[Envelope]) -> None:
        self.written += [e.raw for e in envelopes]

    def sync(self) -> None:
        self.log += [("synced", raw) for raw in self.written]
        self.written = []


class Watched:
    """A transport that notes what is broadcast (for the order of sync and send), and
    what the table had accepted by then (``inputs``)."""

    def __init__(self, inner: Transport, log: list[tuple[str, bytes]], table: Table) -> None:
        self.inner, self.log, self.table = inner, log, table
        self.inputs: dict[bytes, list[bytes]] = {}

    async def broadcast(self, raw: bytes) -> None:
        self.log.append(("sent", raw))
        self.inputs[raw] = [e.raw for e in self.table.view.transcript]
        await self.inner.broadcast(raw)

    async def receive(self) -> bytes:
        return await self.inner.receive()


class Cut(Watched):
    """Watched, and says seat 3 has no live link."""

    def connected(self) -> set[int]:
        return {0, 1}


async def _watch_seat_2(
    watching: type[Watched],
) -> tuple[list[Table], Watched, list[tuple[str, bytes]]]:
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
    journal = Journal(log)
    seat_2 = watching(transports[2], log, tables[2])
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                driver = PeerDriver(
                    tables[seat],
                    seat_2 if seat == 2 else transports[seat],
                    front_ends[seat],
                    transcript=journal if seat == 2 else None,
                    journal=journal if seat == 2 else None,
                )
                nursery.start_soon(driver.run)
            await watched.reached.wait()
            nursery.cancel_scope.cancel()
    return tables, seat_2, log


@pytest.mark.parametrize("watching", [Watched, Cut], ids=["all linked", "a seat unreachable"])
async def test_what_a_seat_signs_is_synced_with_its_inputs_before_it_is_sent(
    watching: type[Watched],
) -> None:
    """Every envelope, whatever the links: the envelope itself and everything the table
    had accepted (what it was computed from) are synced before it is sent.  Sent
    with an input not on the disk, after a power cut the seat could be handed another
    version of that input by the seat that signed it, and sign its place again."""
    tables, seat_2, log = await _watch_seat_2(watching)
    setup = tables[2].state.setup
    assert setup is not None
    key = setup.seats[2].key
    types: set[str] = set()
    for at, (what, raw) in enumerate(log):
        envelope = open_envelope(raw)
        if what != "sent" or envelope.sender != key:
            continue  # a sync, or another seat's envelope passed on
        types.add(envelope.type)
        synced = {r for w, r in log[:at] if w == "synced"}
        assert raw in synced, f"{envelope.type} sent before it was synced"
        missing = [r for r in seat_2.inputs[raw] if r not in synced]
        assert not missing, f"{envelope.type} sent before its inputs were synced"
    assert {"sit", "shuffle", "lock", "shares", "reveal", "play"} <= types


class Away(BotFrontEnd):
    """Seat 1's person, away from the keyboard: never makes a choice."""

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)


class Linked:
    """A transport whose links to every seat are alive, until the test cuts one
    (``links``)."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner
        self.links = {0, 1, 2, 3}

    async def broadcast(self, raw: bytes) -> None:
        await self.inner.broadcast(raw)

    async def receive(self) -> bytes:
        return await self.inner.receive()

    def connected(self) -> set[int]:
        return set(self.links)


Meanwhile = Callable[[BotFrontEnd, Linked], Awaitable[None]]
"""What a test does while seat 1 is away: told seat 2's front end and transport."""


async def _first_give_up(
    cut_off: bool, meanwhile: Meanwhile | None = None, unplayed_after: float = math.inf
) -> tuple[float, list[int]]:
    """When seat 2 first gives up (virtual seconds from the start) and on whom, while
    seat 1's person, whose link is alive, thinks forever; ``cut_off``: seat 2 came back
    from an outage past the window and has not asked about its seat since;
    ``unplayed_after``: seat 2 knows nobody can play seat 1 (a bot it ran, lost with
    its restart), and gives it up after so long."""
    tables = LocalGame.seeded(61).make_tables()
    transports = memory_transports(4)
    front_ends = [Away(make_bot("random", s)) if s == 1 else BotFrontEnd(make_bot("random", s))
                  for s in range(4)]  # fmt: skip
    gave_up: list[tuple[float, list[int]]] = []
    done = trio.Event()

    def seat_gone(driver: PeerDriver, seats: list[int], silent: float) -> bool:
        gave_up.append((trio.current_time(), seats))
        done.set()
        return True  # the seat change takes it from here

    started = trio.current_time()
    links = Linked(transports[2])
    with trio.fail_after(3 * DECIDE_LIMIT):
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                timing = {"pause_after": PAUSE_AFTER, "give_up_after": GIVE_UP_AFTER}
                if seat == 2:
                    driver: PeerDriver = SegmentDriver(
                        tables[2], links, front_ends[2], seat_gone=seat_gone,
                        cut_off=lambda: cut_off, decide_limit=DECIDE_LIMIT,
                        unplayed=lambda s: s == 1 and unplayed_after < math.inf,
                        unplayed_after=unplayed_after, **timing,
                    )  # fmt: skip
                else:
                    driver = PeerDriver(tables[seat], transports[seat], front_ends[seat], **timing)
                nursery.start_soon(driver.run)
            if meanwhile is not None:
                nursery.start_soon(meanwhile, front_ends[2], links)
            await done.wait()
            nursery.cancel_scope.cancel()
    at, seats = gave_up[0]
    return at - started, seats


DECIDE_LIMIT = 60.0


@pytest.mark.parametrize("cut_off", [False, True], ids=["linked all along", "back from a cut"])
async def test_back_from_a_cut_no_seat_is_waited_for_as_deciding(
    autojump_clock: MockClock, cut_off: bool
) -> None:
    """A person deciding on a live link is waited for up to the decide limit; but a peer
    back from an outage past the window gives up at the window (and so asks whether its
    seat changed hands): the others may have left the segment, a bot in its seat, and
    the seat due never moves in it."""
    at, seats = await _first_give_up(cut_off)
    assert seats == [1]
    if cut_off:
        assert GIVE_UP_AFTER <= at < DECIDE_LIMIT
    else:
        assert at >= DECIDE_LIMIT


async def test_a_seat_nobody_can_play_is_given_up_on_before_the_window(
    autojump_clock: MockClock,
) -> None:
    """A bot this peer ran before it restarted holds seat 1 (its key and secrets went
    with the restart): nothing the window could bring will move it, so the give-up (and
    with it the offer of a fresh bot, SPEC 9.5) comes after ``unplayed_after``."""

    async def unlinked(seat_2: BotFrontEnd, links: Linked) -> None:
        links.links.discard(1)  # (a seat thinking on a live link is waited for anyway)

    at, seats = await _first_give_up(False, unlinked, unplayed_after=GIVE_UP_AFTER / 3)
    assert seats == [1]
    assert GIVE_UP_AFTER / 3 <= at < GIVE_UP_AFTER


async def test_a_seat_nobody_can_play_is_not_waited_for_as_a_person_thinking(
    autojump_clock: MockClock,
) -> None:
    """Seat 1's own player is back and linked (it watches, asking for its seat), but a
    bot this peer ran before it restarted holds the seat: nobody thinks there.  It used
    to be waited for up to the decide limit, as a person on a live link, and no fresh
    bot was offered meanwhile; it is given up on after ``unplayed_after`` (found by the
    simulator: Belka seed 201964)."""
    at, seats = await _first_give_up(False, unplayed_after=GIVE_UP_AFTER / 3)
    assert seats == [1]
    assert GIVE_UP_AFTER / 3 <= at < GIVE_UP_AFTER


async def test_a_person_thinking_is_told_apart_from_a_seat_whose_link_died(
    autojump_clock: MockClock,
) -> None:
    """Seat 1's person thinks over a live link: the others' screens hear that the table
    waits for it as a seat that is thinking (not one gone), and nobody gives up on it;
    once its link dies the wait is said again, the seat no longer thinking, and the
    give-up follows at once (the window is long past)."""
    fronts: list[BotFrontEnd] = []
    cut: list[bool] = []

    def waits(seat_2: BotFrontEnd) -> list[Waiting]:
        return [e for e in seat_2.events if isinstance(e, Waiting) and 1 in e.seats]

    async def meanwhile(seat_2: BotFrontEnd, links: Linked) -> None:
        fronts.append(seat_2)
        while not waits(seat_2):
            await trio.sleep(PAUSE_AFTER)
        await trio.sleep(3 * GIVE_UP_AFTER)  # long past the window: still thinking
        links.links.discard(1)
        cut.append(True)  # nobody gave up on seat 1 so far: the game still runs

    _at, seats = await _first_give_up(False, meanwhile)
    assert cut and seats == [1]
    assert [w.thinking for w in waits(fronts[0])] == [(1,), ()]
