"""Belka on the one table screen: its view, panels and pages, and what only Belka asks
(a re-deal with a weak hand, y or n; the pair's choice after the eggs, 1 or 2)."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.rules.belka import moves as belka_mv
from p2pbelka.rules.belka.game import EGGS_CHOICES, GAME
from p2pbelka.ui.games.belka import panels, refusals, replay, reports, words
from p2pbelka.ui.games.belka.logwords import WORDS
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.gameui import GameUI, Key, KeyContext, Seat
from p2pbelka.ui.keymap import latin
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.view import TrickView
from p2pbelka.ui.words.i18n import _

HAND = 8  # a quarter of the deck, all dealt before the first card is led


def claim_redeal(seat: Seat, claim: bool) -> None:
    if seat.view.choice == "redeal":
        seat.answer(belka_mv.ClaimRedeal() if claim else belka_mv.Ready())


def choose_eggs(seat: Seat, choice: str) -> None:
    if seat.view.choice == "eggs":
        seat.answer(belka_mv.ChooseEggs(choice))


def prompt(seat: Seat) -> StyleAndTextTuples | None:
    choice = seat.view.choice
    if choice == "redeal":
        return [
            ("class:status", _("Your hand allows a re-deal:") + " "),
            ("class:button", _("[y] claim it"), on_click(lambda: claim_redeal(seat, True))),
            ("", "  "),
            ("class:button", _("[n] play this hand"), on_click(lambda: claim_redeal(seat, False))),
        ]
    if choice == "eggs":
        title = _("[2] the title {title} for them").format(title=words.eggs_title())
        return [
            ("class:status", _("After the eggs your pair chooses:") + " "),
            ("class:button", _("[1] +4 points"), on_click(lambda: choose_eggs(seat, "plus4"))),
            ("", "  "),
            ("class:button", title, on_click(lambda: choose_eggs(seat, "title"))),
        ]
    return None


def keys(seat: Seat, when: KeyContext) -> Sequence[Key]:
    # y and n answer the question about a lost seat first (the table's keys); both
    # questions wait while a page covers the hand (the end of the last deal)
    redeal = when.at_table & Condition(
        lambda: seat.view.choice == "redeal" and seat.view.offer is None
    )
    eggs = when.at_table & Condition(lambda: seat.view.choice == "eggs")
    return [
        Key(("y",), redeal, lambda e: claim_redeal(seat, True)),
        Key(("n",), redeal, lambda e: claim_redeal(seat, False)),
        Key(("1", "2"), eggs, lambda e: choose_eggs(seat, EGGS_CHOICES[int(latin(e.data)) - 1])),
    ]


def table(view: BelkaView, width: int, trick: TrickView | None) -> StyleAndTextTuples:
    return panels.table_panel(view, width, trick).fragments()


def new_view(seats: int) -> BelkaView:
    return BelkaView(players=seats)


UI = GameUI(
    name=GAME,
    new_view=new_view,
    table=table,
    title=panels.title_line,
    info=panels.info_line,
    score=panels.score_lines,
    seats=panels.seats_lines,
    deal_end=reports.deal_end_lines,
    deal_title=reports.summary_title,
    sheet=reports.score_sheet_lines,
    game_end=reports.game_end_lines,
    help_text=reports.help_text,
    choose_hint=lambda: _("←→/1-8 choose"),  # eight cards in a Belka hand
    cannot_play=refusals.cannot_play,
    prompt=prompt,
    keys=keys,
    replay=replay.of_report,
    dealt=lambda view: HAND if view.in_deal else 0,
    event_line=WORDS.event_line,
    summary_line=WORDS.summary_line,
    sort_hand=WORDS.sort_hand,
    words=WORDS.words,
)
