"""The lobby screens for any game: who plays with whom in names, the game and its rules,
the host's LAN address; the host changes a rule with keys; a Belot table of three
filled with bots; a joiner of a two-seat Belot table sees the rules change
(un-readying over sockets: tests/lan/test_lan_lobby_rules.py)."""

from __future__ import annotations

import re
from pathlib import Path

from prompt_toolkit.input import create_pipe_input

from p2pbelka.bots import make_bot
from p2pbelka.net.directory import TableInfo
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.lan import host_on_screen, join_on_screen
from p2pbelka.ui.lobbyview import LobbyView, lobby_keys, lobby_lines
from p2pbelka.ui.words.i18n import set_language
from tests.ui.test_ui_lan import drawn, net, terminal, until

KEYS = [Identity.generate().public_key for _ in range(4)]


def _text(view: LobbyView) -> str:
    return "".join(text for _style, text in lobby_lines(view))


def _state(names: list[str | None], variant: str = "belka") -> LobbyState:
    seats = tuple(None if n is None else SeatView(KEYS[i], n, i == 0) for i, n in enumerate(names))
    return LobbyState(bytes(16), "Kitchen", "classic", {}, seats, variant)


def test_partners_are_named_not_numbered() -> None:
    set_language("en")
    view = LobbyView("host", state=_state(["Asel", "Bolat", "Saule", "Nurlan"]), me=0)
    text = _text(view)
    assert "you and Saule against Bolat and Nurlan" in text
    assert "0 and 2" not in text
    view.me = 1
    assert "you and Nurlan against Asel and Saule" in _text(view)
    view.state = _state(["Asel", None, "Saule", None])
    view.me = 0
    assert "you and Saule against seat 1 (free) and seat 3 (free)" in _text(view)


def test_a_belot_lobby_shows_its_game_seats_and_every_rule() -> None:
    set_language("en")
    view = LobbyView("join", state=_state(["Asel", "Bolat", None], "belot"), me=1)
    text = _text(view)
    assert "Belot for 3; the rules:" in text
    assert "each for themselves: Asel, you, seat 2 (free)" in text
    # in words, not the names of --option
    for line in ("rules", "two hanging baits", "four eights", "four sevens"):
        assert re.search(rf"{line}\s+\S", text), line
    assert "paid together" in text and "not counted" in text
    assert "1-2 take a free seat" in lobby_keys(view)
    host = LobbyView("host", state=_state(["Asel", None], "belot"), me=0)
    # only keys that do something now: nobody to remove yet
    assert "remove a seat" not in lobby_keys(host) and "o rules" in lobby_keys(host)
    host.state = _state(["Asel", "Bolat"], "belot")
    assert "x1-x1 remove a seat" in lobby_keys(host) and "b bots" not in lobby_keys(host)


def test_the_table_list_says_which_game_and_how_many_seats() -> None:
    set_language("en")
    table = TableInfo(
        bytes(16), "Corner", "belot", 3, 2, "10.77.0.1", 4000, KEYS[0], 0.0, 0, "beacon"
    )
    view = LobbyView("join", tables=(table,), listening=True)
    assert "Corner: Belot for 3, 2 free seat(s), 10.77.0.1:4000" in _text(view)


def test_the_host_changes_a_rule_then_bots_fill_a_belot_table(tmp_path: Path) -> None:
    me = Identity.generate("Hostess")
    _, output = terminal()
    seen: dict[str, object] = {}

    async def robot(screen: TableScreen) -> None:
        lobby = screen.lobby.view
        await until(lambda: lobby.state is not None and lobby.lobby_port is not None)
        await until(lambda: "Belot for 3" in drawn(screen))
        seen["address"] = "This machine is 127.0.0.1" in drawn(screen)
        seen["game"] = screen.lobby.session.game
        pipe.send_text("o")
        await until(lambda: lobby.editing)
        pipe.send_text("\x1b[B")  # down: from the preset to hanging_twice
        await until(lambda: lobby.rule == 1)
        pipe.send_text("\x1b[C")  # right: the next value
        await until(lambda: lobby.state is not None and lobby.state.rules == 1)
        seen["options"] = dict(lobby.state.options)  # type: ignore[union-attr]
        pipe.send_text("o")
        await until(lambda: not lobby.editing)
        pipe.send_text("b")
        await until(lambda: not lobby.free_seats)
        seen["names"] = [s.name for s in lobby.state.seats if s is not None]  # type: ignore[union-attr]
        await until(lambda: screen.overlay != "lobby", 30)
        await until(lambda: len(screen.view.names) == 3, 30)  # the game has started here
        pipe.send_text("q")
        await until(lambda: screen.overlay == "quit")
        pipe.send_text("y")

    with create_pipe_input() as pipe:
        screen, result = host_on_screen(
            me,
            "Belot corner",
            game="belot",
            players=3,
            net=net(tmp_path),
            input=pipe,
            output=output,
            extra=robot,
        )
    assert result is None and screen.quit_requested
    assert seen["address"] and seen["game"] == "belot"
    assert seen["options"] == {"hanging_twice": "one_each"}
    # named after their level as the guide says, and told apart
    names = sorted(seen["names"])  # type: ignore[call-overload]
    assert names == ["Heuristic bot", "Heuristic bot 2", "Hostess"]
    assert screen.view.me == 0 and len(screen.view.names) == 3
    assert screen.game is BELOT and screen.view.players == 3


def test_a_joiner_sees_the_rules_change_then_says_ready(tmp_path: Path) -> None:
    me = Identity.generate("Joiner")
    _, output = terminal()
    seen: dict[str, object] = {}

    async def robot(screen: TableScreen) -> None:
        events: list[lan.LobbyEvent] = []

        async def hosted(event: lan.LobbyEvent) -> None:
            events.append(event)

        def control() -> lan.HostControl | None:
            changes = [e for e in events if isinstance(e, lan.SeatsChanged)]
            return changes[-1].host_control if changes else None

        host = Identity.generate("Host")
        screen.lobby.session.start_soon(  # type: ignore[union-attr]
            lambda: lan.host_game(
                host,
                "Two",
                BotFrontEnd(make_bot("random", 1)),
                net=net(tmp_path / "h"),
                on_lobby=hosted,
                game="belot",
                players=2,
            )
        )
        await until(lambda: any(isinstance(e, lan.TableOpen) for e in events))
        port = next(e.lobby_port for e in events if isinstance(e, lan.TableOpen))
        await until(lambda: screen.lobby.view.listening)
        pipe.send_text("a")
        await until(lambda: screen.app.layout.has_focus(screen.lobby.address))
        pipe.send_text(f"127.0.0.1:{port}\r")
        await until(lambda: screen.lobby.view.me == 1)
        await until(lambda: "Belot for 2" in drawn(screen))
        # Seated, not ready: the host changes a rule (ready would start a table of two).
        host_control = control()
        assert host_control is not None
        await host_control.set_rules("classic", {"four_sevens": "50"})
        await until(lambda: "The host changed the rules" in drawn(screen))
        seen["options"] = dict(screen.lobby.view.state.options)  # type: ignore[union-attr]
        # the lobby told the game: the screen plays Belot's, still in the lobby
        belot = screen.lobby.session.screen
        seen["screen"] = belot.game and belot.game.name
        assert belot.overlay == "lobby"  # not ready for the new rules: no game yet
        pipe.send_text("r")
        await until(lambda: belot.overlay != "lobby", 30)
        await until(lambda: len(belot.view.names) == 2, 30)  # the game has started here
        pipe.send_text("q")
        await until(lambda: belot.overlay == "quit")
        pipe.send_text("y")

    with create_pipe_input() as pipe:
        screen, result = join_on_screen(
            me, net=net(tmp_path / "me"), input=pipe, output=output, extra=robot
        )
    assert result is None and screen.quit_requested
    assert seen["options"] == {"four_sevens": "50"} and seen["screen"] == "belot"
    assert screen.game is BELOT and screen.view.players == 2
    assert screen.view.names == ["Host", "Joiner"] and screen.view.me == 1
