"""``p2pbelka bench solver``: Belka's double-dummy search, compiled and pure Python.

Random worlds (a deal of ``k`` cards a hand, a random trump and leader, at a trick
start) are solved by :mod:`p2pbelka.bots.belka.fastsolver` (numba) and by
:mod:`p2pbelka.bots.belka.solver` (pure Python) on the same worlds, both checked
equal.  Figures per ``k``: median, 90th and 99th percentile in milliseconds (the
compiled solver's median and 90th percentile also in process time), the
compiled search's nodes (median, 90th percentile), the ratio of the medians, and
the compiled median in yardsticks (one PyNaCl ed25519 scalar multiplication, timed
before and after).  The pure-Python solver is timed
on fewer worlds as ``k`` grows (seconds a world at eight cards: none there).
"""

from __future__ import annotations

import random
from functools import partial

from p2pbelka.bench.deal_crypto import yardstick_us
from p2pbelka.bench.timing import SolverTimes, solver_start
from p2pbelka.bots.belka import fastsolver, solver

SIZES = (5, 6, 7, 8)
_FAST_WORLDS = {5: 200, 6: 200, 7: 100, 8: 40}
_PY_WORLDS = {5: 40, 6: 10, 7: 3, 8: 0}


def random_world(rng: random.Random, k: int) -> tuple[list[int], int, int]:
    """Four hands of ``k`` cards each (masks), the leader and the trump."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[i * k : (i + 1) * k]) for i in range(4)]
    return hands, rng.randrange(4), rng.randrange(4)


def run(quick: bool = False, seed: int = 20261207) -> dict[str, object]:
    rng = random.Random(seed)
    world = random_world(rng, 2)
    figures = solver_start(
        fastsolver.available(), quick, lambda: fastsolver.solve(world[0], world[1], [], 0)
    )
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for k in SIZES:
        times = SolverTimes(fastsolver.nodes_visited)
        n_slow = min(1, _PY_WORLDS[k]) if quick else _PY_WORLDS[k]
        for i in range(5 if quick else _FAST_WORLDS[k]):
            hands, leader, trump = random_world(rng, k)
            times.world(
                partial(fastsolver.solve, hands, leader, [], trump),
                partial(solver.solve, list(hands), leader, [], trump, {}) if i < n_slow else None,
            )
        figures.update(times.figures(f"k{k}", unit_ms))
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    return figures
