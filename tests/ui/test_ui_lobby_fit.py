"""Every lobby state of Belka for four and Belot for two and three, drawn on the table
screen at 80×24 (and 120×40) in English, Russian and Kazakh: who sits (every seat's
row, its name, key and, for a player the ledger knows, rating) and who asks to (the
request's name and key) are on screen in each, nothing is cut at the edge, a changed
rule is named, the rules are one key away, and the keys line offers only keys that
work now.  The default suite draws each game's lobby in one language
(``tests/ui/matrix.py``); ``-m slow`` draws each in all three."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.net.guesses import Guesser
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer import lan
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.lobbyfit import Part, fit, wrap
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.lobbyview import LobbyView, key_hints
from p2pbelka.ui.words.i18n import _, set_language
from p2pbelka.ui.words.lobbylog import rating_word
from tests.ui.matrix import diagonal
from tests.ui.render import Terminal, render

NAMES = {
    "en": ["Heuristic bot 12", "Bolat Nurlanovich", "Saule", "Nurlan"],
    "ru": ["Александра Петровна", "Болат", "Сауле Ержановна", "Нурлан"],
    "kk": ["Нұрсұлтан Әбішұлы Қажымұқанов", "Болат", "Сәуле", "Нұрлан"],
}
KEYS = [Identity.generate().public_key for _ in range(6)]
RATINGS = {KEYS[0]: 27.4, KEYS[1]: -3.1}  # the ledger knows these two; KEYS[2] it does not
ASKING = "Айгерім Серікқызы"
GAMES = [("belka", 4), ("belot", 2), ("belot", 3)]
STATES = [
    "host",
    "host invite",
    "host invite asked",
    "host invite asked used-up",
    "host editing asked",
    "host asked watchers",
    "joiner waiting",
    "joiner seated",
    "joiner rule changed",
    "joiner rules open",
]


class _Session:
    """What the lobby panel asks of a session, for drawing only."""

    def __init__(self, view: LobbyView) -> None:
        self.lobby = view

    def invalidate(self) -> None:
        pass


def _state(game: str, players: int, lang: str, seated: int) -> LobbyState:
    names = NAMES[lang]
    seats = tuple(
        SeatView(KEYS[n], names[n], n == 0) if n < seated else None for n in range(players)
    )
    return LobbyState(bytes(16), "Kitchen", "classic", {}, seats, game)


def _view(game: str, players: int, lang: str, what: str) -> LobbyView:
    """The lobby of ``what``: a host's (its invite code, someone asking, wrong codes, the
    rules open) or a joiner's (waiting for the host, seated, after a rule changed)."""
    host = what.startswith("host")
    seated = players - 1 if players > 2 else 2 if "joiner" in what else 1
    if host:
        view = LobbyView("host", state=_state(game, players, lang, seated), me=0)
        view.my_fingerprint = fingerprint(KEYS[0])
        view.lobby_port, view.addresses = 40123, ("192.168.100.123", "fd00:1234:5678::17")
    else:
        view = LobbyView("join")
        view.apply(lan.HostReached("192.168.100.123:40123", fingerprint(KEYS[0]), False))
        view.apply(lan.TableRules(_state(game, players, lang, seated)))
        if what == "joiner waiting":
            view.apply(lan.AwaitingApproval())
            view.apply(lan.SeatsChanged(_state(game, players, lang, seated - 1), None))
        else:
            view.apply(lan.SeatsChanged(_state(game, players, lang, seated), 1))
    view.ratings = dict(RATINGS)
    if "invite" in what:
        view.invite = "482 913"
    if "asked" in what:
        view.apply(lan.JoinersAsking((lan.JoinRequest(KEYS[5], ASKING, "10.0.0.9"),)))
    if "used-up" in what:
        guessers = (Guesser("192.168.100.201", failures=7), Guesser("10.0.0.8", failures=3))
        view.apply(lan.WrongCodeTried(10, 10, guessers))
    if "watchers" in what:
        view.apply(lan.WatchersChanged((lan.WatcherView(KEYS[4], "Dana", "10.0.0.7"),), 7))
    if "editing" in what:
        view.editing, view.rule = True, 1
    if what in ("joiner rule changed", "joiner rules open"):
        assert view.state is not None
        view.rule = 1
        changed = view.changed_rules(1)
        assert changed is not None
        new = replace(view.state, preset=changed[0], options=changed[1], rules=1)
        view.apply(lan.TableRules(new, changed=True))
        view.apply(lan.SeatsChanged(new, 1))
        view.rule = 0
    if what == "joiner rules open":
        view.rules_open = True
    return view


def _draw(view: LobbyView, columns: int, rows: int) -> tuple[str, list[str]]:
    terminal = Terminal()
    game = view.variant
    assert view.state is not None
    ui, table = registry.new_view(game, len(view.state.seats))
    screen = TableScreen(ui, table, lobby=LobbyPanel(_Session(view)), output=terminal.output)  # type: ignore[arg-type]
    screen.app.render_counter += 1  # a drawing of its own: nothing kept from another size
    drawn = render(screen, terminal, columns, rows)
    return drawn.text, drawn.faults


def _flat(text: str) -> str:
    """The screen's words with its rows joined (a line wrapped onto the next row)."""
    return " ".join(text.split())


@pytest.mark.parametrize(("game", "players", "lang"), diagonal(GAMES))
def test_every_lobby_state_shows_who_sits_and_who_asks_at_80x24(
    game: str, players: int, lang: str
) -> None:
    set_language(lang)
    wrong: list[str] = []
    for what in STATES:
        view = _view(game, players, lang, what)
        assert view.state is not None
        for columns, rows in ((80, 24), (120, 40)):
            text, faults = _draw(view, columns, rows)
            where = f"{game} {players} {lang} {what!r} at {columns}x{rows}"
            lines = text.splitlines()
            wrong += [f"{where}: {fault}" for fault in faults]
            flat = _flat(text)
            for seat, info in enumerate(view.state.seats):
                if info is None:
                    row = f" {seat}  {_('free')}"
                    found = any(line.startswith(row) for line in lines)
                else:
                    rating = RATINGS.get(info.key)
                    found = any(
                        line.startswith(f" {seat}  {info.name}")
                        and fingerprint(info.key) in line
                        and (rating is None or rating_word(rating) in line)
                        and (rating is not None or rating_word(0.0).split()[0] not in line)
                        for line in lines
                    )
                if not found:
                    wrong.append(f"{where}: seat {seat} not shown\n{text}")
            if view.asking:
                request = view.asking[0]
                if _("Asking to sit down:") not in text or not any(
                    ASKING in line and request.fingerprint in line for line in lines
                ):
                    wrong.append(f"{where}: the request is not shown\n{text}")
            for note in view.notes[-1:]:
                if _flat(note) not in flat:
                    wrong.append(f"{where}: the note {note!r} is not shown\n{text}")
            if "used-up" in what and "192.168.100.201" not in text:
                wrong.append(f"{where}: who guessed is not shown\n{text}")
            if what == "joiner rules open" and _("rules") not in text:
                wrong.append(f"{where}: the rules are not shown\n{text}")
            keys = lines[-1]
            if "used-up" in what and _("c new code") not in keys:
                wrong.append(f"{where}: c is not on the keys line: {keys!r}")
            if view.editing and _("o shows and changes them") in text:
                wrong.append(f"{where}: the rules twice\n{text}")
            if _("q quit") not in keys:
                wrong.append(f"{where}: q is not on the keys line: {keys!r}")
    assert not wrong, "\n".join(wrong[:6])


def test_a_changed_rule_is_named_to_the_joiner() -> None:
    set_language("en")
    view = _view("belka", 4, "en", "joiner rule changed")
    note = view.notes[-1]
    assert note.startswith("The host changed the rules (") and "→" in note
    text, _faults = _draw(view, 80, 24)
    assert _flat(note) in _flat(text)
    assert _("o shows them") in text  # the rules one key away


def test_the_rules_open_with_o_for_a_joiner_and_in_full_for_the_host_editing() -> None:
    set_language("en")
    view = _view("belka", 4, "en", "joiner rules open")
    text, _faults = _draw(view, 80, 24)
    for name, value in view.rule_lines():
        assert name in ("preset",) or any(ch.isalpha() for ch in value)
    assert "Belka for 4; the rules:" in text and "60:60 (eggs)" in text
    host = _view("belka", 4, "en", "host editing asked")
    text, _faults = _draw(host, 80, 24)
    assert "▶" in text and "60:60 (eggs)" in text and ASKING in text


def test_the_keys_line_offers_only_what_works_now() -> None:
    set_language("en")
    waiting = _view("belot", 3, "en", "joiner waiting")
    assert key_hints(waiting) == ["o rules", "q quit"]  # no seat yet: neither r nor 1-2
    seated = _view("belot", 3, "en", "joiner seated")
    assert key_hints(seated) == ["r ready", "1-2 take a free seat", "o rules", "q quit"]
    full = _view("belot", 2, "en", "joiner seated")
    assert "take a free seat" not in " ".join(key_hints(full))
    host = _view("belka", 4, "en", "host invite asked used-up")
    keys = key_hints(host)
    assert keys[:2] == ["y let in", "n turn away"] and "s1-s2 shut out" in keys
    assert "c new code" in keys and keys[-1] == "q quit"
    plain = _view("belka", 4, "en", "host")
    assert "c new code" not in key_hints(plain) and "shut out" not in " ".join(key_hints(plain))


def test_the_list_says_what_to_do_when_no_table_is_heard() -> None:
    set_language("en")
    view = LobbyView("join", listening=True)
    terminal = Terminal()
    screen = TableScreen(None, lobby=LobbyPanel(_Session(view)), output=terminal.output)  # type: ignore[arg-type]
    assert "--connect" not in render(screen, terminal, 80, 24).text
    view.quiet = True
    screen.app.render_counter += 1
    drawn = render(screen, terminal, 80, 24)
    assert "Press a and type the address" in _flat(drawn.text) and not drawn.faults


def test_a_joiner_asked_for_the_code_again_sees_why() -> None:
    set_language("ru")
    view = LobbyView("join")
    view.code_asked = "код приглашения неверен"
    terminal = Terminal()
    screen = TableScreen(None, lobby=LobbyPanel(_Session(view)), output=terminal.output)  # type: ignore[arg-type]
    drawn = render(screen, terminal, 80, 24)
    assert "код приглашения неверен" in drawn.text
    assert _("Type the invite code the host's screen shows, then Enter.") in drawn.text
    assert key_hints(view) == [_("Enter try this code"), _("Esc leave")]


def test_a_line_wraps_between_words_and_a_long_word_still_fits() -> None:
    rows = wrap([("a", "one two "), ("b", "three four")], 10)
    assert ["".join(t for _s, t in row) for row in rows] == ["one two", "   three", "   four"]
    assert rows[1] == [("", "   "), ("b", "three")]  # each word keeps its style
    long = wrap([("", "x" * 25)], 10)
    assert [len("".join(t for _s, t in row)) for row in long] == [
        10,
        10,
        10,
        4,
    ]  # 10, then 7 after the indent
    wide = wrap([("", "市" * 9)], 4)  # two columns a character
    assert all(sum(2 for _s, t in row for _c in t if _c == "市") <= 4 for row in wide)
    assert fit([Part([[("", "a")]] * 5, [(0, [[("", "b")]])])], 80, 3) == [("", "b")]
