"""Belka's double-dummy search compiled by numba, with :mod:`.solver` as its fallback.

:func:`solve` gives the same value as :func:`p2pbelka.bots.belka.solver.solve`
(card points team 0 takes from a position on, best play by both teams) by the
same alpha-beta on bitmasks, equivalent-card pruning (neighbours in rank, worth
the same, nothing that can still fall between them) and move ordering, compiled
to machine code (:mod:`.jitsearch`): numba ships as wheels for the platforms
CPython runs on, so a player installs it with ``pip`` (the ``fast`` extra) and
no compiler.  The transposition table is a fixed array kept by the process; its
rows name the trump and stay valid across solves (the candidate cards of one
world share their endgames), so a new solve never clears it.

Without numba (or with ``P2PBELKA_NO_JIT=1`` in the environment) :func:`available`
is false and :func:`solve` calls the pure-Python solver: same values, slower.
The first solve in a process compiles (seconds; cached on disk after, then well
under a second).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from p2pbelka.bots.belka import solver as pysolver
from p2pbelka.bots.common.compiled import KeptTable, Kernels
from p2pbelka.rules.belka import core

_KERNELS = Kernels("p2pbelka.bots.belka.jitsearch")


def available() -> bool:
    """Whether :func:`solve` runs compiled (numba installed, importable, and not switched
    off); the first call imports numba."""
    return _KERNELS.get() is not None


TT_BITS: Final = 17
"""The table holds ``2**TT_BITS`` entries of 32 bytes (4 MiB): enough for a whole deal, and
small enough to stay in a large cache (2**19 rows, 16 MiB, took 10% more time at the same
nodes)."""

_TABLE: Final = KeptTable(TT_BITS)


def solve(
    hands: list[int], leader: int, trick: list[int], trump: int, guess: int | None = None
) -> int:
    """Card points team 0 takes from here on (the current trick's cards included).

    ``hands``: the four seats' masks, all known (not changed); ``trick``: the cards
    of the trick in progress, ``leader`` led it.  Not for threads sharing a process
    (one table): the bots solve from one thread at a time.

    A bisection by null-window searches (is the value at least ``b``?) that share the
    table, each far cheaper than one search with a wide window; ``guess``, a value the
    position is likely to have (a sibling position's), saves most of them when right.
    """
    jit = _KERNELS.get()
    if jit is None:
        return pysolver.solve(list(hands), leader, list(trick), trump, {})
    t = _TABLE.get()
    t.stamp += 1
    h = jit.words(hands)
    table: tuple[Any, ...] = (trump, t.tt, t.stamp)
    left = hands[0] | hands[1] | hands[2] | hands[3]
    if trick:
        led = core.EFFECTIVE_SUIT[trump][trick[0]]
        win_off = core.trick_winner(trick, trump)
        for c in trick:
            left |= 1 << c
        pts = sum(core.POINTS[c] for c in trick)
        root: tuple[int, ...] = (
            len(trick),
            leader,
            led,
            win_off,
            core.POWER[trump][led][trick[win_off]],
            pts,
            left,
        )
    else:
        root = (0, leader, 0, 0, 0, 0, 0)
    bisect: Callable[..., int] = jit.bisect
    top = core.mask_points(left)
    start = -1 if guess is None else min(max(guess, 0), top)
    return int(bisect(h, *root, *table, top, start, t.nodes))


def nodes_visited() -> int:
    """Nodes the compiled search has visited in this process (0 without it)."""
    return _TABLE.nodes()
