"""``p2pbelka bench rules``: speed of each game's rules engine on one core.

Each game measures its own engine (``bench/games/<game>/rules.py``: what its figures
mean), every game in the registry's order from one seeded random source, and
then:

- ``yardstick_scalar_mults_per_s``: ed25519 scalar multiplications timed in the
  same run, so figures from different machines can be compared.

The deals are shuffled before the clock starts: shuffling is the fair-deal
layer's job and is measured there.
"""

from __future__ import annotations

import random
import time

from p2pbelka.bench.registry import game_part
from p2pbelka.rules import registry


def run(quick: bool = False) -> dict[str, object]:
    rng = random.Random(20261130)
    figures: dict[str, object] = {}
    for game in registry.names():
        part = game_part("rules", game)
        if part is not None:
            figures.update(part.figures(rng, quick))
    figures["yardstick_scalar_mults_per_s"] = _yardstick(quick)
    return figures


def _yardstick(quick: bool) -> int:
    from p2pbelka.fairdeal import ED25519, card_point

    point = card_point(b"bench-rules", 0)
    scalar = ED25519.random_scalar()
    count = 200 if quick else 2000
    start = time.perf_counter()
    for _ in range(count):
        ED25519.mult(scalar, point)
    return round(count / (time.perf_counter() - start))
