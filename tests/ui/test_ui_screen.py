"""The table screen's parts: the view, the hand order, the glue, a small terminal, the mouse."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import trio
from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.cards import Card, Suit, parse_cards
from p2pbelka.rules.belka.moves import ChooseEggs, ClaimRedeal, Ready
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move, PlayCard
from p2pbelka.ui import panels
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belka import reports
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView, sort_hand
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.play import data_dir
from p2pbelka.ui.words import i18n
from tests.ui.summaries import summary

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def test_hand_puts_trumps_first_jacks_on_top_then_alternating_colours() -> None:
    hand = cards("7H AC JD 9S JC TH KD QC")
    assert sort_hand(hand, Suit.CLUBS) == cards("JC JD AC QC TH 7H 9S KD")
    assert sort_hand(hand, Suit.HEARTS) == cards("JC JD TH 7H 9S KD AC QC")
    # before the trump is known the jacks still go together
    assert sort_hand(hand, None)[:2] == cards("JC JD")


def test_default_language_follows_the_locale() -> None:
    assert i18n.default_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert i18n.default_language({"LANGUAGE": "de:ru", "LANG": "de_DE.UTF-8"}) == "ru"
    assert i18n.default_language({"LC_ALL": "C"}) == "en"
    assert i18n.default_language({}) == "en"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_catalogs_match_their_sources(lang: str) -> None:
    """A stale .mo (a .po edited without running msgfmt) fails here."""
    folder = i18n.LOCALE_DIR / lang / "LC_MESSAGES"
    with open(folder / "p2pbelka.mo", "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    # a plural form is (msgid, n) in a .mo's catalog, "msgid\x00n" as parse_po keys it
    compiled = {
        (f"{k[0]}\x00{k[1]}" if isinstance(k, tuple) else k): v for k, v in catalog.items() if k
    }
    assert i18n.parse_po((folder / "p2pbelka.po").read_text("utf-8")) == compiled


def test_every_screen_string_has_a_russian_translation() -> None:
    pot = (i18n.LOCALE_DIR / "p2pbelka.pot").read_text("utf-8")
    ids = i18n.parse_po(pot.replace('msgstr ""', 'msgstr "-"'))  # every msgid of the template
    ru = i18n.parse_po((i18n.LOCALE_DIR / "ru/LC_MESSAGES/p2pbelka.po").read_text("utf-8"))
    assert len(ids) > 50 and set(ids) - set(ru) == set()


def test_transcripts_go_to_the_user_data_directory() -> None:
    assert str(data_dir({"XDG_DATA_HOME": "/data"})) == "/data/p2pbelka/games"
    assert data_dir({"XDG_DATA_HOME": "relative"}).parts[-4:] == (
        ".local",
        "share",
        "p2pbelka",
        "games",
    )


def plays(text: str) -> tuple[Move, ...]:
    return tuple(PlayCard(c) for c in cards(text))


def test_view_follows_events_without_a_table() -> None:
    view = BelkaView()
    view.hand = cards("7H AC JD 9S")
    view._on_ChoiceNeeded(ev.ChoiceNeeded("play", plays("AC JD")))
    assert view.my_turn and view.hand[view.selected] in view.legal
    view._on_CardPlayed(ev.CardPlayed(0, Card.parse("AC"), 3, tuple(cards("7C AC")), 1))
    assert Card.parse("AC") not in view.hand and not view.my_turn and view.turn == 1
    assert view.trick is not None and view.trick.by_seat()[0] == Card.parse("AC")
    view._on_TrickTaken(ev.TrickTaken(3, tuple(cards("7C AC 8C 9C")), 0, 0, (1, 0), (11, 0)))
    assert view.last_trick is not None and view.last_trick.by_seat()[0] == Card.parse("AC")
    assert view.turn == 0 and view.card_points == (11, 0)


def test_a_refused_move_opens_the_choice_again() -> None:
    view = BelkaView(hand=cards("JC AC"))
    view._on_ChoiceNeeded(ev.ChoiceNeeded("play", plays("JC AC")))
    view.choice, view.status = None, ""  # the screen sent a card
    view.apply(ev.Rejected("duplicate envelope", 0))
    assert view.choice is None and view.status == "" and not view.log
    refused = PlayCard(Card.parse("JC"))
    view.apply(ev.MoveRejected(refused, "nothing is asked of you now"))
    assert view.choice == "play" and view.status.startswith("move refused")


def test_clicking_a_card_selects_it_and_a_second_click_plays_it() -> None:
    i18n.set_language("en")
    view = BelkaView(hand=cards("JC AC 7H"), legal=set(cards("JC AC")), choice="play")
    played: list[int] = []
    canvas = panels.hand_panel(view, 40, lambda i: setattr(view, "selected", i), played.append)
    second = next(f for f in canvas.fragments() if "A♣" in f[1])
    click = MouseEvent(Size(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())  # type: ignore[arg-type]
    second[2](click)  # type: ignore[misc]
    assert view.selected == 1 and played == []
    canvas = panels.hand_panel(view, 40, lambda i: setattr(view, "selected", i), played.append)
    next(f for f in canvas.fragments() if "A♣" in f[1])[2](click)  # type: ignore[misc]
    assert played == [1]


@contextmanager
def screen_of(rows: int, columns: int) -> Iterator[tuple[TableScreen, PipeInput, io.StringIO]]:
    """An empty table screen on a terminal of this size, with its keyboard and its output."""
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=rows, columns=columns), term="xterm")
    i18n.set_language("en")
    with create_pipe_input() as pipe:
        yield (
            TableScreen(BELKA, BelkaView(), lambda action: None, input=pipe, output=output),
            pipe,
            stream,
        )


def test_a_small_terminal_gets_its_minimum_size_instead_of_a_table() -> None:
    with screen_of(20, 70) as (screen, _pipe, stream):

        async def main(bridge: Bridge) -> None:
            with trio.fail_after(60):
                while "at least 80×24" not in ANSI.sub("", stream.getvalue()):
                    await trio.sleep(0.01)
            screen.quit()

        run_with_app(screen.app, main)
    shown = ANSI.sub("", stream.getvalue())
    assert "The terminal is 70×20" in shown and "Seats" not in shown


def test_quitting_asks_first() -> None:
    with screen_of(24, 80) as (screen, pipe, _stream):

        async def main(bridge: Bridge) -> None:
            pipe.send_text("q")
            while screen.overlay != "quit":
                await trio.sleep(0.01)
            pipe.send_text("n")
            while screen.overlay is not None:
                await trio.sleep(0.01)
            assert not screen.quit_requested
            pipe.send_text("qy")
            await trio.sleep_forever()  # the app exits, which cancels this

        assert run_with_app(screen.app, main) is None
    assert screen.quit_requested


def bare_app(pipe: PipeInput) -> Application[None]:
    return Application(layout=Layout(Window()), input=pipe, output=DummyOutput())


def test_glue_returns_what_trio_returns_once_the_app_exits() -> None:
    with create_pipe_input() as pipe:
        app = bare_app(pipe)

        async def main(bridge: Bridge) -> int:
            with trio.fail_after(60):  # the app starts once trio has: wait for it, not a time
                while not app.is_running:
                    await trio.sleep(0.01)
            app.exit()  # trio runs on the app's thread, so it may call the app directly
            return 7

        assert run_with_app(app, main) == 7


def test_glue_closes_the_app_and_raises_when_trio_fails() -> None:
    with create_pipe_input() as pipe:
        app = bare_app(pipe)

        async def main(bridge: Bridge) -> None:
            await trio.sleep(0.01)
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            run_with_app(app, main)
        assert not app.is_running


def test_bridge_runs_callbacks_in_trio() -> None:
    with create_pipe_input() as pipe:
        app = bare_app(pipe)
        got: list[int] = []

        async def main(bridge: Bridge) -> None:
            send, receive = trio.open_memory_channel[int](1)
            while app.loop is None:  # the app starts once trio has
                await trio.sleep(0.01)
            # as a key binding would: from the host loop, into trio's synchronous API
            app.loop.call_soon(bridge.call_soon, send.send_nowait, 5)  # type: ignore[union-attr]
            got.append(await receive.receive())
            app.exit()

        run_with_app(app, main)
    assert got == [5]


@pytest.mark.parametrize(
    ("choice", "keys", "expected"),
    [
        ("redeal", "y", ClaimRedeal()),
        ("redeal", "n", Ready()),
        ("eggs", "1", ChooseEggs("plus4")),
        ("eggs", "2", ChooseEggs("title")),
    ],
)
def test_the_rules_choices_are_one_key_each(choice: str, keys: str, expected: Move) -> None:
    posted: list[Move] = []
    with screen_of(24, 80) as (screen, pipe, _stream):
        screen.view.choice = choice
        screen.post_move = posted.append

        async def main(bridge: Bridge) -> None:
            pipe.send_text(keys)
            while not posted:
                await trio.sleep(0.01)
            screen.quit()

        run_with_app(screen.app, main)
    assert posted == [expected] and screen.view.choice is None


def test_the_end_of_a_deal_names_a_renege_the_audit_charged() -> None:
    i18n.set_language("en")
    view = BelkaView(names=["A", "B", "C", "D"])
    fair = plain_text(reports.deal_end_lines(view, summary()))
    assert "Fair deal verified" in fair and "1 A" in fair and "70" in fair
    renege = ev.Fault(1, "renege: played 7D in trick 3", fatal=False, deal=1)
    charged = plain_text(reports.deal_end_lines(view, summary(faults=[renege])))
    assert "The audit charged: renege: played 7D in trick 3" in charged


def test_a_stopped_game_says_who_was_caught() -> None:
    i18n.set_language("en")
    view = BelkaView(names=["A", "B", "C", "D"])
    fault = ev.Fault(2, "shuffle check failed at position 5", deal=3)
    view._on_GameAborted(ev.GameAborted((fault,)))
    text = plain_text(reports.game_end_lines(view))
    assert view.finished and "The game was stopped" in text
    assert "C: shuffle check failed at position 5" in text
