"""A bot stopped before a deal for a hand-back, then told to play on after all (the
hand-back came to nothing): its driver is woken (``PeerDriver.nudge``), since no
envelope will ever come to make it look at its table (every other seat waits for
the bot), and the game is played to its end.  Real tables and crypto in memory, on
virtual seconds."""

from __future__ import annotations

import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.local import LocalGame, memory_transports
from p2pbelka.peer.seatchange.drivers import BotSeatDriver

BOT = 2
STOP = 2
PATIENT = 10_000.0
"""No driver gives up: a stall stays a stall (and the test's own wait ends it)."""


async def _stopped_then_on() -> list[tuple[bool, bool, int]]:
    local = LocalGame.seeded(12)  # a short game: won in its third deal (200 records)
    tables = local.make_tables()
    transports = memory_transports(len(tables))
    tables[BOT].stop_at_deal(STOP)
    drivers: list[PeerDriver] = []
    for seat, table in enumerate(tables):
        kind = BotSeatDriver if seat == BOT else PeerDriver
        front = BotFrontEnd(make_bot("random", seat))
        drivers.append(kind(table, transports[seat], front, give_up_after=PATIENT))
    async with trio.open_nursery() as nursery:
        for driver in drivers:
            nursery.start_soon(driver.run)
        while not (tables[0].state.deal_id >= STOP and tables[0].view.missing() == [BOT]):
            await trio.sleep(0.1)
        await trio.sleep(30)  # every table waits for the bot: nothing moves
        assert tables[0].state.deal_id == STOP and tables[0].view.missing() == [BOT]
        tables[BOT].stop_at_deal(None)
        drivers[BOT].nudge()
        with trio.move_on_after(PATIENT / 2):
            while not all(t.finished for t in tables):
                await trio.sleep(1)
        nursery.cancel_scope.cancel()
    return [(t.state.over, t.state.aborted, t.state.deal_id) for t in tables]


async def test_a_bot_told_to_play_on_is_woken_and_the_game_ends(
    autojump_clock: MockClock,
) -> None:
    ends = await _stopped_then_on()
    assert all(over and not aborted for over, aborted, _ in ends), ends
