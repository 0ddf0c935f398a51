"""Toy's figure of ``p2pbelka bench rules``: ``toy_deals_per_s``, random legal Toy deals
through the immutable :class:`~tests.toygame.rules.game.ToyDeal` (every card checked)."""

from __future__ import annotations

import random
import time

from p2pbelka.cards import CARDS
from p2pbelka.rules.common.play import Play
from tests.toygame.rules import game as rules


def random_deal(rng: random.Random, dealer: int) -> rules.ToyDeal:
    """One whole deal of random legal cards, the hands shuffled as ``owners`` deals them."""
    order = list(CARDS)
    rng.shuffle(order)
    hands = [0] * rules.SEATS
    for card, owner in zip(order, rules.owners(dealer), strict=True):
        hands[owner] |= card.bit
    deal = rules.ToyDeal(0, dealer, tuple(hands), (dealer + 1) % rules.SEATS)
    while deal.turn is not None:
        seat = deal.turn
        deal = deal.apply(Play(seat, rng.choice(deal.legal_cards(seat))))
    return deal


def figures(rng: random.Random, quick: bool) -> dict[str, object]:
    count = 20 if quick else 500
    start = time.perf_counter()
    for i in range(count):
        random_deal(rng, i % rules.SEATS)
    return {"toy_deals_per_s": round(count / (time.perf_counter() - start))}
