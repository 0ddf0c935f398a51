"""A seat resumed while another seat is gone for good is not held for ever.

A resumed seat signs nothing until the others have answered its resend request:
any of them may hold what it sent before it stopped.  A seat that cannot be
reached at all for half the reconnect window is taken for gone (its player
left; a bot may play it by now, and never answers for it): the answers of the
seats that can be reached are then enough, and the resumed seat plays on.  Here
it is the one that ends the game, signing the dispute that names the gone seat.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import (
    GameResult,
    GameStarting,
    LobbyEvent,
    NetOptions,
    OnLobby,
    TableOpen,
    resume_game,
)
from p2pbelka.peer.store import GameStore
from p2pbelka.table import events as ev
from tests.lan.helpers import host_or_join

GONE, RESUMED = 3, 2


class StuckAtThree(BotFrontEnd):
    """A bot, but seat 3 stops for good when it is first asked to choose."""

    def __init__(self, n: int, stuck: trio.Event) -> None:
        super().__init__(make_bot("random", n))
        self.stuck = stuck

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if driver.table.state.me == GONE and isinstance(event, ev.ChoiceNeeded):
            self.stuck.set()
            await trio.sleep_forever()
        await super().on_event(driver, event)


def _net(home: Path, give_up_after: float) -> NetOptions:
    return NetOptions(
        listen_host="127.0.0.1",
        announce=False,
        home=home,
        pause_after=1.0,
        give_up_after=give_up_after,
        resend_after=0.5,
        linger=1.0,
        seat_bots=False,  # the gone seat stays gone
    )


async def test_a_seat_resumed_beside_a_seat_gone_for_good_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, autojump_clock: MockClock
) -> None:
    caplog.set_level(logging.INFO)
    ids = [Identity.generate(f"p{n}") for n in range(4)]
    stuck, opened = trio.Event(), trio.Event()
    lobby_port: list[int] = []
    scopes = [trio.CancelScope() for _ in range(4)]
    index_of: dict[int, int] = {}  # seat -> peer
    results: dict[int, GameResult] = {}
    front_ends = [StuckAtThree(n, stuck) for n in range(4)]

    def events_for(n: int) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                lobby_port.append(event.lobby_port)
                opened.set()
            elif isinstance(event, GameStarting):
                index_of[event.seat] = n

        return on_lobby

    async def peer(n: int) -> None:
        # The seats that stay wait long: the resumed seat is the one to end the game.
        net = _net(tmp_path / f"peer{n}", 60.0)
        with scopes[n]:
            result = await host_or_join(
                n, ids, "gone", front_ends, net, events_for(n), opened, lobby_port
            )
            results[result.seat] = result

    resumed_end = BotFrontEnd(make_bot("random", 9))
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for n in range(4):
                nursery.start_soon(peer, n)
            await stuck.wait()
            scopes[index_of[GONE]].cancel()  # gone for good
            back = index_of[RESUMED]
            scopes[back].cancel()  # killed, and started again at once
            await trio.sleep(0.2)
            store = GameStore.find(home=tmp_path / f"peer{back}")
            net = _net(tmp_path / f"peer{back}", 6.0)  # holds 3 s at most for seat 3
            results[RESUMED] = await resume_game(ids[back], store, resumed_end, net=net)
    assert "every seat that can be reached has answered (not [3])" in caplog.text
    assert results[RESUMED].aborted
    (ended,) = [e for e in resumed_end.events if isinstance(e, ev.GameAborted)]
    assert [f.seat for f in ended.faults] == [GONE] and "went silent" in ended.faults[0].what
    # The resumed seat signed the dispute: the others end on it, long before their own
    # 60 s would have passed.
    for seat in (0, 1):
        (ended,) = [e for e in front_ends[index_of[seat]].events if isinstance(e, ev.GameAborted)]
        assert "named by seat 2" in str(ended.faults[0]), ended
