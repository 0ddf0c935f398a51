"""The score sheet, red suits, NO_COLOR, and the end-of-deal page's header and status."""

from __future__ import annotations

import io
import re

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.table import events as ev
from p2pbelka.ui import panels
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belka import reports
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belka.words import sides
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import RED_STYLE, red_suits
from tests.ui.summaries import summary

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")
NAMES = ["Alma", "Bolat", "Saule", "Nurlan"]


def played_view() -> BelkaView:
    view = BelkaView(names=list(NAMES))
    view.deal_ends = [
        summary(),
        summary(
            number=1,
            dealer=0,
            trump="H",
            redeal_claim=1,
            tricks=[],
            card_points=[0, 0],
            awarded=[0, 0],
            notes=["seat 1 asked for a re-deal"],
        ),
        summary(
            number=2,
            dealer=1,
            trump="D",
            trump_team=1,
            card_points=[60, 60],
            awarded=[0, 0],
            notes=["60:60, eggs"],
            faults=[ev.Fault(3, "renege: played 7S in trick 4", fatal=False, deal=2)],
        ),
    ]
    return view


def test_the_score_sheet_has_every_deal_as_kept_on_paper() -> None:
    i18n.set_language("en")
    text = plain_text(reports.score_sheet_lines(played_view()))
    lines = text.splitlines()
    first = next(line for line in lines if line.lstrip().startswith("1 "))
    assert "Nurlan" in first and "♣ clubs" in first and "70:50" in first and "1:0" in first
    redeal = next(line for line in lines if line.lstrip().startswith("2 "))
    assert "Alma" in redeal and "♥ hearts" in redeal
    assert "re-deal claimed by Bolat" in text
    assert "seat 1" not in text
    third = next(line for line in lines if line.lstrip().startswith("3 "))
    assert "Bolat" in third and " B " in third and "60:60" in third and "✘" in third
    assert "60:60, eggs" in text and "Nurlan: renege: played 7S in trick 4" in text
    assert "you and Saule against Bolat and Nurlan" in text


def test_the_pairs_are_named_from_where_you_sit() -> None:
    i18n.set_language("en")
    assert sides(0, NAMES) == "you and Saule against Bolat and Nurlan"
    assert sides(1, NAMES) == "you and Nurlan against Saule and Alma"


def test_hearts_and_diamonds_are_red_clubs_and_spades_are_not() -> None:
    i18n.set_language("en")
    page = red_suits(reports.deal_end_lines(BelkaView(names=list(NAMES)), summary()))
    red = {text.strip() for style, text, *_ in page if RED_STYLE in style}
    plain = "".join(text for style, text, *_ in page if RED_STYLE not in style)
    assert {"7♦", "8♦", "9♥", "10♥"} <= red
    assert "J♣" in plain and "K♠" in plain
    assert not any("♣" in t or "♠" in t for t in red)


def test_a_card_box_of_a_red_suit_is_drawn_red() -> None:
    from p2pbelka.cards import parse_cards

    heart, club = parse_cards("TH JC")
    assert "red" in panels.card_box(heart)[1][0][0]
    assert "red" not in panels.card_box(club)[1][0][0]


def test_no_color_is_respected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    screen = TableScreen(BELKA, BelkaView(), lambda move: None)
    assert screen.app.color_depth == ColorDepth.DEPTH_1_BIT


def test_the_end_of_deal_page_is_about_that_deal_and_asks_for_no_card() -> None:
    i18n.set_language("en")
    view = played_view()
    view.deal_ends = view.deal_ends[:1]
    screen = TableScreen(BELKA, view, lambda move: None)
    # the next deal has begun underneath and already asks for a card
    view.apply(ev.DealStarted(1, 1, 0, ev.Score((1, 0))))
    view.choice, view.legal = "play", {*view.hand}
    view.status = "Your turn: choose a card and press Enter."
    screen.refresh()
    assert screen.overlay == "deal_end"
    title = plain_text(screen._title())
    assert "deal 1" in title and "deal 2" not in title and "♣ clubs" in title
    assert "Your turn" not in plain_text(screen._status())


def test_s_opens_the_score_sheet_and_enter_closes_it() -> None:
    i18n.set_language("en")
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")
    with create_pipe_input() as pipe:
        screen = TableScreen(BELKA, played_view(), lambda move: None, input=pipe, output=output)

        async def main(bridge: Bridge) -> None:
            with trio.fail_after(120):  # a hang, not a speed limit
                pipe.send_text("s")
                while "re-deal claimed by Bolat" not in ANSI.sub("", stream.getvalue()):
                    await trio.sleep(0.01)
                assert screen.overlay == "sheet"
                pipe.send_text("\r")
                while screen.overlay is not None:
                    await trio.sleep(0.01)
            screen.quit()

        run_with_app(screen.app, main)
    assert "Score sheet" in ANSI.sub("", stream.getvalue())


def test_a_re_deal_page_names_the_player_not_a_seat_number() -> None:
    i18n.set_language("en")
    page = summary(redeal_claim=1, tricks=[], notes=["seat 1 asked for a re-deal"])
    text = plain_text(reports.deal_end_lines(BelkaView(names=list(NAMES)), page))
    assert "Bolat showed the hand and claimed a re-deal" in text
    assert "Bolat asked for a re-deal" in text and "seat 1" not in text


def test_a_re_deal_is_neither_asked_nor_claimed_under_the_last_deal_s_page() -> None:
    """The next deal's hand allows a re-deal while the end of the last deal is still up:
    the status line does not ask, and y claims nothing, until the hand is on screen."""
    i18n.set_language("en")
    view = played_view()
    view.deal_ends = view.deal_ends[:1]
    sent: list[object] = []
    with create_pipe_input() as pipe:
        output = Vt100_Output(io.StringIO(), lambda: Size(rows=30, columns=100), term="xterm")
        screen = TableScreen(BELKA, view, sent.append, input=pipe, output=output)
        view.apply(ev.DealStarted(1, 1, 0, ev.Score((1, 0))))
        view.choice = "redeal"
        screen.refresh()

        async def main(bridge: Bridge) -> None:
            assert screen.overlay == "deal_end"
            waiting = plain_text(screen._status())
            assert "re-deal" not in waiting and "The table asks you" in waiting
            pipe.send_text("y")
            pipe.send_text("s")  # a key after it, so y has surely been read
            while screen.overlay != "sheet":
                await trio.sleep(0.01)
            assert sent == [] and view.choice == "redeal"
            pipe.send_text("\r")
            while screen.overlay is not None:
                await trio.sleep(0.01)
            assert "allows a re-deal" in plain_text(screen._status())
            pipe.send_text("y")
            while not sent:
                await trio.sleep(0.01)
            screen.quit()

        run_with_app(screen.app, main)
    assert [type(m).__name__ for m in sent] == ["ClaimRedeal"]
