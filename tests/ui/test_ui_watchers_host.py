"""The host's side of watchers on screen: the lobby lists who watches and says who asks
to watch rather than to sit, the list of tables says where one can watch, and the
host's table lists its watchers and asks about one who comes during the game (y or n),
and forgets one who leaves before the host answers, nothing cut at 80×24."""

from __future__ import annotations

import trio
from prompt_toolkit.input import create_pipe_input

from p2pbelka.net.directory import TableInfo
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer import lan
from p2pbelka.peer.lan import NetOptions
from p2pbelka.peer.lan.events import WatchersChanged, WatcherView
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.lan import LanSession
from p2pbelka.ui.lobbyview import LobbyView, lobby_lines
from p2pbelka.ui.words.i18n import set_language
from tests.ui.render import Drawn, Terminal, render

KEYS = [Identity.generate().public_key for _ in range(3)]


def _text(view: LobbyView) -> str:
    return "".join(text for _style, text in lobby_lines(view))


def _state() -> LobbyState:
    seats = (SeatView(KEYS[0], "Asel", True), None)
    return LobbyState(bytes(16), "Kitchen", "classic", {}, seats, "belot")


def test_the_host_s_lobby_lists_watchers_and_who_asks_to_watch() -> None:
    set_language("en")
    view = LobbyView("host", state=_state(), me=0)
    view.apply(WatchersChanged((WatcherView(KEYS[1], "Dana", "10.0.0.7"),), 7))
    view.apply(lan.JoinersAsking((lan.JoinRequest(KEYS[2], "Ayan", "10.0.0.8", watcher=True),)))
    text = _text(view)
    assert "1 watches:" in text and "Dana" in text and fingerprint(KEYS[1]) in text
    assert "Ayan" in text and "wants to watch" in text
    view.apply(WatchersChanged((), 8))
    assert "Dana" not in _text(view)


def test_the_list_of_tables_says_where_one_can_watch() -> None:
    set_language("en")
    full = TableInfo(bytes(16), "Kitchen", "belka", 4, 0, "10.0.0.2", 4000, KEYS[0], 1, 0.0)
    closed = TableInfo(bytes([1]) * 16, "Den", "belka", 4, 0, "10.0.0.3", 4000, KEYS[1], 1, 0.0)
    view = LobbyView("join", listening=True)
    view.apply(lan.TablesHeard((TableInfo(**{**full.__dict__, "watch": 3}), closed)))
    lines = _text(view).splitlines()
    assert "watch: 3 places" in next(line for line in lines if "Kitchen" in line)
    assert "watch" not in next(line for line in lines if "Den" in line)


def test_the_host_s_table_lists_watchers_and_asks_about_one_at_y_or_n() -> None:
    set_language("en")
    game, view = registry.new_view("belka", 4)
    view.names = ["Asel", "Bolat", "Saule", "Nurlan"]
    view.dealer = 0
    view.watchers = ("Dana", "Ayan")
    view.watch_asking = ("Erlan", fingerprint(KEYS[2]))
    terminal = Terminal()
    with create_pipe_input() as pipe:
        screen = TableScreen(game, view, input=pipe, output=terminal.output)
        decided: list[bool] = []
        screen.decide_watcher = decided.append
        drawn: list[Drawn] = []

        async def main(bridge: Bridge) -> None:
            drawn.append(render(screen, terminal, 80, 24))
            pipe.send_text("y")
            while not decided:
                await trio.sleep(0.01)
            screen.quit()

        run_with_app(screen.app, main)
    assert not drawn[0].faults, drawn[0].faults
    assert "2 watching: Dana, Ayan" in drawn[0].text
    assert "Erlan" in drawn[0].text and "wants to watch" in drawn[0].text
    assert decided == [True] and view.watch_asking == ()
    assert not screen.answer_offer(False)  # nobody asks any more


def test_who_leaves_while_the_host_decides_goes_from_the_host_s_lobby_and_table() -> None:
    """The host's door stops asking about someone whose connection closed (its
    ``approve`` is cancelled, ``hostlobby.py``): the request goes from the host's lobby
    and from the line under the host's table, nothing cut at 80×24."""
    set_language("en")
    dana = lan.JoinRequest(KEYS[1], "Dana", "10.0.0.7", watcher=True)
    bolat = lan.JoinRequest(KEYS[2], "Bolat", "10.0.0.8")
    terminal = Terminal()
    drawn: list[Drawn] = []
    lobbies: list[str] = []
    with create_pipe_input() as pipe:
        session = LanSession("host", Identity.generate("Asel"), NetOptions(), game="belka",
                             players=4, input=pipe, output=terminal.output)  # fmt: skip
        screen, view = session.screen, session.screen.view
        screen.overlay, view.dealer = None, 0  # the game is on: the table is drawn
        session.lobby.state, session.lobby.me = _state(), 0  # and the lobby had its seats

        async def main(bridge: Bridge) -> None:
            while not screen.app.is_running:
                await trio.sleep(0.001)
            async with trio.open_nursery() as door:
                for request in (dana, bolat):
                    door.start_soon(session.approve, request)
                await session.on_lobby(lan.JoinersAsking((dana, bolat)))
                while not view.watch_asking:  # the door's questions reach the screen
                    await trio.sleep(0.001)
                # and the screen has drawn them: the app draws in its own loop, and a
                # drawing of ours beside one of its own can read a half-built layout
                counter = screen.app.render_counter
                screen.app.invalidate()
                while screen.app.render_counter == counter:
                    await trio.sleep(0.001)
                drawn.append(render(screen, terminal, 80, 24))
                lobbies.append(_text(session.lobby))
                door.cancel_scope.cancel()  # both left before the host answered
            await session.on_lobby(lan.JoinersAsking(()))
            counter = screen.app.render_counter  # drawn anew, not from the last drawing
            while screen.app.render_counter == counter:
                await trio.sleep(0.001)
            drawn.append(render(screen, terminal, 80, 24))
            lobbies.append(_text(session.lobby))
            screen.quit()

        run_with_app(screen.app, main)
    assert not any(d.faults for d in drawn), [d.faults for d in drawn]
    assert "Dana" in drawn[0].text and "wants to watch" in drawn[0].text
    assert "Asking to sit down" in lobbies[0] and "Bolat" in lobbies[0]
    assert "wants to watch" not in drawn[1].text and view.watch_asking == ()
    assert "Asking to sit down" not in lobbies[1] and not session._decisions
