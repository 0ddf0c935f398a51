"""The screens' one wrapping rule (``ui/linewrap.py``), over every sentence of the
catalogues in English, Russian and Kazakh: no row is wider than asked, no word or key
is broken across rows (unless it is wider than a whole row), and a question's keys stay
together on its last row.  Then the table screen drawn at 80x24 and at 60 columns
with the issue's long lines: nothing cut, nothing split."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input

from p2pbelka.net.identity import fingerprint
from p2pbelka.peer.chat import ChatLine
from p2pbelka.ui import registry
from p2pbelka.ui.app import RIGHT_WIDTH, TableScreen
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.linewrap import KEY, cells, wrap, wrap_fragments
from p2pbelka.ui.words.i18n import load_catalog, set_language
from tests.ui.render import Drawn, Terminal, render

LOCALE = Path(__file__).parents[2] / "p2pbelka" / "ui" / "locale"
LANGS = ("en", "ru", "kk")
KEY_TEXT = fingerprint(b"\x07" * 32)
FILL = {
    "name": "Александра Петровна",
    "key": KEY_TEXT,
    "suit": "♣ трефы",
    "card": "10♣",
    "cards": "10♣ A♠ K♥ 7♦",
    "where": "192.168.1.20:40123",
    "why": "ничто не слушает по адресу 192.168.1.20:40123",
}


def _messages(lang: str) -> list[str]:
    """Every translated sentence of ``lang``'s catalogue, its fields filled in."""
    catalog = load_catalog(lang)
    msgids = re.findall(r'^msgid "(.+)"$', (LOCALE / "p2pbelka.pot").read_text("utf-8"), re.M)
    out = []
    for msgid in msgids:
        text = catalog.gettext(ast.literal_eval(f'"{msgid}"'))
        fields = {f for _t, f, _s, _c in string.Formatter().parse(text) if f}
        try:
            out.append(text.format(**{f: FILL.get(f, "Нұрсұлтан") for f in fields}))
        except (IndexError, KeyError, ValueError):
            out.append(text)
    return out


MESSAGES = [m for lang in LANGS for m in _messages(lang)]


def _units(text: str) -> list[str]:
    """The words of ``text``, a key's groups as one."""
    return KEY.sub(lambda m: m.group().replace(" ", "_"), text).split()


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(MESSAGES), st.integers(min_value=20, max_value=80))
def test_no_row_is_too_wide_and_no_word_or_key_is_split(text: str, width: int) -> None:
    for paragraph in text.split("\n"):
        rows = wrap(paragraph, width, indent="  ")
        assert all(cells(row) <= width for row in rows), rows
        if all(cells(unit) <= width - 2 for unit in _units(paragraph)):
            # every word whole, in order: a word broken would count as two
            assert " ".join(rows).split() == paragraph.split(), rows
            for key in KEY.findall(paragraph):
                assert any(key in row for row in rows), (key, rows)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MESSAGES), st.integers(min_value=30, max_value=80))
def test_a_question_keeps_its_keys_together_on_its_last_row(text: str, width: int) -> None:
    text = " ".join(text.replace("[", "(").replace("]", ")").split())  # (its own keys aside)
    line = [
        ("class:status", text + " "),
        ("class:button", "[y] да, посадить бота", print),
        ("", "  "),
        ("class:button", "[n] нет", print),
    ]
    rows = wrap_fragments(line, width)  # type: ignore[arg-type]
    drawn = ["".join(f[1] for f in row) for row in rows]
    assert all(cells(row) <= width for row in drawn), drawn
    assert drawn[-1].endswith("[y] да, посадить бота  [n] нет"), drawn
    assert not any("[y]" in row or "[n]" in row for row in drawn[:-1]), drawn
    assert " ".join(drawn).split()[: len(text.split())] == text.split()


def test_a_key_moves_whole_and_brackets_stay_with_their_words() -> None:
    text = f"Erlan ({KEY_TEXT}) wants to watch ( wrong code ) now"
    for width in range(24, 60):
        rows = wrap(text, width)
        assert any(KEY_TEXT in row for row in rows), (width, rows)
        assert not any(row.strip() in ("(", ")") or row.endswith("(") for row in rows), rows


LONG_STATUS = {
    "en": "10♣ cannot be played now: ♠ spades were led, play ♠ spades (the jacks are trumps"
    " here, so the seven is no good either)",
    "ru": "10♣ сейчас нельзя сыграть: зашли с ♠ пик, сыграйте ♠ пику (валеты козыри, и"
    " семёрка здесь тоже не годится)",
    "kk": "10♣ қазір жүруге болмайды: ♠ қарғадан жүрді, ♠ қарға салыңыз (валеттер көзір, ал"
    " жетілік те жарамайды)",
}


def _draw(lang: str, columns: int, setup: object) -> Drawn:
    set_language(lang)
    game, view = registry.new_view("belka", 4)
    view.names = ["Asel", "Bolat", "Александра Петровна", "Nurlan"]
    view.keys = [bytes([i]) * 32 for i in range(4)]
    view.dealer = 0
    terminal = Terminal()
    drawn: list[Drawn] = []
    with create_pipe_input() as pipe:
        screen = TableScreen(game, view, input=pipe, output=terminal.output)
        setup(screen)  # type: ignore[operator]

        async def main(bridge: Bridge) -> None:
            while not screen.app.is_running:  # quitting before it runs would end nothing
                await trio.sleep(0.01)
            drawn.append(render(screen, terminal, columns, 24))
            screen.quit()

        run_with_app(screen.app, main)
    set_language("en")
    return drawn[0]


def _whole(drawn: Drawn, text: str) -> None:
    """``text`` is on the screen, word after word, none cut (rows joined)."""
    words = " ".join(drawn.lines).split()
    want = text.split()
    assert any(words[i : i + len(want)] == want for i in range(len(words))), drawn.text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("columns", [80, 60])
def test_the_status_line_wraps_between_words_in_every_language(lang: str, columns: int) -> None:
    def setup(screen: TableScreen) -> None:
        screen.view.status = LONG_STATUS[lang]

    drawn = _draw(lang, columns, setup)
    assert not drawn.faults, drawn.faults
    if columns >= 80:
        _whole(drawn, LONG_STATUS[lang])
    else:  # narrower than the table: the page that says so, its words whole
        assert "80" in drawn.text and all(len(line) <= columns for line in drawn.lines)


@pytest.mark.parametrize("lang", LANGS)
def test_the_chat_leaves_the_seats_and_the_watchers_on_the_panel(lang: str) -> None:
    def setup(screen: TableScreen) -> None:
        screen.view.status = LONG_STATUS[lang]
        screen.view.watchers = ("Dana", "Ayan")
        for n in range(6):
            screen.show_chat(ChatLine(1, "Bolat", f"line {n} of a chat that goes on", False))

    drawn = _draw(lang, 80, setup)
    assert not drawn.faults, drawn.faults
    assert fingerprint(bytes([3]) * 32)[:9] in drawn.text  # the last seat's key
    assert "Dana, Ayan" in drawn.text
    assert "line 5 of a chat" in drawn.text  # the newest chat line stays in sight


def test_the_log_panel_shows_its_last_hundred_entries_wrapped_as_they_come() -> None:
    """The log panel wraps each entry once while it is in sight (kept between renders):
    what it shows is always the last hundred entries, each wrapped afresh, whatever came
    before, repeated lines and lines gone out of sight included."""
    with create_pipe_input() as pipe:
        screen = TableScreen(None, input=pipe, output=Terminal().output)
        said = [
            f"seat {n % 4} says a line long enough to take two rows, {n % 7}" for n in range(130)
        ]
        for n, line in enumerate(said):
            screen.view.say(line if n % 5 else "short")
            if n % 3 == 0 or n > 95:
                shown = [*screen.view.log[-100:]]
                want = [row for entry in shown for row in wrap(entry, RIGHT_WIDTH - 1, "  ")]
                assert screen._log_lines() == want, n
        assert len(screen._log_lines()) > 150  # the long ones took two rows
