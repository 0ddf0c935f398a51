"""The compiled Belot search gives the pure-Python search's values, and falls back to it.

Random endgames of 2 and 3 players (one to five cards a hand, mid-trick or at a lead,
scores near 1001, hanging points, seats still to declare; a third of them with every
seat past its lead) are solved by both; the values must be equal.  Positions where a
seat can still declare go to the pure-Python search; the tests check that most do not.
Without numba the equality tests skip; the fallback is tested in a real process with
``P2PBELKA_NO_JIT=1``.
"""

from __future__ import annotations

import json
import os

import pytest

from p2pbelka.bots.belot import fastsolver, solver
from p2pbelka.rules.belot import core
from tests.bots.jit_helpers import run_without_jit
from tests.bots.test_belot_solver import endgame, leads_sharing_a_table

needs_jit = pytest.mark.skipif("not fastsolver.available()", reason="numba is not installed")
"""A condition pytest reads as each test is set up, in this module's names: asking
imports numba and the kernels (a third of a CPU-second), which the collection of
every worker paid, most of them running none of these tests."""


def check_equal(seed: int, count: int, most_cards: int = 5) -> int:
    """Solve ``count`` endgames both ways; the number solved compiled."""
    compiled = 0
    for i in range(count):
        players = 2 + i % 2
        sim = endgame(seed * 100_000 + i, players, 1 + (i // 2) % most_cards)
        if i % 3 == 0:
            sim.led = (1 << players) - 1  # every seat past its lead: nothing left to declare
        me = i % players
        compiled += fastsolver.frozen(sim) and not sim.over
        expected = solver.solve(sim.copy(), me)
        assert fastsolver.solve(sim.copy(), me) == expected, (seed, i)
    return compiled


@needs_jit
def test_equal_on_random_endgames() -> None:
    assert check_equal(1, 400) > 300


@needs_jit
@pytest.mark.slow
def test_equal_on_thousands_of_endgames() -> None:
    assert check_equal(2, 5000, most_cards=6) > 3500


@needs_jit
def test_the_moves_of_a_world_sharing_a_table_get_their_own_values() -> None:
    for child, me, table in leads_sharing_a_table(30, 4):
        expected = solver.solve(child.copy(), me)
        assert fastsolver.solve(child.copy(), me, table) == expected


@needs_jit
def test_the_position_is_left_as_given() -> None:
    sim = endgame(7, 3, 4)
    sim.led = 7
    before = sim.copy()
    fastsolver.solve(sim, 1)
    assert sim.hands == before.hands and sim.points == before.points
    assert sim.trick == before.trick and sim.declared == before.declared


def test_a_seat_that_could_still_declare_keeps_the_position_out_of_the_compiled_search() -> None:
    sim = endgame(3, 3, 4)
    trump = sim.trump
    belle = 1 << (trump * 8 + core.KING) | 1 << (trump * 8 + core.QUEEN)
    unled = next(s for s in range(3) if s != sim.leader)
    sim.led = 7 & ~(1 << unled)
    # Hand it belle (taken from whoever holds the king and queen): it may declare it.
    for s in range(3):
        sim.hands[s] &= ~belle
    sim.hands[unled] |= belle
    assert not fastsolver.frozen(sim)
    sim.led = 7
    assert fastsolver.frozen(sim)


def test_fallback_without_numba_gives_the_same_values() -> None:
    # A real process with the compiled path switched off, as where numba is missing.
    code = (
        "from p2pbelka.bots.belot import fastsolver, solver\n"
        "from tests.bots.test_belot_solver import endgame, leads_sharing_a_table\n"
        "assert not fastsolver.available()\n"
        "for i in range(30):\n"
        "    sim = endgame(i, 2 + i % 2, 3)\n"
        "    sim.led = 7\n"
        "    assert fastsolver.solve(sim.copy(), 0) == solver.solve(sim.copy(), 0)\n"
        "print('fallback ok')\n"
    )
    assert "fallback ok" in run_without_jit(code)


def test_bench_solver_measures_belot_too(capsys: pytest.CaptureFixture[str]) -> None:
    from p2pbelka.cli.main import main

    assert main(["bench", "solver", "--game", "belot", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["jit"] is fastsolver.available()
    for players, k in ((2, 5), (2, 9), (3, 4), (3, 8)):
        assert figures[f"p{players}k{k}_worlds"] > 0
        assert figures[f"p{players}k{k}_fast_ms_median"] > 0
    assert figures["p3k4_python_worlds"] == 1


def test_both_games_run_compiled_wherever_numba_imports() -> None:
    # A kernel that fails to import falls back silently (as when numba is unusable):
    # here, with numba importable, that would be a bug of ours.
    from p2pbelka.bots.belka import fastsolver as belka_fast

    try:
        import numba  # noqa: F401
    except ImportError:
        pytest.skip("numba is not installed")
    if os.environ.get("P2PBELKA_NO_JIT"):
        pytest.skip("the compiled path is switched off")
    assert fastsolver.available() and belka_fast.available()
