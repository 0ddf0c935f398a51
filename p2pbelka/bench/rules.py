"""``p2pbelka bench rules``: speed of the Belka rules engine on one core.

Figures:

- ``fast_core_deals_per_s``: random legal full deals through
  :func:`p2pbelka.rules.belka.core.play_random_deal` (legal-card masks, trick
  winners, card points) plus :func:`p2pbelka.rules.belka.scoring.deal_score`;
- ``clean_api_deals_per_s``: the same through the immutable ``DealState``
  (every play checked and a new state made);
- ``legal_mask_calls_per_s``: :func:`p2pbelka.rules.belka.core.legal_mask` alone;
- ``belot_fast_core_deals_per_s`` (3 players) and ``belot2_fast_core_deals_per_s``
  (2 players): random legal Belot deals through
  :func:`p2pbelka.rules.belot.core.play_random_deal`: bidding, the three more
  cards, declarations at every lead, nine tricks, combinations, totals and the
  result; void deals (all passed twice) count too, and ``belot_void_share``
  says how many were void;
- ``belot_clean_api_deals_per_s``: 3-player Belot deals through the immutable
  ``belot.DealState`` (every call, declaration and card checked);
- ``yardstick_scalar_mults_per_s``: ed25519 scalar multiplications timed in the
  same run, so figures from different machines can be compared.

The deals are shuffled before the clock starts: shuffling is the fair-deal
layer's job and is measured there.
"""

from __future__ import annotations

import random
import time

from p2pbelka.cards import CARDS
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import DealState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_random_deal, random_hands
from p2pbelka.rules.belka.scoring import deal_score
from p2pbelka.rules.belot import core as belot_core
from p2pbelka.rules.belot.deal import DealState as BelotDeal
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.belot.randomplay import choose, random_deck


def run(quick: bool = False) -> dict[str, object]:
    rng = random.Random(20261130)
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
        **_belot(rng, quick),
        "yardstick_scalar_mults_per_s": _yardstick(quick),
    }


def _yardstick(quick: bool) -> int:
    from p2pbelka.fairdeal import ED25519, card_point

    point = card_point(b"bench-rules", 0)
    scalar = ED25519.random_scalar()
    count = 200 if quick else 2000
    start = time.perf_counter()
    for _ in range(count):
        ED25519.mult(scalar, point)
    return round(count / (time.perf_counter() - start))


def _belot(rng: random.Random, quick: bool) -> dict[str, object]:
    decks = []
    for _ in range(500 if quick else 2000):
        deck = list(range(32))
        rng.shuffle(deck)
        decks.append(deck)
    fast_n = 2000 if quick else 100_000
    getrandbits = rng.getrandbits
    figures: dict[str, object] = {}
    for players, name in ((3, "belot"), (2, "belot2")):
        void = 0
        start = time.perf_counter()
        for i in range(fast_n):
            if (
                belot_core.play_random_deal(
                    decks[i % len(decks)], players, i % players, getrandbits
                )
                is None
            ):
                void += 1
        figures[f"{name}_fast_core_deals_per_s"] = round(fast_n / (time.perf_counter() - start))
        if players == 3:
            figures["belot_void_share"] = round(void / fast_n, 3)

    clean_n = 100 if quick else 3_000
    options = belot_options()
    deals = [random_deck(rng, 3, 0) for _ in range(min(clean_n, 500))]
    start = time.perf_counter()
    for i in range(clean_n):
        first, turned, extra = deals[i % len(deals)]
        deal = BelotDeal.start(options, 3, 0, first, CARDS[turned])
        while not deal.finished:
            if deal.phase == "extra":
                deal = deal.with_extra(extra)
            else:
                deal = deal.apply(choose(deal, rng))
        deal.totals()
    figures["belot_clean_api_deals_per_s"] = round(clean_n / (time.perf_counter() - start))
    figures["belot_fast_core_deals"] = fast_n
    figures["belot_clean_api_deals"] = clean_n
    return figures
