"""The LAN lobby on screen, over loopback sockets: host and fill with bots; join by address."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.lan import host_on_screen, join_on_screen

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


def net(home: Path) -> lan.NetOptions:
    return lan.NetOptions(listen_host="127.0.0.1", announce=False, home=home, linger=0.5)


async def until(condition: Callable[[], bool], seconds: float = 15) -> None:
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)


async def play_one_card_and_leave(screen: TableScreen, pipe: PipeInput) -> None:
    view = screen.view
    await until(lambda: screen.overlay != "lobby")
    with trio.fail_after(60):
        while not (view.my_turn and screen.overlay is None):
            if screen.overlay == "deal_end":  # somebody claimed a re-deal
                pipe.send_text("\r")
                await until(lambda: screen.overlay != "deal_end")
            elif view.choice == "redeal":
                pipe.send_text("n")
                await until(lambda: view.choice != "redeal")
            await trio.sleep(0.05)
    before = len(view.hand)
    pipe.send_text("\r")
    await until(lambda: len(view.hand) < before)
    pipe.send_text("q")
    await until(lambda: screen.overlay == "quit")
    pipe.send_text("y")


def drawn(screen: TableScreen) -> str:
    """The terminal as last drawn, row by row.  Not the output stream: prompt_toolkit
    writes only the cells that changed since the frame before, so a word drawn over
    similar text reaches the stream in pieces between cursor moves."""
    last = screen.app.renderer._last_screen
    if last is None:
        return ""
    lines = []
    for y in range(last.height):
        row = dict(last.data_buffer.get(y, {}))  # a copy: the renderer diffs against it
        lines.append(
            "".join(row[x].char if x in row else " " for x in range(max(row, default=-1) + 1))
        )
    return "\n".join(lines)


def terminal() -> tuple[io.StringIO, Vt100_Output]:
    stream = io.StringIO()
    return stream, Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")


def test_host_fills_the_table_with_bots_and_plays(tmp_path: Path) -> None:
    me = Identity.generate("Hostess")
    stream, output = terminal()
    seen: list[str] = []

    async def robot(screen: TableScreen) -> None:
        await until(
            lambda: screen.lobby.view.state is not None and screen.lobby.view.lobby_port is not None
        )
        await until(lambda: me.fingerprint in drawn(screen))
        pipe.send_text("b")
        await until(lambda: not screen.lobby.view.free_seats)
        seen.extend(s.name for s in screen.lobby.view.state.seats if s is not None)  # type: ignore[union-attr]
        await play_one_card_and_leave(screen, pipe)

    with create_pipe_input() as pipe:
        screen, result = host_on_screen(
            me, "Test table", net=net(tmp_path), input=pipe, output=output, extra=robot
        )
    assert result is None and screen.quit_requested  # left during the game
    # the bots named after their level, as the guide says, and each its own name
    assert seen[0] == "Hostess"
    assert sorted(seen[1:]) == ["Heuristic bot", "Heuristic bot 2", "Heuristic bot 3"]
    assert len(seen) == 4 and screen.view.names[0] == "Hostess"
    assert "Lobby port" in ANSI.sub("", stream.getvalue())


def test_join_by_address_say_ready_and_play(tmp_path: Path) -> None:
    me = Identity.generate("Joiner")
    _stream, output = terminal()

    async def robot(screen: TableScreen) -> None:
        port: list[int] = []

        async def hosted(event: lan.LobbyEvent) -> None:
            if isinstance(event, lan.TableOpen):
                port.append(event.lobby_port)

        host = Identity.generate("Host")
        screen.lobby.session.start_soon(  # type: ignore[union-attr]
            lambda: lan.host_game(
                host,
                "Theirs",
                BotFrontEnd(make_bot("random", 1)),
                net=net(tmp_path / "h"),
                on_lobby=hosted,
            )
        )
        await until(lambda: bool(port) and screen.lobby.view.listening)
        pipe.send_text("a")
        await until(lambda: screen.app.layout.has_focus(screen.lobby.address))
        pipe.send_text(f"127.0.0.1:{port[0]}\r")
        await until(lambda: screen.lobby.view.me is not None)
        for n in (2, 3):
            screen.lobby.session.start_soon(  # type: ignore[union-attr]
                lambda n=n: lan.join_game(
                    Identity.generate(f"b{n}"),
                    "127.0.0.1",
                    port[0],
                    BotFrontEnd(make_bot("random", n)),
                    net=net(tmp_path / f"b{n}"),
                )
            )
        await until(lambda: not screen.lobby.view.free_seats)
        assert screen.overlay == "lobby"  # not ready yet: the game waits for us
        pipe.send_text("r")
        await play_one_card_and_leave(screen, pipe)

    with create_pipe_input() as pipe:
        screen, result = join_on_screen(
            me, net=net(tmp_path / "me"), input=pipe, output=output, extra=robot
        )
    assert result is None and screen.quit_requested
    assert screen.view.names[0] == "Host" and screen.view.me != 0
