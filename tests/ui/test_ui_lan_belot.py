"""A LAN table of Belot on screen, over loopback sockets: the person hosts (bots fill
the table with ``b``) or joins a bot host's table by address; either way, after the
lobby, Belot's own screen, and a whole deal played by keys (``tests/ui/belot_robot.py``).

A joiner learns the game only in the lobby: its first screen is replaced by
Belot's there, and the robot follows the screen the session holds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.lan import host_on_screen, join_on_screen
from tests.ui.belot_robot import BelotRobot, Terminal


def net(home: Path) -> lan.NetOptions:
    return lan.NetOptions(listen_host="127.0.0.1", announce=False, home=home, linger=0.5)


async def until(condition: Callable[[], bool], seconds: float = 60) -> None:
    with trio.fail_after(seconds):  # a hang, not a speed limit
        while not condition():
            await trio.sleep(0.01)


def terminal() -> tuple[Terminal, Vt100_Output]:
    stream = Terminal()
    return stream, Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")


def played_a_deal(screen: TableScreen, robot: BelotRobot) -> None:
    assert screen.game is BELOT and screen.quit_requested
    assert robot.cards_played == 9 and len(robot.pages) == 1
    summary = robot.pages[0].summary
    assert len(summary.hands) == screen.view.players
    assert summary.played is not None and len(summary.played.tricks) == 9
    drawn = next(s for s in robot.screens if "Fair deal verified" in s)
    assert "Stock:" in drawn and "Hands as dealt" in drawn
    report = verify_bytes(Path(str(screen.view.transcript_path)).read_bytes())
    assert report.error is None and report.deals and not report.faults


def test_the_host_plays_a_belot_deal_on_belots_screen(tmp_path: Path) -> None:
    me = Identity.generate("Hostess")
    stream, output = terminal()
    robot: list[BelotRobot] = []

    async def person(screen: TableScreen) -> None:
        assert screen.game is BELOT  # the host knows its game at once
        lobby = screen.lobby.view
        await until(lambda: lobby.lobby_port is not None and "Belot for 3" in stream.text())
        pipe.send_text("b")
        await until(lambda: screen.overlay != "lobby")
        robot.append(BelotRobot(pipe, stream, deals=1))
        await robot[0].run(screen)

    with create_pipe_input() as pipe:
        screen, result = host_on_screen(
            me,
            "Belot corner",
            game="belot",
            players=3,
            net=net(tmp_path),
            input=pipe,
            output=output,
            extra=person,
        )
    assert result is None  # left after the deal
    played_a_deal(screen, robot[0])
    assert screen.view.me == 0 and screen.view.names[0] == "Hostess"


def test_a_joiner_gets_belots_screen_from_the_lobby_and_plays_a_deal(tmp_path: Path) -> None:
    me = Identity.generate("Joiner")
    stream, output = terminal()
    robot: list[BelotRobot] = []
    first: list[TableScreen] = []

    async def person(screen: TableScreen) -> None:
        first.append(screen)
        session = screen.lobby.session
        events: list[lan.LobbyEvent] = []

        async def hosted(event: lan.LobbyEvent) -> None:
            events.append(event)

        host = Identity.generate("Host")
        session.start_soon(
            lambda: lan.host_game(
                host,
                "Three",
                BotFrontEnd(make_bot("random", 1)),
                net=net(tmp_path / "h"),
                on_lobby=hosted,
                game="belot",
                players=3,
            )
        )
        await until(lambda: any(isinstance(e, lan.TableOpen) for e in events))
        port = next(e.lobby_port for e in events if isinstance(e, lan.TableOpen))
        await until(lambda: screen.lobby.view.listening)
        pipe.send_text("a")
        await until(lambda: screen.app.layout.has_focus(screen.lobby.address))
        pipe.send_text(f"127.0.0.1:{port}\r")
        await until(lambda: screen.lobby.view.me is not None)
        # the lobby said Belot for three: the screen plays Belot from now on, still itself
        table = session.screen
        assert table.game is BELOT and table is screen
        assert table.app is screen.app and table.view.players == 3
        assert table.overlay == "lobby"
        await until(lambda: "Belot for 3" in stream.text())
        session.start_soon(
            lambda: lan.join_game(
                Identity.generate("Other"),
                "127.0.0.1",
                port,
                BotFrontEnd(make_bot("random", 2)),
                host_key=host.public_key,
                net=net(tmp_path / "o"),
            )
        )
        await until(lambda: not table.lobby.view.free_seats)
        pipe.send_text("r")
        await until(lambda: table.overlay != "lobby")
        robot.append(BelotRobot(pipe, stream, deals=1))
        await robot[0].run(table)

    with create_pipe_input() as pipe:
        screen, result = join_on_screen(
            me, net=net(tmp_path / "me"), input=pipe, output=output, extra=person
        )
    assert result is None
    assert screen is first[0]
    assert screen.game is BELOT
    played_a_deal(screen, robot[0])
    assert screen.view.names[screen.view.me or 0] == "Joiner"
