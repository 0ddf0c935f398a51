"""Belot on the one table screen: its view, panels and pages, and what only Belot asks:
the calls (y plays the turned suit, 1-3 name another, n passes), the declarations at
one's lead (``d``, in a dialog), the claim of 1001 (``w``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, Float, FormattedTextControl, Window
from prompt_toolkit.widgets import Frame

from p2pbelka.cards import SUIT_LETTERS, Suit
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.deal import PASS, PLAY
from p2pbelka.rules.belot.spec import SPEC
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.ui.games.belot import panels, refusals, replay, reports
from p2pbelka.ui.games.belot.logwords import WORDS
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.gameui import GameUI, Key, KeyContext, Seat
from p2pbelka.ui.keymap import latin
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.view import TrickView
from p2pbelka.ui.words.cardnames import red_suits, suit_name
from p2pbelka.ui.words.i18n import _

FIRST_CARDS, EXTRA_CARDS = 6, 3

DECLARE_WIDTH = 60
PAGES = ("deal_end", "sheet")


def other_suits(view: BelotView) -> list[str]:
    """Round 2's suits, as numbered on screen (the calls the rules offer, in order)."""
    return [c for c in view.offered_calls if c in SUIT_LETTERS]


def bid(seat: Seat, call: str) -> None:
    view: BelotView = seat.view
    if view.bidding and call in view.offered_calls:
        seat.answer(belot_mv.Bid(call))


def open_declarations(seat: Seat) -> None:
    view: BelotView = seat.view
    if view.may_declare and seat.overlay in (None, "last"):
        seat.overlay, view.declare_index = "declare", 0
    elif not view.may_declare:
        why = nothing_to_declare(view)
        if not view.log or view.log[-1] != why:  # said once, however often d is pressed
            view.say(why)
    seat.invalidate()


def nothing_to_declare(view: BelotView) -> str:
    """Why ``d`` opens no declarations now."""
    following = view.trick is not None and bool(view.trick.cards) and view.trick.winner is None
    if not view.my_turn or following:
        return _("Combinations are declared on your lead, before the trick's first card.")
    return _("Nothing to declare: no combination in your hand can be declared now.")


def declare(seat: Seat, index: int) -> None:
    view: BelotView = seat.view
    if view.may_declare and 0 <= index < len(view.offered):
        # answered: nothing more until the table asks again (or refuses, and the same
        # choice is open again)
        seat.overlay = None
        seat.answer(belot_mv.Declare(view.offered[index]))


def claim(seat: Seat) -> None:
    if seat.view.my_turn and seat.view.claim_offered:
        seat.answer(belot_mv.Claim1001())


def close_declarations(seat: Seat) -> None:
    if seat.overlay == "declare" and not seat.view.may_declare:
        seat.overlay = None


def prompt(seat: Seat) -> StyleAndTextTuples | None:
    view: BelotView = seat.view
    if view.finished or seat.overlay in PAGES:
        return None
    if view.bidding and view.turned is not None:
        return bid_prompt(seat)
    if view.my_turn and (view.offered or view.claim_offered) and not view.status:
        return lead_prompt(seat)
    calling = view.trump is None and view.turned is not None and not view.waiting_for
    if calling and view.turn is not None and view.turn != view.me:
        return [("class:hint", _("{name} to call.").format(name=view.name(view.turn)))]
    return None


def bid_prompt(seat: Seat) -> StyleAndTextTuples:
    view: BelotView = seat.view
    assert view.turned is not None
    out: StyleAndTextTuples = [("class:status", _("Your call:") + " ")]
    if PLAY in view.offered_calls:
        label = _("[y] play {suit}").format(suit=suit_name(view.turned.suit))
        out.append(("class:button", label, on_click(lambda: bid(seat, PLAY))))
        out.append(("", "  "))
    for i, letter in enumerate(other_suits(view)):
        label = f"[{i + 1}] {suit_name(Suit.parse(letter))}"
        out.append(("class:button", label, on_click(partial(bid, seat, letter))))
        out.append(("", "  "))
    out.append(("class:button", _("[n] pass"), on_click(lambda: bid(seat, PASS))))
    return red_suits(out)


def lead_prompt(seat: Seat) -> StyleAndTextTuples:
    view: BelotView = seat.view
    out: StyleAndTextTuples = [("class:status", _("Your lead:") + " ")]
    if view.claim_offered:
        label = _("[w] claim 1001 ({total})").format(total=view.claim_total())
        out.append(("class:button", label, on_click(lambda: claim(seat))))
        out.append(("", "  "))
    if view.offered:
        label = _("[d] declare ({n} possible)").format(n=len(view.offered))
        out.append(("class:button", label, on_click(lambda: open_declarations(seat))))
        out.append(("", "  "))
    out.append(("class:status", _("or play a card.")))
    return out


def declare_text(seat: Seat) -> StyleAndTextTuples:
    view: BelotView = seat.view
    out: StyleAndTextTuples = []
    for i, cards in enumerate(view.offered):
        style = "class:button" if i == view.declare_index else ""
        line = f"[{i + 1}] {panels.combination_line(view, cards)}"
        out.append((style, line, on_click(partial(declare, seat, i))))
        out.append(("", "\n"))
    out.append(("", _("Enter declares the chosen one; Esc goes back.")))
    return red_suits(out)


def floats(seat: Seat) -> Sequence[Float]:
    box = Frame(
        Window(
            FormattedTextControl(lambda: declare_text(seat)),
            height=lambda: len(seat.view.offered) + 1,
            width=DECLARE_WIDTH,
        ),
        title=_("Declare"),
        style="class:dialog",
    )
    showing = Condition(lambda: seat.overlay == "declare" and not seat.is_too_small())
    return [Float(ConditionalContainer(box, showing))]


def keys(seat: Seat, when: KeyContext) -> Sequence[Key]:
    def view() -> BelotView:
        view: BelotView = seat.view  # read each time: the screen's view is the game's
        return view

    # y and n answer the question about a lost seat first (the table's keys)
    bidding = when.at_table & Condition(lambda: view().bidding and view().offer is None)
    leading = when.at_table & Condition(lambda: view().my_turn)
    # d says why when it opens nothing: any time cards are played
    playing = when.at_table & Condition(lambda: not view().bidding and not view().finished)
    declaring = ~when.chatting & Condition(lambda: seat.overlay == "declare")

    def suit(event: KeyPressEvent) -> None:
        suits, index = other_suits(view()), int(latin(event.data)) - 1
        if index < len(suits):
            bid(seat, suits[index])

    def move_choice(by: int) -> None:
        offered = len(view().offered)
        view().declare_index = max(0, min(offered - 1, view().declare_index + by))

    return [
        Key(("y", "p"), bidding, lambda e: bid(seat, PLAY)),
        Key(("n", "0"), bidding, lambda e: bid(seat, PASS)),
        Key(tuple("123"), bidding, suit),
        Key(("d",), playing, lambda e: open_declarations(seat)),
        Key(("w",), leading, lambda e: claim(seat)),
        Key(tuple("123456789"), declaring, lambda e: declare(seat, int(latin(e.data)) - 1)),
        Key(("up",), declaring, lambda e: move_choice(-1)),
        Key(("down",), declaring, lambda e: move_choice(1)),
        Key(("enter",), declaring, lambda e: declare(seat, view().declare_index)),
    ]


def table(view: BelotView, width: int, trick: TrickView | None) -> StyleAndTextTuples:
    return red_suits(panels.table_panel(view, width, trick).fragments())


def new_view(seats: int) -> BelotView:
    return BelotView(players=seats)


def dealt(view: BelotView) -> int:
    """Six cards each, then three more once the bidding is over."""
    if not view.in_deal:
        return 0
    deal = view.deal
    return FIRST_CARDS if deal is None or deal.extra is None else FIRST_CARDS + EXTRA_CARDS


UI = GameUI(
    name=SPEC.name,
    new_view=new_view,
    table=table,
    title=panels.title_line,
    info=panels.info_line,
    under_table=panels.declared_line,
    score=panels.score_lines,
    seats=panels.seats_lines,
    deal_end=reports.deal_end_lines,
    deal_title=reports.summary_title,
    sheet=reports.score_sheet_lines,
    game_end=reports.game_end_lines,
    help_text=reports.help_text,
    choose_hint=lambda: _("←→/1-9 choose"),  # nine cards in a Belot hand
    cannot_play=refusals.cannot_play,
    prompt=prompt,
    keys=keys,
    floats=floats,
    on_refresh=close_declarations,
    paced=(belot_ev.BidMade, belot_ev.Declared),
    replay=replay.of_report,
    dealt=dealt,
    event_line=WORDS.event_line,
    summary_line=WORDS.summary_line,
    sort_hand=WORDS.sort_hand,
    words=WORDS.words,
)
