"""Belka's figures of ``p2pbelka bench rules``:

- ``fast_core_deals_per_s``: random legal full deals through
  :func:`p2pbelka.rules.belka.core.play_random_deal` (legal-card masks, trick
  winners, card points) plus :func:`p2pbelka.rules.belka.scoring.deal_score`;
- ``clean_api_deals_per_s``: the same through the immutable ``DealState``
  (every play checked and a new state made);
- ``legal_mask_calls_per_s``: :func:`p2pbelka.rules.belka.core.legal_mask` alone.
"""

from __future__ import annotations

import random
import time

from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import DealState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_random_deal, random_hands
from p2pbelka.rules.belka.scoring import deal_score


def figures(rng: random.Random, quick: bool) -> dict[str, object]:
    pool = [random_hands(rng) for _ in range(500 if quick else 2000)]
    options = options_from("classic")
    fast_n = 2000 if quick else 100_000
    clean_n = 200 if quick else 5_000

    getrandbits = rng.getrandbits
    start = time.perf_counter()
    for i in range(fast_n):
        hands = list(pool[i % len(pool)])
        trump = i & 3
        points0, tricks0 = core.play_random_deal(hands, 1, trump, getrandbits)
        deal_score(options, (points0, 120 - points0), i & 1, (tricks0, 8 - tricks0), False)
    fast = fast_n / (time.perf_counter() - start)

    start = time.perf_counter()
    for i in range(clean_n):
        deal = DealState.start(options, 0, pool[i % len(pool)])
        deal = play_random_deal(deal, rng)
        deal_score(options, deal.card_points, deal.trump_team, deal.tricks_won, False)
    clean = clean_n / (time.perf_counter() - start)

    calls = 20_000 if quick else 1_000_000
    hands = [h for hs in pool for h in hs]
    start = time.perf_counter()
    legal = core.legal_mask
    for i in range(calls):
        legal(hands[i % len(hands)], i & 3, (i >> 2) & 3)
    legal_rate = calls / (time.perf_counter() - start)

    return {
        "fast_core_deals_per_s": round(fast),
        "clean_api_deals_per_s": round(clean),
        "legal_mask_calls_per_s": round(legal_rate),
        "fast_core_deals": fast_n,
        "clean_api_deals": clean_n,
    }
