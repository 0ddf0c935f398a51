"""The chat box on screen at a LAN table: it sends to the other seats, shows what they say
with their names, says "slow down" and "too long", and stays out of the game's way."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import chat as chat_module
from p2pbelka.peer import lan
from p2pbelka.peer.chat import SEND_BURST, Chat, ChatLine
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.protocol.chat import MAX_CHAT_TEXT
from p2pbelka.table import events as ev
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.lan import join_on_screen
from p2pbelka.ui.words import i18n
from tests.lan.helpers import mesh_of
from tests.ui.test_ui_lan import drawn

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")
HELLO = "salem, all!"


def net(home: Path) -> lan.NetOptions:
    return lan.NetOptions(listen_host="127.0.0.1", announce=False, home=home, linger=0.5)


async def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)


class HostWhoChats(BotFrontEnd):
    """The host: a bot that greets the table once every link is up and keeps what it hears."""

    def __init__(self) -> None:
        super().__init__(make_bot("random", 0))
        self.chat: Chat | None = None
        self.lines: list[ChatLine] = []

    def join_chat(self, chat: Chat) -> None:
        self.chat = chat

    async def on_chat(self, line: ChatLine) -> None:
        self.lines.append(line)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.GameStarted):
            mesh = mesh_of(driver)
            assert self.chat is not None
            await until(lambda: mesh.connected() == {1, 2, 3})
            self.chat.say(HELLO)
        await super().on_event(driver, event)


def test_the_chat_box_talks_to_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The burst is never refilled here: "too fast" must not hang on how fast a loaded
    # machine types (each line once took longer than the refill).
    monkeypatch.setattr(chat_module, "SEND_EVERY", 3600.0)
    me = Identity.generate("Dana")
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")
    host = HostWhoChats()
    checked: list[str] = []

    async def say(screen: TableScreen, text: str) -> None:
        await until(lambda: screen.app.layout.has_focus(screen._home))
        pipe.send_text("c")
        await until(lambda: screen.app.layout.has_focus(screen.chat))
        pipe.send_text(text + "\r")

    async def back_to_the_table(screen: TableScreen) -> None:
        with trio.fail_after(60):
            while screen.overlay is not None:
                page = screen.overlay
                if page in ("deal_end", "sheet") and screen.app.layout.has_focus(screen._home):
                    pipe.send_text("\r")
                    with trio.move_on_after(30):  # else Enter again (a key lost)
                        while screen.overlay == page:
                            await trio.sleep(0.01)
                await trio.sleep(0.01)

    async def robot(screen: TableScreen) -> None:
        port: list[int] = []

        async def hosted(event: lan.LobbyEvent) -> None:
            if isinstance(event, lan.TableOpen):
                port.append(event.lobby_port)

        screen.lobby.session.start_soon(  # type: ignore[union-attr]
            lambda: lan.host_game(
                Identity.generate("Host"), "Chatty", host, net=net(tmp_path / "h"), on_lobby=hosted
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
        pipe.send_text("r")
        await until(lambda: screen.overlay != "lobby")

        # What the host says arrives with the host's name, on screen.
        await until(lambda: any(line.text == HELLO for line in screen.chat_lines))
        line = next(line for line in screen.chat_lines if line.text == HELLO)
        assert (line.name, line.seat, line.mine) == ("Host", 0, False)
        await until(lambda: f"Host: {HELLO}" in drawn(screen))

        # What we type reaches the host, cleaned, under our name, and shows here too.
        await say(screen, "  good luck all  ")
        await until(lambda: any(line.text == "good luck all" for line in host.lines))
        heard = next(line for line in host.lines if line.text == "good luck all")
        assert (heard.name, heard.seat) == ("Dana", screen.view.me)
        await until(lambda: any(ln.mine and ln.text == "good luck all" for ln in screen.chat_lines))
        assert screen.chat.text == "" and screen.app.layout.has_focus(screen._home)

        # Too long: said so, and the text stays in the box to be shortened.
        await say(screen, "x" * (MAX_CHAT_TEXT + 1))
        await until(lambda: screen.chat_note.startswith("Too long"))
        assert screen.chat.text == "x" * (MAX_CHAT_TEXT + 1)
        screen.chat.text = ""
        pipe.send_text("\x1b")  # Esc leaves the chat box

        # Too fast: "slow down", and the refused line comes back into the box.
        for n in range(SEND_BURST + 3):
            await say(screen, f"line {n}")
            await until(lambda n=n: bool(screen.chat_note) or _shown(screen, f"line {n}"))
            if screen.chat_note:
                break
        assert screen.chat_note.startswith("Slow down"), screen.chat_note
        assert screen.chat.text.startswith("line ")
        refused = screen.chat.text
        # The note is in the chat panel, which a page over the table hides (a bot may
        # have claimed a re-deal meanwhile): back at the table, it shows.
        await back_to_the_table(screen)
        await until(lambda: "Slow down" in drawn(screen))
        assert not any(line.text == refused for line in host.lines)
        checked.append("chat")

        screen.chat.text = ""
        await until(lambda: screen.app.layout.has_focus(screen._home))
        pipe.send_text("q")
        await until(lambda: screen.overlay == "quit")
        pipe.send_text("y")

    with create_pipe_input() as pipe:
        screen, result = join_on_screen(
            me, net=net(tmp_path / "me"), input=pipe, output=output, extra=robot
        )
    assert checked == ["chat"]
    assert result is None and screen.quit_requested


def _shown(screen: TableScreen, text: str) -> bool:
    return any(line.mine and line.text == text for line in screen.chat_lines)


def test_without_a_table_chat_the_box_says_nobody_reads_it() -> None:
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")
    i18n.set_language("en")
    with create_pipe_input() as pipe:
        screen = TableScreen(BELKA, BelkaView(), lambda move: None, input=pipe, output=output)

        async def main(bridge: Bridge) -> None:
            pipe.send_text("c")
            await until(lambda: screen.app.layout.has_focus(screen.chat))
            pipe.send_text("hello\x07 there\r")
            await until(lambda: bool(screen.chat_lines))
            assert [(ln.text, ln.mine) for ln in screen.chat_lines] == [("hello there", True)]
            assert screen.chat_note.startswith("Nobody else reads this chat")
            await until(lambda: "Nobody else reads" in drawn(screen))
            screen.view.apply(ev.GameAborted(()))  # the game is over
            screen.chat_note = ""
            pipe.send_text("c")  # the box does not open, and the note says why at once
            await until(lambda: screen.chat_note.startswith("The game is over"))
            await until(lambda: "The game is over" in drawn(screen))
            assert not screen.app.layout.has_focus(screen.chat)
            assert len(screen.chat_lines) == 1
            screen.quit()

        run_with_app(screen.app, main)
