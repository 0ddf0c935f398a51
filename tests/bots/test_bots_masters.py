"""The strong level cashes its masters: positions where it used to under-cash.

Each position hides the other hands (no voids shown), so the bot must judge
from the deals consistent with what it knows; the card it should play is the
best on average over those deals (checked here by exact search on a sample).
"""

from __future__ import annotations

import random

import pytest

from p2pbelka.bots.belka.knowledge import Seen
from p2pbelka.bots.belka.sampler import sample_hands
from p2pbelka.bots.belka.solver import solve
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.cards import FULL_MASK, Card, Suit, parse_cards, to_mask
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.options import options_from


def position(trump: str, hands: list[str], trick: str = "", leader: int = 0) -> Seen:
    """Seat 0 to play; ``hands`` are what each seat holds now (only seat 0's is shown)."""
    t = int(Suit.parse(trump))
    masks = [to_mask(parse_cards(h)) for h in hands]
    on_table = [c.index for c in parse_cards(trick)]
    union = masks[0] | masks[1] | masks[2] | masks[3] | sum(1 << c for c in on_table)
    played = FULL_MASK & ~union | sum(1 << c for c in on_table)
    out = core.mask_points(FULL_MASK & ~union)
    holder = next((s for s in range(4) if masks[s] >> core.JC_INDEX & 1), 1)
    return Seen(
        seat=0,
        trump=t,
        jc_holder=holder,
        hand=masks[0],
        played=played,
        trick=on_table,
        leader=leader,
        voids=[0, 0, 0, 0],
        led_by=[0, 0, 0, 0],
        counts=[m.bit_count() for m in masks],
        led_suits=0,
        points=(out // 2, out - out // 2),
        ace_rule=False,
        history=[],
        first_leader=leader,
    )


def mean_exact(seen: Seen, card: Card, deals: int = 60) -> float:
    """Team 0's card points from here, on average over consistent deals, after ``card``."""
    rng = random.Random(7)
    total = 0
    for _ in range(deals):
        hands = sample_hands(seen, rng)
        hands[0] ^= card.bit
        total += solve(hands, seen.leader, [*seen.trick, card.index], seen.trump, {})
    return total / deals


# trump, hands now (seat 0 first), trick on the table, its leader, the card to play
POSITIONS = [
    # Not Q♥ into the outstanding A♥: cash the master A♣.
    ("D", ["AC QH 7S 8S", "AH 9C 7H 9S", "KC 8H TS QS", "TC JH KH AS"], "", 0, "AC"),
    # The master A♦, not 9♠.
    ("H", ["AD 9S 8C QC", "KD 7S 9C AC", "TD QS TC 8D", "7D KS KC JC"], "", 0, "AD"),
    # The partner's K♣ is beaten by A♣, the last seat still follows: ruff with T♥.
    ("H", ["TH 8D 7S", "9C QS 9D", "AS KS", "QD 7D"], "KC AC", 2, "TH"),
]


@pytest.mark.parametrize(("trump", "hands", "trick", "leader", "best"), POSITIONS)
def test_strong_cashes_its_masters(
    trump: str, hands: list[str], trick: str, leader: int, best: str
) -> None:
    seen = position(trump, hands, trick, leader)
    card = StrongBot(seed=2).choose(seen, options_from("classic"))
    assert card == Card.parse(best).index


@pytest.mark.parametrize(("trump", "hands", "trick", "leader", "best"), POSITIONS)
def test_the_master_is_best_on_average(
    trump: str, hands: list[str], trick: str, leader: int, best: str
) -> None:
    seen = position(trump, hands, trick, leader)
    values = {str(c): mean_exact(seen, c) for c in parse_cards(hands[0])}
    legal_best = max(values, key=lambda c: values[c])
    assert values[best] >= values[legal_best] - 1e-9
