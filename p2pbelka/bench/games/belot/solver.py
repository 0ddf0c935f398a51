"""``p2pbelka bench solver --game belot``: Belot's exact search, compiled and pure Python.

Random worlds (``k`` cards a hand for two or three players, a random trump, leader,
declarer and seat to maximize, at a trick start, every seat past its lead so nothing
is left to declare: the positions the compiled search takes) are solved by
:mod:`p2pbelka.bots.belot.fastsolver` (numba) and, on the first few, by
:mod:`p2pbelka.bots.belot.solver` (pure Python), both checked equal.  Figures per
player count and ``k`` as for Belka (:mod:`p2pbelka.bench.games.belka.solver`).
"""

from __future__ import annotations

import random
from functools import partial

from p2pbelka.bench.deal_crypto import yardstick_us
from p2pbelka.bench.timing import SolverTimes, solver_start
from p2pbelka.bots.belot import fastsolver, solver
from p2pbelka.bots.belot.search import Sim, sim_start
from p2pbelka.rules.belot.options import belot_options

SIZES = ((2, 5), (2, 7), (2, 9), (3, 4), (3, 5), (3, 6), (3, 7), (3, 8))
"""(players, cards a hand) measured."""
_FAST_WORLDS = {5: 100, 7: 60, 9: 20, 4: 100, 6: 60, 8: 10}
_PY_WORLDS = {(2, 5): 20, (2, 7): 5, (3, 4): 20, (3, 5): 10, (3, 6): 4, (3, 7): 2}


def random_world(rng: random.Random, players: int, k: int) -> tuple[Sim, int]:
    """A deal of ``k`` cards a hand at a trick start, nothing left to declare; the seat
    that maximizes."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[k * s : k * s + k]) for s in range(players)]
    sim = sim_start(
        players,
        rng.randrange(4),
        deck[-1],
        rng.randrange(players),
        hands,
        rng.randrange(players),
        (0,) * players,
        0,
        tuple(belot_options().fours),
    )
    sim.tricks = 9 - k
    sim.led = (1 << players) - 1
    return sim, rng.randrange(players)


def run(quick: bool = False, seed: int = 20261207) -> dict[str, object]:
    rng = random.Random(seed)
    first = random_world(rng, 3, 2)
    figures = solver_start(fastsolver.available(), quick, lambda: fastsolver.solve(*first))
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for players, k in SIZES:
        times = SolverTimes(fastsolver.nodes_visited)
        n_slow = _PY_WORLDS.get((players, k), 0)
        if quick:
            n_slow = min(1, n_slow) if k <= 5 else 0  # seconds a world in Python beyond
        for i in range(3 if quick else _FAST_WORLDS[k]):
            sim, me = random_world(rng, players, k)
            times.world(
                partial(fastsolver.solve, sim.copy(), me),
                partial(solver.solve, sim.copy(), me) if i < n_slow else None,
            )
        figures.update(times.figures(f"p{players}k{k}", unit_ms))
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    return figures
