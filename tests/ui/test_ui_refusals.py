"""A refused card says what the trick asks for: the rules name the rule, each game's
screen words it (a led jack asks Belka's trumps; a led trump asks Belot's higher trump)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.cards import Card, Suit, parse_cards, to_mask
from p2pbelka.rules.belka import DealState, GameState, options_from
from p2pbelka.rules.belot import BelotGame, belot_options
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.play import Play
from p2pbelka.ui.games.belka import refusals as belka_refusals
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belot import refusals as belot_refusals
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.words import i18n
from tests.rules.belot_helpers import deal_a

# Seat 0 holds the J♣ and its suit is spades: spades are trumps.  Seat 1 leads.
BELKA_HANDS = [
    "JC 7S 8H 9H TH QH KH AH",
    "JD 7H 8D 9D TD QD KD AD",
    "AC 7D 8S 9S TS QS KS AS",
    "JH JS 8C 9C TC QC KC 7C",
]
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def belka_after(lead: str, **options_set: str) -> BelkaView:
    options = options_from("classic", options_set)
    hands = [to_mask(parse_cards(h)) for h in BELKA_HANDS]
    deal = DealState.start(options, 0, hands, seat_suits=SUITS)
    deal = deal.apply(Play(1, Card.parse(lead)))
    view = BelkaView(me=2)
    view.observe(replace(GameState.new(options), seat_suits=SUITS, deal=deal))
    return view


def test_a_led_jack_asks_for_a_trump_in_belka() -> None:
    view = belka_after("JD")  # spades are trumps: the J♦ asks for spades
    assert view.state is not None and view.state.deal is not None
    assert view.state.deal.refusal(2, Card.parse("7D")) == E.FOLLOW_SUIT
    said = belka_refusals.cannot_play(view, Card.parse("7D"))
    assert said == "7♦ cannot be played now: a trump was led (the jacks are trumps), play a trump."


def test_a_led_plain_suit_is_named_in_belka() -> None:
    said = belka_refusals.cannot_play(belka_after("8D"), Card.parse("AC"))
    assert (
        said
        == "A♣ cannot be played now: ♦ diamonds were led, play ♦ diamonds (the jacks are trumps)."
    )


def test_an_unled_ace_is_worded_in_belka() -> None:
    view = belka_after("7H", no_unled_ace_discard="on")  # no hearts in seat 2's hand
    assert view.state is not None and view.state.deal is not None
    assert view.state.deal.refusal(2, Card.parse("AC")) == E.NO_UNLED_ACE_DISCARD
    said = belka_refusals.cannot_play(view, Card.parse("AC"))
    assert said.startswith("A♣ cannot be played now: an ace of a suit not yet led")


def belot_view(*cards_played: tuple[int, str]) -> BelotView:
    """Deal A with diamonds named: seat 2 holds J Q K A 10 of them, seat 0 the 7 8 9."""
    deal = deal_a(("pass", "pass", "pass", "D"))
    for seat, text in cards_played:
        deal = deal.apply(Play(seat, Card.parse(text)))
    view = BelotView(me=0)
    view.observe(replace(BelotGame.new(belot_options(), 3, 0), deal=deal))
    return view


def test_a_led_plain_suit_is_named_in_belot() -> None:
    view = belot_view((1, "AH"), (2, "JD"))
    said = belot_refusals.cannot_play(view, Card.parse("7D"))
    assert said == "7♦ cannot be played now: ♥ hearts were led, play ♥ hearts."


def test_a_led_trump_asks_for_a_higher_one_in_belot() -> None:
    view = belot_view((1, "AH"), (2, "JD"), (0, "7H"), (2, "TD"))
    assert view.deal is not None and view.deal.refusal(0, Card.parse("7D")) == E.BEAT_TRUMP
    said = belot_refusals.cannot_play(view, Card.parse("7D"))
    assert said == "7♦ cannot be played now: a trump was led, beat the 10♦ if you can."
    said = belot_refusals.cannot_play(view, Card.parse("8H"))
    assert said == "8♥ cannot be played now: a trump was led, play a trump."


def test_every_refusal_reads_in_russian_and_kazakh() -> None:
    for lang in ("ru", "kk"):
        i18n.set_language(lang)
        for said in (
            belka_refusals.cannot_play(belka_after("JD"), Card.parse("7D")),
            belka_refusals.cannot_play(belka_after("8D"), Card.parse("AC")),
            belka_refusals.cannot_play(
                belka_after("7H", no_unled_ace_discard="on"), Card.parse("AC")
            ),
            belot_refusals.cannot_play(belot_view((1, "AH"), (2, "JD")), Card.parse("7D")),
        ):
            assert "cannot" not in said and "{" not in said, said
