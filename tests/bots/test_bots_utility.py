"""The strong level's utility, re-deal and eggs decisions follow the rules engine.

The positions are chosen so that the right decision is clear from the rules
alone (a claim that ends the game, a point the other team would get), in both
counts and for either team dealing: a change in the engine's scoring changes
these decisions with no edit in the bots.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belka.utility import (
    after_deal,
    after_redeal,
    best_eggs,
    deal_values,
    point_value,
    win_chance,
)
from p2pbelka.cards import parse_cards, to_mask
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import seat_suits_from
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from

# Seat 1's hands: all sevens and eights (0 card points), and all four nines with
# both black jacks and two aces (26 card points, a strong hand that may still ask).
LOW = "7C 8C 7D 8D 7H 8H 7S 8S"
NINES = "9C 9D 9H 9S JC JS AH AD"


def game_with(
    preset: str, score: tuple[int, int], dealer: int, streak: int, hand: str
) -> GameState:
    """A game past its first deal, seat 1 dealt ``hand``, the rest of the pack in turn."""
    options = options_from(preset)
    mine = to_mask(parse_cards(hand))
    rest = [c for c in range(32) if not mine >> c & 1]
    hands = [0, mine, 0, 0]
    for i, c in enumerate(rest):
        hands[(0, 2, 3)[i % 3]] |= 1 << c
    game = GameState.new(options, dealer)
    game = replace(
        game, score=score, redeal_streak=streak, seat_suits=seat_suits_from(0, "HSD")
    ).start_deal(hands)
    assert game.deal is not None and game.deal.can_claim_redeal(1)
    return game


def seat_view(game: GameState, seat: int) -> GameState:
    assert game.deal is not None
    return replace(game, deal=game.deal.view(seat))


@pytest.mark.parametrize("preset", ["classic", "eyes"])
def test_win_chance_reads_the_goal(preset: str) -> None:
    game = GameState.new(options_from(preset))
    fresh = win_chance(game, 0)
    assert fresh == pytest.approx(0.5)
    ahead = replace(game, score=(11, 0) if preset == "classic" else (0, 11))
    assert win_chance(ahead, 0) > 0.9
    assert win_chance(ahead, 1) < 0.1
    assert point_value(game.options) > 0


@pytest.mark.parametrize("preset", ["classic", "eyes"])
def test_at_the_goal_a_big_win_is_worth_no_more_than_a_small_one(preset: str) -> None:
    near = (11, 3) if preset == "classic" else (3, 11)  # team 0 needs any won deal
    game = game_with(preset, near, dealer=0, streak=0, hand=NINES)
    value = deal_values(game, 0)
    # 61 and 91 both end the game: only the tie-break on card points separates them.
    assert value(91) - value(61) < 0.2
    assert value(61) - value(59) > 5 * (value(91) - value(61))
    early = deal_values(game_with(preset, (0, 0), dealer=0, streak=0, hand=NINES), 0)
    assert early(91) - early(61) > 0.5


def test_eggs_bonus_is_counted_and_chosen_from_the_engine() -> None:
    game = replace(game_with("classic", (2, 2), dealer=0, streak=0, hand=NINES), eggs_pending=True)
    after = after_deal(game, 75)  # team 0 wins 75:45 on eggs: +4 chosen for them
    assert after.score[0] >= 2 + 1 + 4
    plain = after_deal(replace(game, eggs_pending=False), 75)
    assert after.score[0] - plain.score[0] == 4
    pending = replace(game, deal=None, pending_choice=0, history=plain.history)
    assert best_eggs(pending, 0) == "plus4"
    assert StrongBot(seed=1).choose_eggs(pending, 2) == "plus4"


CASES = [
    # (preset, score, dealer, hand, claims): seat 1 (team 1) with two re-deals behind.
    # The other team deals: the third re-deal is charged to them.
    ("classic", (5, 5), 0, LOW, True),
    ("eyes", (5, 5), 0, LOW, True),
    ("classic", (5, 11), 0, NINES, True),  # the point charged to team 0 ends the game for us
    ("eyes", (11, 5), 0, NINES, True),  # the eye against team 0 is its twelfth
    # Our team deals: the charge is ours.
    ("classic", (11, 5), 3, LOW, False),  # the point would go to team 0 and end the game
    ("eyes", (5, 11), 3, LOW, False),  # the eye against us would be our twelfth
    ("classic", (5, 5), 3, NINES, False),  # a strong hand is worth more than a point away
    ("eyes", (5, 5), 3, NINES, False),
]


@pytest.mark.parametrize(("preset", "score", "dealer", "hand", "claims"), CASES)
def test_third_redeal_claims_follow_the_engine(
    preset: str, score: tuple[int, int], dealer: int, hand: str, claims: bool
) -> None:
    game = game_with(preset, score, dealer, streak=2, hand=hand)
    bot = StrongBot(seed=3)
    assert bot.claim_redeal(seat_view(game, 1), 1) is claims
    # The engine's charge, as the decision saw it.
    redealt = after_redeal(game, 1)
    assert redealt.redeal_streak == 0
    assert redealt.score != game.score


@pytest.mark.parametrize("preset", ["classic", "eyes"])
def test_a_worthless_hand_asks_when_nothing_is_charged(preset: str) -> None:
    game = game_with(preset, (5, 5), dealer=3, streak=0, hand=LOW)
    assert StrongBot(seed=3).claim_redeal(seat_view(game, 1), 1)
    assert core.mask_points(to_mask(parse_cards(LOW))) == 0
