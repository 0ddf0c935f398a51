"""The lobby over real sockets (seats, ready, refusals) and the text lines users read."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, Resumed, Waiting
from p2pbelka.peer.lan import (
    GameStarting,
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    OnLobby,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.local import LocalGame
from p2pbelka.table import events as ev
from p2pbelka.ui.words.englishlog import english_line


def test_the_lines_users_read() -> None:
    table = LocalGame.seeded(1).make_tables()[0]
    mismatch = ev.Fault(2, "told different peers different things (seen by seat 1)", deal=3)
    line = english_line(ev.GameAborted((mismatch,)), table)
    assert "TRANSCRIPT MISMATCH" in line and "seat 2" in line
    silent = ev.Fault(1, "went silent while play was due", deal=2)
    assert english_line(ev.GameAborted((silent,)), table) == (
        "GAME ABORTED: deal 2: seat 1: went silent while play was due"
    )
    assert english_line(Waiting((1, 3), 10.2), table) == "waiting for seat 1, 3 (silent for 10 s)"
    assert english_line(Resumed(), table) == "the game goes on"
    assert (
        english_line(ev.Rejected("bad signature", 2), table)
        == "rejected from seat 2: bad signature"
    )


async def test_seats_ready_and_refusals_in_the_lobby(tmp_path: Path) -> None:
    ids = [Identity.generate(f"p{n}") for n in range(5)]
    opened = trio.Event()
    ports: list[int] = []
    starting: list[GameStarting] = []
    states: dict[int, SeatsChanged] = {}

    def net(n: int) -> NetOptions:
        return NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path / f"p{n}")

    async def host_events(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            ports.append(event.lobby_port)
            opened.set()
        if isinstance(event, GameStarting):
            starting.append(event)

    def joiner_events(n: int) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, SeatsChanged):
                states[n] = event
            if isinstance(event, GameStarting):
                starting.append(event)

        return on_lobby

    async def join(n: int) -> None:
        fe = BotFrontEnd(make_bot("random", n))
        await join_game(
            ids[n], "127.0.0.1", ports[0], fe, net=net(n), on_lobby=joiner_events(n), ready=False
        )

    with trio.fail_after(120):  # a hang, not a speed limit
        async with trio.open_nursery() as nursery:
            fe0 = BotFrontEnd(make_bot("random", 0))
            nursery.start_soon(
                lambda: host_game(ids[0], "Lobby test", fe0, net=net(0), on_lobby=host_events)
            )
            await opened.wait()
            for n in (1, 2, 3):
                nursery.start_soon(join, n)
                while n not in states or states[n].me is None:
                    await trio.sleep(0.01)
            assert [states[3].state.seats[s] is not None for s in range(4)] == [True] * 4
            with pytest.raises(LobbyRefused, match="full"):
                await join_game(ids[4], "127.0.0.1", ports[0], BotFrontEnd(make_bot("random")))
            # Nobody is ready yet: no start.  Seat 1 cannot take seat 2, which is taken.
            control = states[1].control
            assert control is not None
            await control.take_seat(2)
            await trio.sleep(0.2)
            assert not starting and states[1].me == 1
            for n in (1, 2, 3):
                control = states[n].control
                assert control is not None
                await control.ready(True)
            while len(starting) < 4:
                await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    assert sorted(s.seat for s in starting) == [0, 1, 2, 3]
    assert len({s.game_id for s in starting}) == 1
    assert starting[0].fingerprints == tuple(i.fingerprint for i in ids[:4])
