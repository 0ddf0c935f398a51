"""Belot's exact endgame search compiled by numba, with :mod:`.solver` as its fallback.

:func:`solve` gives the value :func:`p2pbelka.bots.belot.solver.solve` gives (the bot's
utility under exact play, the others together against it) by the same alpha-beta,
compiled to machine code (:mod:`.jitsearch`) for every position in which no seat can
declare any more -- each seat still to lead holds no combination, so what was declared
is fixed and each seat's combination points depend only on who took a trick.  The
others (a seat still to lead that could declare) go to the pure-Python solver, as does
every position without numba (or with ``P2PBELKA_NO_JIT=1``: :func:`available` false).

The table is one array kept by the process (numba, like Belka's); a row belongs to a
*context* -- the solves of one world for one seat after the same declarations, which
share it as the pure-Python solver shares its dictionary -- and a new context never
clears it, its rows just stop matching.
"""

from __future__ import annotations

from typing import Final

from p2pbelka.bots.belot import solver as pysolver
from p2pbelka.bots.belot.search import WIN, Sim
from p2pbelka.bots.common.compiled import KeptTable, Kernels, Table
from p2pbelka.rules.belot import core

_KERNELS = Kernels("p2pbelka.bots.belot.jitsearch")


def available() -> bool:
    """Whether :func:`solve` runs compiled (numba installed, importable, and not switched
    off); the first call imports numba."""
    return _KERNELS.get() is not None


TT_BITS: Final = 16
"""The table holds ``2**TT_BITS`` rows of 32 bytes (2 MiB): it stays in a large cache;
2**18 rows (8 MiB) took 10-20% more time a world at the same nodes or fewer."""

_TABLE: Final = KeptTable(TT_BITS)
_CONTEXT: Final = "compiled"
"""The key under which a shared dictionary table keeps its context's stamp."""


def frozen(sim: Sim) -> bool:
    """Whether no seat can declare any more in ``sim``: each seat still to lead holds no
    combination (its later hands, parts of this one, hold none either)."""
    if sim.tricks >= 9:
        return True
    for s in range(sim.players):
        if not sim.led >> s & 1 and core.combinations_in(sim.hands[s], sim.trump, sim.fours):
            return False
    return True


def solve(sim: Sim, me: int, tt: pysolver.Table | None = None) -> float:
    """Seat ``me``'s utility of ``sim`` under exact play (see :func:`solver.solve`).

    ``sim`` is scratch space as there; ``tt`` may be shared by the solves of one world
    for one seat, as there (the compiled rows of such solves share a stamp kept in it).
    Not for threads sharing a process (one table): the bots solve from one at a time.
    """
    jit = _KERNELS.get()
    if jit is None or sim.claimer >= 0 or (not sim.trick and sim.tricks == 9):
        return pysolver.solve(sim, me, tt)
    if not frozen(sim):
        return pysolver.solve(sim, me, tt)
    t = _TABLE.get()
    n = sim.players
    declared = [(s, k, v, key) for s, k, v, key, _m in sim.declared]
    made = tuple(d[0] << 32 | d[4] for d in sim.declared)
    stamp = _stamp(t, tt, made)
    scored = jit.zero_words((1 << n, 3))
    for took in range(1 << n):
        scored[took, :n] = core.scored_combinations(declared, took, n)
    claimable = [sum(d[2] for d in sim.declared if d[0] == s) for s in range(3)]
    scores = [*sim.scores, 0, 0][:3]
    ctx = jit.words([n, me, sim.declarer, sim.hanging, *scores, *claimable, int(WIN) * (n - 1)])
    h = jit.words([*sim.hands, 0, 0][:3])
    pts = jit.words([*sim.points, 0, 0][:3])
    trump = sim.trump
    trick = sim.trick
    if trick:
        win_off = core.trick_winner(trick, trump)
        left = sum(1 << c for c in trick) | h[0] | h[1] | h[2]
        root = (
            len(trick),
            sim.leader,
            trick[0] >> 3,
            win_off,
            trick[win_off],
            sum(core.POINTS[trump][c] for c in trick),
            int(left),
        )
    else:
        root = (0, sim.leader, 0, 0, 0, 0, 0)
    big = jit.INF
    value = jit.search(
        h, pts, *root, sim.tricks, sim.took, trump, ctx, scored, t.tt, stamp, -big, big, t.nodes
    )
    return int(value) / (n - 1)


def _stamp(t: Table, tt: pysolver.Table | None, made: tuple[int, ...]) -> int:
    """The stamp of this solve's rows: a new one, or the one kept in a shared ``tt``
    for the same declarations."""
    if tt is not None:
        kept = tt.get((_CONTEXT, *made))
        if kept is not None:
            return int(kept[0])
    t.stamp += 1
    if tt is not None:
        tt[(_CONTEXT, *made)] = (float(t.stamp), 0.0)
    return t.stamp


def nodes_visited() -> int:
    """Nodes the compiled search has visited in this process (0 without it)."""
    return _TABLE.nodes()
