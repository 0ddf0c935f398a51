"""The lobby says only what is true now: the wait for the host's answer ends when a
seat is given; a closed lobby shows why and nothing else; no chat line in the lobby."""

from __future__ import annotations

from prompt_toolkit.filters import Condition, to_filter

from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.lobbyview import LobbyView, lobby_keys, lobby_lines
from p2pbelka.ui.words.i18n import set_language

KEYS = [Identity.generate().public_key for _ in range(2)]


def _text(view: LobbyView) -> str:
    return "".join(text for _style, text in lobby_lines(view))


def _state(me: str | None) -> LobbyState:
    seats = (SeatView(KEYS[0], "Asel", True), None if me is None else SeatView(KEYS[1], me, False))
    return LobbyState(bytes(16), "Kitchen", "classic", {}, seats, "belot")


def test_the_wait_for_the_host_ends_with_a_seat() -> None:
    set_language("en")
    view = LobbyView("join")
    view.apply(lan.AwaitingApproval())
    view.apply(lan.SeatsChanged(_state(None), None))
    assert "deciding whether to let you in" in _text(view)
    view.apply(lan.SeatsChanged(_state("Bolat"), 1))
    text = _text(view)
    assert "deciding whether" not in text and "Bolat" in text


def test_a_closed_lobby_shows_why_and_no_seats_or_keys() -> None:
    set_language("en")
    view = LobbyView("join", state=_state("Bolat"), me=1)
    view.apply(lan.LobbyClosed("the host turned you away"))
    text = _text(view)
    assert "The lobby closed: the host turned you away" in text and "Press q to leave" in text
    assert "Seats" not in text and "Bolat" not in text
    assert lobby_keys(view) == "q quit"


class _Session:
    def __init__(self) -> None:
        self.lobby = LobbyView("join", state=_state("Bolat"), me=1)
        self.readied = 0

    def toggle_ready(self) -> None:
        self.readied += 1

    def invalidate(self) -> None:
        pass


def test_the_lobby_has_no_chat_line() -> None:
    set_language("en")
    screen = TableScreen(None, lobby=LobbyPanel(_Session()))  # type: ignore[arg-type]
    assert screen.chat.window not in _visible(screen)
    screen.overlay = None  # the table: its chat line is there
    assert screen.chat.window in _visible(screen)


def test_a_closed_lobby_takes_no_key_but_q() -> None:
    set_language("en")
    session = _Session()
    keys = LobbyPanel(session).keys(Condition(lambda: True), lambda: None)  # type: ignore[arg-type]
    ready = next(k for k in keys if k.keys == ("r",))
    assert to_filter(ready.when)()
    session.lobby.closed = "the host turned you away"
    assert not to_filter(ready.when)()


def _visible(screen: TableScreen) -> list[object]:
    """The windows drawn now (a hidden ConditionalContainer's are skipped)."""
    out: list[object] = []

    def visit(container: object) -> None:
        out.append(container)
        filter_ = getattr(container, "filter", None)
        if filter_ is not None and not filter_():
            return
        for child in container.get_children():  # type: ignore[attr-defined]
            visit(child)

    visit(screen._screen.content)
    return out


def test_a_long_name_is_shown_in_full_in_the_lobby() -> None:
    set_language("kk")
    long = "Нұрсұлтан Әбішұлы Қажымұқанов"  # 29 characters: a name may have 32
    view = LobbyView("join", state=_state(long), me=0)
    text = _text(view)
    assert text.count(long) == 2  # its seat, and who plays with whom
