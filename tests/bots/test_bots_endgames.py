"""The strong bot finds the best card in hand-made endings (2-3 tricks left).

Each ending shows the other hands to the bot only through voids: every seat
has shown it lacks the suits it does not hold, which leaves one deal consistent
with the seat's knowledge, so the best card is known (found by exhaustive
search and written down here).  In each, the rule-of-thumb card is different.
"""

from __future__ import annotations

import pytest

from p2pbelka.bots.belka.knowledge import Seen
from p2pbelka.bots.belka.policy import choose
from p2pbelka.bots.belka.solver import solve
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.cards import FULL_MASK, Card, Suit, parse_cards, to_mask
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.options import options_from

# trump, the four hands (seat 0 leads), the best card for seat 0
ENDINGS = [
    ("D", ["KD JH", "8S AS", "JC QC", "JD AD"], "KD"),
    ("H", ["9C 7D", "8D AD", "7H TS", "JC AC"], "9C"),
    ("S", ["JC KD", "9H QH", "TC 7S", "8D AD"], "KD"),
    ("S", ["TC JC", "JS AS", "9D AD", "8C AH"], "TC"),
    ("C", ["9H JS", "AC 9S", "7H KH", "7D TD"], "JS"),
    ("S", ["8H AS", "KC AC", "7H TH", "AD 9S"], "AS"),
    ("S", ["8D AH 8S", "7D KD AD", "7H 9H QH", "8C AC 9S"], "AH"),
    ("C", ["8S TS JS", "TC QC JH", "JC 7H 9H", "7D TD QD"], "TS"),
    ("D", ["7D JD AS", "QD TH QH", "8S 9S KS", "7C TC AC"], "JD"),
    ("D", ["KC 8D 9D", "JD JH 9S", "8C 9C TC", "9H QH KH"], "KC"),
    ("D", ["TC AD 8H", "9S QS AS", "8C 9C QC", "JH QH KH"], "TC"),
]


def ending_seen(trump_letter: str, hands_text: list[str]) -> Seen:
    trump = int(Suit.parse(trump_letter))
    hands = [to_mask(parse_cards(text)) for text in hands_text]
    eff = core.EFFECTIVE_SUIT_MASKS[trump]
    voids = [sum(1 << e for e in range(4) if not hands[s] & eff[e]) for s in range(4)]
    union = hands[0] | hands[1] | hands[2] | hands[3]
    jc = next((s for s in range(4) if hands[s] >> core.JC_INDEX & 1), 1)
    played = FULL_MASK & ~union
    out = core.mask_points(played)
    n = hands[0].bit_count()
    return Seen(
        seat=0,
        trump=trump,
        jc_holder=jc,
        hand=hands[0],
        played=played,
        trick=[],
        leader=0,
        voids=voids,
        led_by=[0, 0, 0, 0],
        counts=[n, n, n, n],
        led_suits=0,
        points=(out // 2, out - out // 2),
        ace_rule=False,
        history=[],
        first_leader=0,
    )


@pytest.mark.parametrize(("trump", "hands", "best"), ENDINGS)
def test_strong_finds_the_best_card(trump: str, hands: list[str], best: str) -> None:
    seen = ending_seen(trump, hands)
    assert choose(seen) != Card.parse(best).index  # the rules of thumb miss it
    card = StrongBot(seed=1).choose(seen, options_from("classic"))
    assert card == Card.parse(best).index


@pytest.mark.parametrize(("trump", "hands", "best"), ENDINGS)
def test_best_card_is_best_double_dummy(trump: str, hands: list[str], best: str) -> None:
    t = int(Suit.parse(trump))
    masks = [to_mask(parse_cards(text)) for text in hands]
    values = {}
    for card in parse_cards(hands[0]):
        h = list(masks)
        h[0] ^= card.bit
        values[str(card)] = solve(h, 0, [card.index], t, {})
    assert max(values, key=lambda c: values[c]) == best
