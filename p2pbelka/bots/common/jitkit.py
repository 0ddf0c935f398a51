"""What the games' compiled searches share (numba; importing this needs it): the
``njit`` decorator they are compiled with, and small kernels on card masks and move
lists.  Nothing here knows a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])


def jit(f: F) -> F:
    """Compiled ahead of its first call's return, cached on disk, free of the GIL."""
    return cast(F, numba.njit(cache=True, nogil=True)(f))


_DEBRUIJN: Any = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)  # fmt: skip


@jit
def bit_index(bit: int) -> int:
    """The index of a mask's single (lowest) bit, by a de Bruijn sequence."""
    return int(_DEBRUIJN[((bit & -bit) * 0x077CB531 & 0xFFFFFFFF) >> 27])


@jit
def popcount(m: int) -> int:
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@jit
def sort_moves(mv: Any, keys: Any, d: int, n: int) -> None:
    """Stable insertion sort of ``mv[d, :n]`` by ``keys[d, :n]`` (ascending)."""
    for i in range(1, n):
        c = mv[d, i]
        k = keys[d, i]
        j = i - 1
        while j >= 0 and keys[d, j] > k:
            mv[d, j + 1] = mv[d, j]
            keys[d, j + 1] = keys[d, j]
            j -= 1
        mv[d, j + 1] = c
        keys[d, j + 1] = k


@jit
def hint_first(mv: Any, d: int, n: int, hint: int) -> None:
    """Move ``hint`` (the table's best move) to the front of ``mv[d, :n]`` if there."""
    for j in range(1, n):
        if mv[d, j] == hint:
            for m in range(j, 0, -1):
                mv[d, m] = mv[d, m - 1]
            mv[d, 0] = hint
            return


@jit
def slot(ka: int, kb: int, mask: int) -> int:
    """A table slot for a two-word key (a multiply-xorshift hash)."""
    x = ka * 0x1E3779B97F4A7C15 ^ kb * 0x632BE59BD9B4E019
    x ^= x >> 29
    x *= 0x5851F42D4C957F2D
    x ^= x >> 32
    return int(x & mask)


@jit
def first_power(hand: int, order: Any, power: Any) -> int:
    """``power`` of the first card of ``order`` (strongest first, a -1 ending it early)
    that ``hand`` holds, or -1: the most a hand can put on a trick from that suit."""
    for i in range(order.shape[0]):
        c = order[i]
        if c < 0:
            break
        if hand >> c & 1:
            return int(power[c])
    return -1


def words(values: Any) -> Any:
    """``values`` as an array of 64-bit words, as the kernels take them."""
    return np.array(values, dtype=np.int64)


def zero_words(shape: Any) -> Any:
    return np.zeros(shape, dtype=np.int64)


# -- the transposition table ----------------------------------------------------------
# A row: the key (two words); ``stamp << 8 | cards << 4 | tag`` (the solve that wrote
# it, the cards a hand left, four bits the key leaves out); the bounds and the best
# move packed as ``lo + OFF | (hi + OFF) << 16 | (move + 1) << 32``.

PROBES = 4
"""Rows tried from a position's slot (neighbours: one or two cache lines)."""
OFF = 1 << 15
"""Added to a bound to store it in 16 bits (bounds lie within ``±(OFF - 1)``)."""


@jit
def probe(tt: Any, base: int, ka: int, kb: int, tag: int, stamp: int) -> int:
    """The row holding the key and ``tag`` (and ``stamp`` unless it is negative), or -1."""
    mask = tt.shape[0] - 1
    for p in range(PROBES):
        i = (base + p) & mask
        m = tt[i, 2]
        if tt[i, 0] == ka and tt[i, 1] == kb and m & 15 == tag and (stamp < 0 or m >> 8 == stamp):
            return int(i)
    return -1


@jit
def row_bounds(tt: Any, i: int) -> tuple[int, int, int]:
    """A row's lower and upper bound and best move (-1: none)."""
    data = tt[i, 3]
    return (data & 0xFFFF) - OFF, (data >> 16 & 0xFFFF) - OFF, (data >> 32) - 1


@jit
def narrow(lo: int, hi: int, alpha: int, beta: int) -> tuple[bool, int, int, int]:
    """Bounds ``lo``, ``hi`` met with the window: (settled, the value if so, the window)."""
    if lo == hi or lo >= beta:
        return True, lo, alpha, beta
    if hi <= alpha:
        return True, hi, alpha, beta
    return False, 0, max(alpha, lo), min(beta, hi)


@jit
def settle(value: int, alpha: int, beta: int, lo: int, hi: int) -> tuple[int, int]:
    """The bounds known after a search in the window (``alpha``, ``beta``) returned ``value``."""
    if value <= alpha:
        return lo, min(hi, value)
    if value >= beta:
        return max(lo, value), hi
    return value, value


@jit
def store(
    tt: Any, i: int, base: int, ka: int, kb: int, meta: int, lo: int, hi: int, move: int
) -> None:
    """Write a row at ``i``, or if -1 at the probe run's row cheapest to lose: one of an
    older solve first, then the one with the fewest cards left."""
    if i < 0:
        mask = tt.shape[0] - 1
        stamp = meta >> 8
        i = base
        worst = 1 << 30
        for p in range(PROBES):
            j = (base + p) & mask
            m = tt[j, 2]
            cost = (m >> 4 & 15) + (16 if m >> 8 == stamp else 0)
            if cost < worst:
                worst = cost
                i = j
    tt[i, 0] = ka
    tt[i, 1] = kb
    tt[i, 2] = meta
    tt[i, 3] = (lo + OFF) | (hi + OFF) << 16 | (move + 1) << 32
