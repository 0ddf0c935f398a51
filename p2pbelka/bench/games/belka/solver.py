"""``p2pbelka bench solver``: Belka's double-dummy search, compiled and pure Python.

Random worlds (a deal of ``k`` cards a hand, a random trump and leader, at a trick
start) are solved by :mod:`p2pbelka.bots.belka.fastsolver` (numba) and by
:mod:`p2pbelka.bots.belka.solver` (pure Python) on the same worlds, both checked
equal.  Figures per ``k``: median and 99th percentile in milliseconds, the
ratio of the medians, and the compiled median in yardsticks (one PyNaCl ed25519
scalar multiplication, timed before and after).  The pure-Python solver is timed
on fewer worlds as ``k`` grows (seconds a world at eight cards: none there).
"""

from __future__ import annotations

import random
import statistics
import time

from p2pbelka.bench.timing import percentile
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
    from p2pbelka.bench.deal_crypto import yardstick_us

    figures: dict[str, object] = {
        "jit": fastsolver.AVAILABLE,
        "yardstick_us": round(yardstick_us(200 if quick else 2000), 1),
    }
    rng = random.Random(seed)
    start = time.perf_counter()
    fastsolver.solve(*random_world(rng, 2)[:2], [], 0)  # the compile (or the disk cache)
    figures["first_solve_s"] = round(time.perf_counter() - start, 2)
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for k in SIZES:
        fast: list[float] = []
        slow: list[float] = []
        paired: list[float] = []  # the fast solver's times on the worlds both solved
        n_fast = 5 if quick else _FAST_WORLDS[k]
        n_slow = min(1, _PY_WORLDS[k]) if quick else _PY_WORLDS[k]
        for i in range(n_fast):
            hands, leader, trump = random_world(rng, k)
            t0 = time.perf_counter()
            value = fastsolver.solve(hands, leader, [], trump)
            fast.append((time.perf_counter() - t0) * 1000)
            if i < n_slow:
                t0 = time.perf_counter()
                expected = solver.solve(list(hands), leader, [], trump, {})
                slow.append((time.perf_counter() - t0) * 1000)
                paired.append(fast[-1])
                if value != expected:
                    raise AssertionError(f"solvers differ on {hands} {leader} {trump}")
        fast.sort()
        slow.sort()
        figures[f"k{k}_worlds"] = n_fast
        figures[f"k{k}_fast_ms_median"] = percentile(fast, 0.5)
        figures[f"k{k}_fast_ms_p99"] = percentile(fast, 0.99)
        figures[f"k{k}_fast_median_yardsticks"] = round(statistics.median(fast) / unit_ms, 1)
        if slow:
            figures[f"k{k}_python_worlds"] = len(slow)
            figures[f"k{k}_python_ms_median"] = percentile(slow, 0.5)
            figures[f"k{k}_python_ms_p99"] = percentile(slow, 0.99)
            ratio = statistics.median(slow) / max(statistics.median(paired), 1e-6)
            figures[f"k{k}_python_over_fast"] = round(ratio)
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    return figures
