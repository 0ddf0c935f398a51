"""The ``heuristic`` Belot level: rules of thumb from the seat's view, no search."""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2pbelka.bots.belot.knowledge import Known, known_from
from p2pbelka.bots.belot.policy import choose_bid, choose_card, declaration_plan
from p2pbelka.cards import CARDS, Card, from_mask
from p2pbelka.rules.belot.game import BelotGame


def bid_margin(scores: Sequence[int], seat: int) -> float:
    """How much stronger than usual a hand must be to take the trump now.

    A declarer who is out-scored writes nothing: the leader near 1001 need not
    risk it (its totals count anyway), a seat far behind takes more chances.
    """
    mine = scores[seat]
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    if mine >= 700 and mine >= best_other:
        return 0.8
    if best_other >= 700 and mine < best_other - 200:
        return -0.6
    return 0.0


def keep_mask(known: Known) -> int:
    """Cards of combinations not declared yet: given away last."""
    if known.trump < 0:
        return 0
    keep = 0
    for mask in declaration_plan(known.hand, known.seat, known.trump, known.fours, known.declared):
        keep |= mask
    return keep


def heuristic_card(known: Known, legal: int) -> int:
    return choose_card(
        known.hand,
        legal,
        known.trick,
        known.players,
        known.trump,
        known.outside,
        9 - known.tricks,
        keep_mask(known),
    )


class HeuristicBelotBot:
    """Rules of thumb (see :mod:`p2pbelka.bots.belot.policy`); deterministic."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def bid(self, game: BelotGame, seat: int) -> str:
        known = known_from(game, seat)
        assert game.deal is not None
        calls = game.deal.legal_calls(seat)
        return choose_bid(
            known.hand,
            known.turned,
            calls,
            known.players,
            known.fours,
            bid_margin(known.scores, seat),
        )

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        known = known_from(game, seat)
        plan = declaration_plan(known.hand, seat, known.trump, known.fours, known.declared)
        return [tuple(from_mask(mask)) for mask in plan]

    def claim(self, game: BelotGame, seat: int) -> bool:
        return game.deal is not None and game.deal.can_claim(seat)

    def play(self, game: BelotGame, seat: int) -> Card:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        return CARDS[heuristic_card(known, deal.legal_mask(seat))]
