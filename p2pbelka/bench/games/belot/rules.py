"""Belot's figures of ``p2pbelka bench rules``:

- ``belot_fast_core_deals_per_s`` (3 players) and ``belot2_fast_core_deals_per_s``
  (2 players): random legal Belot deals through
  :func:`p2pbelka.rules.belot.core.play_random_deal`: bidding, the three more
  cards, declarations at every lead, nine tricks, combinations, totals and the
  result; void deals (all passed twice) count too, and ``belot_void_share``
  says how many were void;
- ``belot_clean_api_deals_per_s``: 3-player Belot deals through the immutable
  ``belot.DealState`` (every call, declaration and card checked).
"""

from __future__ import annotations

import random
import time

from p2pbelka.cards import CARDS
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import DealState
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.belot.randomplay import choose, random_deck


def figures(rng: random.Random, quick: bool) -> dict[str, object]:
    decks = []
    for _ in range(500 if quick else 2000):
        deck = list(range(32))
        rng.shuffle(deck)
        decks.append(deck)
    fast_n = 2000 if quick else 100_000
    getrandbits = rng.getrandbits
    out: dict[str, object] = {}
    for players, name in ((3, "belot"), (2, "belot2")):
        void = 0
        start = time.perf_counter()
        for i in range(fast_n):
            if (
                core.play_random_deal(decks[i % len(decks)], players, i % players, getrandbits)
                is None
            ):
                void += 1
        out[f"{name}_fast_core_deals_per_s"] = round(fast_n / (time.perf_counter() - start))
        if players == 3:
            out["belot_void_share"] = round(void / fast_n, 3)

    clean_n = 100 if quick else 3_000
    options = belot_options()
    deals = [random_deck(rng, 3, 0) for _ in range(min(clean_n, 500))]
    start = time.perf_counter()
    for i in range(clean_n):
        first, turned, extra = deals[i % len(deals)]
        deal = DealState.start(options, 3, 0, first, CARDS[turned])
        while not deal.finished:
            if deal.phase == "extra":
                deal = deal.with_extra(extra)
            else:
                deal = deal.apply(choose(deal, rng))
        deal.totals()
    out["belot_clean_api_deals_per_s"] = round(clean_n / (time.perf_counter() - start))
    out["belot_fast_core_deals"] = fast_n
    out["belot_clean_api_deals"] = clean_n
    return out
