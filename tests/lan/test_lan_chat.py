"""Chat between real LAN peers over loopback sockets: host and joiners, a whole game.

Seat 0 says hello; seats 1 and 3 (a bot's text lines) hear it with the sender's
name; seat 2 floods the table with chat (signed lines past every limit, garbage,
lines claiming another seat) and the game still finishes, the same transcript
everywhere, with no chat in it.
"""

from __future__ import annotations

import io
from pathlib import Path

import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.chat import (
    FLOOD,
    HEAR_BURST,
    MALFORMED,
    NOT_ITS_LINK,
    Chat,
    ChatLine,
)
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import (
    GameResult,
    LobbyEvent,
    NetOptions,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.text import TextFrontEnd
from p2pbelka.protocol.chat import seal_chat
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.words.englishlog import ENGLISH
from tests.lan.helpers import mesh_of

HELLO = "salem, table!"
FLOOD_LINES = 300
GARBAGE = 100


async def all_links_up(driver: PeerDriver) -> None:
    """Chat is not relayed: a line said before a link is up does not reach that seat."""
    mesh = mesh_of(driver)
    others = set(range(len(mesh.keys))) - {mesh.me}
    with trio.fail_after(60):
        while mesh.connected() != others:
            await trio.sleep(0.01)


class ChatBot(BotFrontEnd):
    """A bot that reads the chat; ``speak`` is said once every link is up, ``flood``
    sends a flood instead, and it holds its first card until it heard ``wait_for``."""

    def __init__(
        self, seat: int, *, speak: str = "", flood: bool = False, wait_for: str = ""
    ) -> None:
        super().__init__(make_bot("random", seat))
        self.speak, self.flood, self.wait_for = speak, flood, wait_for
        self.chat: Chat | None = None
        self.lines: list[ChatLine] = []

    def join_chat(self, chat: Chat) -> None:
        self.chat = chat

    async def on_chat(self, line: ChatLine) -> None:
        self.lines.append(line)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        assert self.chat is not None
        if isinstance(event, ev.GameStarted) and (self.speak or self.flood):
            await all_links_up(driver)
            if self.speak:
                self.chat.say(self.speak)
            if self.flood:
                # After the hello, so the speaker's first line is its own: which seat
                # starts the game first is a race between the seats.
                if self.wait_for:
                    await heard(self.lines, self.wait_for)
                self._flood(driver)
        if isinstance(event, ev.ChoiceNeeded) and self.wait_for:
            await heard(self.lines, self.wait_for)
            self.wait_for = ""
        await super().on_event(driver, event)

    def _flood(self, driver: PeerDriver) -> None:
        """What a peer that ignores its own limiter could send: all signed by its key."""
        assert self.chat is not None
        mesh = mesh_of(driver)
        game = self.chat.gate.segment
        for n in range(FLOOD_LINES):
            mesh.send_chat(seal_chat(self.chat.signer, game, n + 1, f"spam {n}").raw)
        for n in range(GARBAGE):
            mesh.send_chat(b"\x93" + bytes([n]) * n)
        # a line in seat 0's name, signed by our own key: not seat 0's, dropped
        raw = seal_chat(self.chat.signer, game, 10**6, "seat 0 gives up").raw
        mesh.send_chat(raw.replace(self.chat.signer.public_key, mesh.keys[0]))


class ChatText(TextFrontEnd):
    """The text lines of a ``join --bot`` peer, held at its first card until it heard
    ``wait_for`` (so the game cannot end before the hello arrives)."""

    def __init__(self, seat: int, out: io.StringIO, wait_for: str) -> None:
        super().__init__(make_bot("random", seat), out, words=ENGLISH)
        self.wait_for = wait_for

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.ChoiceNeeded) and self.wait_for:
            await heard(self.chat_lines, self.wait_for)
            self.wait_for = ""
        await super().on_event(driver, event)


async def heard(lines: list[ChatLine], text: str) -> None:
    with trio.fail_after(60):
        while not any(line.text == text for line in lines):
            await trio.sleep(0.01)


async def test_chat_reaches_the_table_and_a_flood_does_not_stop_the_game(
    tmp_path: Path,
) -> None:
    names = ["Aigerim", "Bolat", "Saule", "Nurlan"]
    ids = [Identity.generate(name) for name in names]
    out = io.StringIO()
    front_ends = [
        ChatBot(0, speak=HELLO),
        ChatBot(1, wait_for=HELLO),
        ChatBot(2, flood=True, wait_for=HELLO),
        ChatText(3, out, wait_for=HELLO),
    ]
    results: list[GameResult] = []
    opened = trio.Event()
    port: list[int] = []

    def net(n: int) -> NetOptions:
        return NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path / f"p{n}")

    async def host_events(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            port.append(event.lobby_port)
            opened.set()

    async def host() -> None:
        results.append(
            await host_game(ids[0], "Chat table", front_ends[0], net=net(0), on_lobby=host_events)
        )

    async def join(n: int, seated: trio.Event) -> None:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, SeatsChanged) and event.me is not None:
                seated.set()

        result = await join_game(
            ids[n], "127.0.0.1", port[0], front_ends[n], net=net(n), on_lobby=on_lobby
        )
        results.append(result)

    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host)
            await opened.wait()
            for n in (1, 2, 3):  # one at a time: joiner n takes seat n
                seated = trio.Event()
                nursery.start_soon(join, n, seated)
                await seated.wait()

    assert sorted(r.seat for r in results) == [0, 1, 2, 3]
    assert all(r.finished for r in results), "the flood stopped the game"
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1 and verify_bytes(files.pop()).ok
    assert not any(b"salem" in r.store.transcript_path.read_bytes() for r in results)

    speaker, listener, flooder, text = front_ends
    assert isinstance(speaker, ChatBot) and isinstance(listener, ChatBot)
    assert isinstance(flooder, ChatBot) and isinstance(text, ChatText)
    # The hello reached everyone once, with the sender's name; the speaker saw its own.
    for fe_lines in (listener.lines, flooder.lines, text.chat_lines):
        hellos = [ln for ln in fe_lines if ln.text == HELLO]
        assert [(ln.seat, ln.name, ln.mine) for ln in hellos] == [(0, "Aigerim", False)]
    assert [(ln.text, ln.mine) for ln in speaker.lines[:1]] == [(HELLO, True)]
    assert f"chat: Aigerim (seat 0): {HELLO}" in out.getvalue()

    # The flood was cut at each receiver, the rest dropped and counted, nobody crashed.
    for fe in (speaker, listener):
        assert fe.chat is not None
        spam = [ln for ln in fe.lines if ln.seat == 2]
        assert HEAR_BURST <= len(spam) < FLOOD_LINES
        assert all(ln.name == "Saule" and ln.text.startswith("spam") for ln in spam)
        dropped = fe.chat.dropped
        assert dropped[FLOOD] == FLOOD_LINES - len(spam)
        assert dropped[MALFORMED] == GARBAGE and dropped[NOT_ITS_LINK] == 1
        assert not any(ln.text == "seat 0 gives up" for ln in fe.lines)

    # The chat is kept beside the transcript, apart from it.
    store = next(r.store for r in results if r.seat == 1)
    log = listener.chat.log if listener.chat else None
    assert log is not None and log.path == store.directory / "chat.log"
    assert HELLO in [m.text for m in log.read()]
