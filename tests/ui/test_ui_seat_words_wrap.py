"""The words the issue saw broken, drawn by the screens that show them, in English,
Russian and Kazakh: a free seat in the lobby ("seat 3 (free)" in who plays with whom,
and its own row), the joiner's screen that asks the invite code again after a wrong
one, and the table's seats panel.  At 80×24 on the screen, at every width down to
where a key fits (the lobby) and at 31, 50, 60 columns (the panel): no row wider than
the screen, no word or key (``d7c3 708b …``) broken across rows, no bracket alone on
a row or left at a row's end."""

from __future__ import annotations

import pytest

from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer import lan
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui import panels, registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.linewrap import KEY, cells
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.lobbyview import LobbyView, lobby_lines, sides
from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.i18n import _, set_language
from tests.ui.render import Terminal, render

LANGS = ("en", "ru", "kk")
KEYS = [Identity.generate().public_key for _ in range(4)]
NAMES = ["Нұрсұлтан Әбішұлы", "Александра Петровна"]
WRONG_CODE = (
    "the invite code is wrong: the host's table wants another one (ask the host"
    " to read it out again)"
)


class _Session:
    """What the lobby panel asks of a session, for drawing only."""

    def __init__(self, view: LobbyView) -> None:
        self.lobby = view

    def invalidate(self) -> None:
        pass


def _joiner_with_free_seats() -> LobbyView:
    """A joiner's lobby: the host and the joiner seated, seats 2 and 3 free."""
    seats = (SeatView(KEYS[0], NAMES[0], True), SeatView(KEYS[1], NAMES[1], False), None, None)
    state = LobbyState(bytes(16), "Kitchen", "classic", {}, seats, "belka")
    view = LobbyView("join")
    view.apply(lan.HostReached("192.168.100.123:40123", fingerprint(KEYS[0]), False))
    view.apply(lan.TableRules(state))
    view.apply(lan.SeatsChanged(state, 1))
    return view


def _wrong_code() -> LobbyView:
    """A joiner's screen after the host did not take its invite code (``ui/lan.py``)."""
    view = LobbyView("join")
    view.code_asked = lobby_reason(WRONG_CODE)
    return view


def _rows(view: LobbyView, width: int | None) -> list[str]:
    drawn = "".join(fragment[1] for fragment in lobby_lines(view, width, None))
    return drawn.split("\n")


def _check(unwrapped: list[str], rows: list[str], width: int) -> list[str]:
    """What is wrong with ``rows``, the lines ``unwrapped`` drawn ``width`` wide."""
    wrong = [f"wider than {width}: {row!r}" for row in rows if cells(row) > width]
    if " ".join(rows).split() != " ".join(unwrapped).split():  # a broken word counts two
        wrong.append("a word broken:\n" + "\n".join(rows))
    for key in KEY.findall("\n".join(unwrapped)):
        if not any(key in row for row in rows):
            wrong.append(f"the key {key!r} broken:\n" + "\n".join(rows))
    for row in rows:
        if row.strip() in ("(", ")", "«", "»") or row.rstrip().endswith(("(", "«")):
            wrong.append(f"a bracket alone: {row!r}")
    return wrong


@pytest.mark.parametrize("lang", LANGS)
def test_a_free_seat_and_the_wrong_code_wrap_between_words(lang: str) -> None:
    set_language(lang)
    try:
        free = _joiner_with_free_seats()
        said = sides(free)
        assert _("seat {n} (free)").format(n=3) in said  # the words the issue saw broken
        code = _wrong_code()
        wrong: list[str] = []
        # every width from 80 down to where a whole key still fits a continued row
        for width in range(80, len(fingerprint(KEYS[0])) + 3, -1):
            for view in (free, code):
                wrong += _check(_rows(view, None), _rows(view, width), width)
        assert not wrong, "\n".join(wrong[:4])
    finally:
        set_language("en")


def _screen(view: LobbyView, columns: int, rows: int) -> list[str]:
    terminal = Terminal()
    game, table = registry.new_view("belka", 4) if view.state is not None else (None, None)
    lobby = LobbyPanel(_Session(view))  # type: ignore[arg-type]
    screen = TableScreen(game, table, lobby=lobby, output=terminal.output)  # type: ignore[arg-type]
    drawn = render(screen, terminal, columns, rows)
    assert not drawn.faults, drawn.faults
    return drawn.lines


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_and_the_code_asked_again_on_the_screen_at_80x24(lang: str) -> None:
    set_language(lang)
    try:
        free = _joiner_with_free_seats()
        lines = _screen(free, 80, 24)
        flat = " ".join(" ".join(lines).split())
        head = _("Seats in play order: {sides}").format(sides=sides(free))
        assert " ".join(head.split()) in flat, "\n".join(lines)  # words whole, in order
        assert any(line.startswith(f" 3  {_('free')}") for line in lines), "\n".join(lines)
        assert fingerprint(KEYS[1]) in "\n".join(lines)  # a seat's key on one row
        lines = _screen(_wrong_code(), 80, 24)
        flat = " ".join(" ".join(lines).split())
        assert " ".join(lobby_reason(WRONG_CODE).split()) in flat, "\n".join(lines)
        assert not any(line.strip() in ("(", ")") for line in lines), "\n".join(lines)
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", [31, 50, 60])
def test_the_seats_panel_keeps_names_and_keys_whole(lang: str, width: int) -> None:
    set_language(lang)
    try:
        _game, view = registry.new_view("belka", 4)
        view.names = [NAMES[0], "Bolat", NAMES[1], "Нұрлан"]
        view.keys = list(KEYS)
        view.dealer, view.turn = 0, 2
        view.waiting_for = {3}
        drawn = "".join(f[1] for f in panels.seats_lines(view, width)).rstrip("\n")
        rows = drawn.split("\n")
        assert all(cells(row) <= width for row in rows), rows
        for seat, name in enumerate(view.names):
            assert any(name in row for row in rows), (name, rows)  # never cut mid-word
            if seat != 3:
                assert any(fingerprint(KEYS[seat])[:9] in row for row in rows), rows
        assert any(_("missing") in row for row in rows), rows
    finally:
        set_language("en")
