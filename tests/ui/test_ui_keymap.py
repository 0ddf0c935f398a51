"""Keys by their place: the Russian and Kazakh layouts type what the same keys mean."""

from __future__ import annotations

import trio

from p2pbelka.cards import parse_cards
from p2pbelka.ui import keymap
from p2pbelka.ui.gameui import Key, bind
from p2pbelka.ui.hostloop import Bridge, run_with_app
from tests.ui.test_ui_screen import screen_of


def test_every_latin_letter_has_its_russian_place() -> None:
    for latin in "abcdefghijklmnopqrstuvwxyz[]":
        assert len(keymap.same_place(latin)) == 1, latin
    assert keymap.same_place("n") == ("т",) and keymap.same_place("y") == ("н",)
    assert keymap.same_place("2") == ("ә",)  # the Kazakh top row
    assert keymap.same_place("enter") == () and keymap.latin("т") == "n"
    assert keymap.latin("қ") == "0" and keymap.latin("x") == "x"


def test_a_binding_answers_the_same_key_on_a_cyrillic_layout() -> None:
    bound = bind([Key(("n",), True, lambda e: None), Key((("x", "1"),), True, lambda e: None)])
    chords = {tuple(str(k) for k in b.keys) for b in bound.bindings}
    assert {("n",), ("т",), ("x", "1"), ("ч", "1"), ("x", '"'), ("ч", '"')} <= chords


def test_the_table_takes_russian_and_kazakh_keys() -> None:
    with screen_of(24, 80) as (screen, pipe, _stream):
        screen.view.hand = parse_cards("7C 8C 9C")

        async def main(bridge: Bridge) -> None:
            pipe.send_text("і")  # the Kazakh layout's 3
            while screen.view.selected != 2:
                await trio.sleep(0.01)
            pipe.send_text("ы")  # s: the score sheet
            while screen.overlay != "sheet":
                await trio.sleep(0.01)
            pipe.send_text("\x1b")
            while screen.overlay is not None:
                await trio.sleep(0.01)
            pipe.send_text("й")  # q: quit?
            while screen.overlay != "quit":
                await trio.sleep(0.01)
            pipe.send_text("т")  # n: stay
            while screen.overlay is not None:
                await trio.sleep(0.01)
            assert not screen.quit_requested
            pipe.send_text("йн")  # q y
            await trio.sleep_forever()  # the app exits, which cancels this

        assert run_with_app(screen.app, main) is None
    assert screen.quit_requested


def test_the_help_says_the_keys_work_on_a_cyrillic_layout() -> None:
    with screen_of(24, 80) as (screen, _pipe, _stream):
        assert "Russian or Kazakh" in "".join(text for _s, text, *_ in screen._help())
