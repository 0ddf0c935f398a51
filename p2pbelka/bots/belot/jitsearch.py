"""The compiled kernel of :mod:`.fastsolver` (numba; importing this needs it).

:func:`search` is the alpha-beta of :mod:`.solver` (its ``lead``, ``last_trick`` and
``follow`` in one function) on an explicit stack, as numba neither caches nor speeds
up recursion, for a position in which no seat can declare any more: the deal's
combinations are fixed, so what each seat scores for them depends only on who took
a trick (``scored``, one row per such set, worked out by the caller), and the value
only on the hands, the leader, each seat's card points and who took a trick -- the
table's key.  Values are the bot's utility times ``players - 1``: whole numbers.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from p2pbelka.bots.common.jitkit import (
    bit_index,
    first_power,
    hint_first,
    jit,
    narrow,
    popcount,
    probe,
    row_bounds,
    settle,
    slot,
    sort_moves,
    store,
)
from p2pbelka.bots.common.jitkit import words as words  # for the callers
from p2pbelka.bots.common.jitkit import zero_words as zero_words
from p2pbelka.rules.belot import core

INF: Final = 1 << 20
VMAX: Final = 30000
"""Beyond any value (scaled): the bounds a table row can hold."""
_LOSER: Final = 1000
_ENTER: Final = 0
_RETURN: Final = 1


# Read by the compiled code as constants (numba freezes global arrays).
_POWER: Any = np.array(core.POWER, dtype=np.int64)
_POINTS: Any = np.array(core.POINTS, dtype=np.int64)
_ABOVE: Any = np.array(core.ABOVE_TRUMP, dtype=np.int64)


def _strength(trump: int, card: int) -> int:
    return (core.TRUMP_ORDER if card >> 3 == trump else core.PLAIN_ORDER)[card & 7]


_ORDER: Any = np.array(
    [[sorted(range(s * 8, s * 8 + 8), key=lambda c: -_strength(t, c)) for s in range(4)]
     for t in range(4)],
    dtype=np.int64,
)  # fmt: skip
"""``[trump][suit]``: the suit's cards, strongest first."""


@jit
def _distinct(legal: int, blockers: int, trump: int, mv: Any, d: int, n: int) -> int:
    """Append to ``mv[d]`` from ``n`` the cards of ``legal`` less those that play like a
    stronger neighbour kept (same suit and points, nothing of ``blockers`` between), suit
    by suit (clubs first), strongest first; the new count."""
    for suit in range(4):
        if legal >> (8 * suit) & 255 == 0:
            continue
        run = -1
        for k in range(8):
            c = _ORDER[trump, suit, k]
            if legal >> c & 1:
                if _POINTS[trump, c] != run:
                    mv[d, n] = c
                    n += 1
                    run = _POINTS[trump, c]
            elif blockers >> c & 1:
                run = -1
    return n


@jit
def leaf(pts: Any, took: int, last: int, ctx: Any, scored: Any, tot: Any, written: Any) -> int:
    """:func:`search.deal_value` of the deal's end, times ``players - 1``.

    ``ctx``: players, me, declarer, hanging, the three seats' written scores, the
    three seats' declared values (for a claim), the win's value (scaled).  ``tot`` and
    ``written``: scratch rows of three words (no allocation at every leaf)."""
    n = ctx[0]
    me = ctx[1]
    declarer = ctx[2]
    hanging = ctx[3]
    for s in range(n):
        tot[s] = pts[s] + scored[took, s] + (core.LAST_TRICK if s == last else 0)
    mine = tot[declarer]
    other = -1
    for s in range(n):
        if s != declarer and tot[s] > other:
            other = tot[s]
    for s in range(n):
        written[s] = tot[s]
    if mine <= other:
        written[declarer] = 0  # bait, or hanging
    if mine != other and hanging:
        top = 0
        for s in range(1, n):
            if tot[s] > tot[top]:
                top = s
        ties = 0
        for s in range(n):
            if tot[s] == tot[top]:
                ties += 1
        if ties == 1:
            written[top] += hanging
    value = 0
    for s in range(n):
        value += written[s] * (n - 1) if s == me else -written[s]
    winner = -1
    for s in range(n):
        if ctx[4 + s] + written[s] >= core.TARGET:
            if s == last:
                winner = s
                break
            if winner < 0 or ctx[4 + s] + written[s] > ctx[4 + winner] + written[winner]:
                winner = s
    if winner >= 0:
        value += ctx[10] if winner == me else -ctx[10]
    return value


@jit
def _claims(pts: Any, took: int, seat: int, ctx: Any, scored: Any) -> bool:
    """Whether ``seat`` claims 1001 at its lead (what it holds now is enough)."""
    base = ctx[4 + seat] + pts[seat]
    return bool(base + ctx[7 + seat] >= core.TARGET and base + scored[took, seat] >= core.TARGET)


@jit
def _reach(hand: int, trump: int, su: int) -> int:
    """The highest power ``hand`` can play to a trick led in ``su`` (-1: none wins)."""
    p = first_power(hand, _ORDER[trump, su], _POWER[trump, su])
    if p < 0 and su != trump:
        p = first_power(hand, _ORDER[trump, trump], _POWER[trump, su])
    return p


@jit
def search(
    h: Any,
    pts: Any,
    k0: int,
    leader0: int,
    suit0: int,
    win0: int,
    top0: int,
    on0: int,
    left0: int,
    tricks0: int,
    took0: int,
    trump: int,
    ctx: Any,
    scored: Any,
    tt: Any,
    stamp: int,
    alpha0: int,
    beta0: int,
    nodes: Any,
) -> int:
    """The value (scaled) of the position: the ``k0``-th card of a trick (0: its lead)
    led by ``leader0`` in ``suit0``, the card at offset ``win0`` (``top0``) winning it so
    far with ``on0`` points on it, ``left0`` the cards at its start, ``tricks0`` tricks
    done, ``took0`` the seats that took one.  ``h`` and ``pts`` (each seat's card points)
    are changed and restored.  The seat ``ctx[1]`` maximizes, the others minimize."""
    n = ctx[0]
    me = ctx[1]
    tot = np.empty(3, dtype=np.int64)
    wrt = np.empty(3, dtype=np.int64)
    size = 32
    mv = np.empty((size, 12), dtype=np.int64)
    keys = np.empty((size, 12), dtype=np.int64)
    kk = np.empty(size, dtype=np.int64)  # the node's card of its trick (0: the lead)
    ldr = np.empty(size, dtype=np.int64)
    sut = np.empty(size, dtype=np.int64)
    win = np.empty(size, dtype=np.int64)  # offset of the card winning so far
    top = np.empty(size, dtype=np.int64)  # that card
    on = np.empty(size, dtype=np.int64)  # points on the trick
    lft = np.empty(size, dtype=np.int64)  # the cards at the trick's start
    trk = np.empty(size, dtype=np.int64)
    tkn = np.empty(size, dtype=np.int64)
    alpha = np.empty(size, dtype=np.int64)
    beta = np.empty(size, dtype=np.int64)
    best = np.empty(size, dtype=np.int64)
    seat = np.empty(size, dtype=np.int64)
    hand = np.empty(size, dtype=np.int64)
    cnt = np.empty(size, dtype=np.int64)
    nxt = np.empty(size, dtype=np.int64)
    gseat = np.empty(size, dtype=np.int64)  # a trick's winner by the move played (undo)
    ggain = np.empty(size, dtype=np.int64)  # and the points it took
    # Leads only: the window on entry, the table's bounds, slot and key, the best card.
    a0 = np.empty(size, dtype=np.int64)
    b0 = np.empty(size, dtype=np.int64)
    tlo = np.empty(size, dtype=np.int64)
    thi = np.empty(size, dtype=np.int64)
    tslot = np.empty(size, dtype=np.int64)
    tbase = np.empty(size, dtype=np.int64)
    tka = np.empty(size, dtype=np.int64)
    tkb = np.empty(size, dtype=np.int64)
    hint = np.empty(size, dtype=np.int64)
    bmv = np.empty(size, dtype=np.int64)
    # A row of ``tt`` (:mod:`p2pbelka.bots.common.jitkit`): valid for the solves of
    # its stamp only (the context: who maximizes, what was declared, the scores).
    tmask = tt.shape[0] - 1

    d = 0
    kk[0] = k0
    ldr[0] = leader0
    sut[0] = suit0
    win[0] = win0
    top[0] = top0
    on[0] = on0
    lft[0] = left0
    trk[0] = tricks0
    tkn[0] = took0
    alpha[0] = alpha0
    beta[0] = beta0
    mode = _ENTER
    ret = 0
    while True:
        if mode == _ENTER:
            nodes[0] += 1
            done = False
            if kk[d] == 0:
                ld = ldr[d]
                tricks = trk[d]
                took = tkn[d]
                if tricks == 9:
                    ret = leaf(pts, took, ld, ctx, scored, tot, wrt)
                    done = True
                elif tricks > 0 and _claims(pts, took, ld, ctx, scored):
                    ret = ctx[10] if ld == me else -ctx[10]
                    done = True
                elif tricks == 8:
                    # The last trick: one card a hand, all forced.
                    c = bit_index(h[ld])
                    s0 = c >> 3
                    bp = _POWER[trump, s0, c]
                    winner = ld
                    gain = _POINTS[trump, c]
                    for i in range(1, n):
                        s = (ld + i) % n
                        c = bit_index(h[s])
                        gain += _POINTS[trump, c]
                        if _POWER[trump, s0, c] > bp:
                            bp = _POWER[trump, s0, c]
                            winner = s
                    pts[winner] += gain
                    ret = leaf(pts, took | 1 << winner, winner, ctx, scored, tot, wrt)
                    pts[winner] -= gain
                    done = True
                else:
                    left = h[0] | h[1] | h[2]
                    lft[d] = left
                    ka = h[0] | h[1] << 32
                    kb = h[2] | ld << 32 | took << 34 | pts[0] << 37 | pts[1] << 45 | pts[2] << 53
                    tka[d] = ka
                    tkb[d] = kb
                    base = slot(ka, kb, tmask)
                    tbase[d] = base
                    found = probe(tt, base, ka, kb, 0, stamp)
                    tslot[d] = found
                    if found >= 0:
                        lo, hi, hint[d] = row_bounds(tt, found)
                    else:
                        lo = -VMAX
                        hi = VMAX
                        hint[d] = -1
                    done, ret, al, be = narrow(lo, hi, alpha[d], beta[d])
                    if not done:
                        alpha[d] = al
                        beta[d] = be
                        a0[d] = al
                        b0[d] = be
                        tlo[d] = lo
                        thi[d] = hi
                        hd = h[ld]
                        k = _distinct(hd, left & ~hd, trump, mv, d, 0)
                        for j in range(k):
                            c = mv[d, j]
                            keys[d, j] = -_POWER[trump, c >> 3, c]
                        sort_moves(mv, keys, d, k)
                        hint_first(mv, d, k, hint[d])
                        cnt[d] = k
                        seat[d] = ld
                        hand[d] = hd
            else:
                s = (ldr[d] + kk[d]) % n
                hd = h[s]
                su = sut[d]
                legal = hd & (255 << (8 * su))
                blockers = lft[d] & ~hd
                if legal == 0:
                    k = _distinct(hd, blockers, trump, mv, d, 0)
                else:
                    if su == trump:
                        over = legal & _ABOVE[top[d]]
                        if over:
                            legal = over
                    if legal & (legal - 1) == 0:
                        mv[d, 0] = bit_index(legal)
                        k = 1
                    else:
                        k = _distinct(legal, blockers, trump, mv, d, 0)
                if k > 1:
                    bp = _POWER[trump, su, top[d]]
                    # Sure of the trick only above what the next hand can play, when
                    # that hand is on the other side (three players, second card).
                    bar = bp
                    if kk[d] < n - 1 and ((s + 1) % n == me) != (s == me):
                        bar = max(bp, _reach(h[(s + 1) % n], trump, su))
                    if (((ldr[d] + win[d]) % n) == me) == (s == me) and bar == bp:
                        for j in range(k):
                            keys[d, j] = -_POINTS[trump, mv[d, j]]
                    else:
                        for j in range(k):
                            c = mv[d, j]
                            p = _POWER[trump, su, c]
                            keys[d, j] = p if p > bar else _LOSER + _POINTS[trump, c]
                    sort_moves(mv, keys, d, k)
                cnt[d] = k
                seat[d] = s
                hand[d] = hd
            if done:
                if d == 0:
                    return ret
                d -= 1
                mode = _RETURN
                continue
            best[d] = -INF if seat[d] == me else INF
            bmv[d] = -1
            nxt[d] = 0
        elif mode == _RETURN:
            # Back from a child of row d: undo a trick it completed, take its value.
            if kk[d] == n - 1:
                pts[gseat[d]] -= ggain[d]
            v = ret
            if seat[d] == me:
                if v > best[d]:
                    best[d] = v
                    bmv[d] = mv[d, nxt[d]]
                    if v > alpha[d]:
                        alpha[d] = v
            elif v < best[d]:
                best[d] = v
                bmv[d] = mv[d, nxt[d]]
                if v < beta[d]:
                    beta[d] = v
            nxt[d] += 1
        if nxt[d] >= cnt[d] or alpha[d] >= beta[d]:
            h[seat[d]] = hand[d]
            ret = best[d]
            if kk[d] == 0:
                lo, hi = settle(ret, a0[d], b0[d], tlo[d], thi[d])
                meta = stamp << 8 | popcount(hand[d]) << 4
                store(tt, tslot[d], tbase[d], tka[d], tkb[d], meta, lo, hi, bmv[d])
            if d == 0:
                return int(ret)
            d -= 1
            mode = _RETURN
            continue
        # Play move nxt[d] and enter the child, row d + 1.
        c = mv[d, nxt[d]]
        s = seat[d]
        h[s] = hand[d] ^ (1 << c)
        e = d + 1
        k = kk[d]
        alpha[e] = alpha[d]
        beta[e] = beta[d]
        trk[e] = trk[d]
        tkn[e] = tkn[d]
        if k == 0:
            kk[e] = 1
            ldr[e] = s
            sut[e] = c >> 3
            win[e] = 0
            top[e] = c
            on[e] = _POINTS[trump, c]
            lft[e] = lft[d]
        else:
            wins = _POWER[trump, sut[d], c] > _POWER[trump, sut[d], top[d]]
            if k == n - 1:
                winner = (ldr[d] + (k if wins else win[d])) % n
                gain = on[d] + _POINTS[trump, c]
                pts[winner] += gain
                gseat[d] = winner
                ggain[d] = gain
                kk[e] = 0
                ldr[e] = winner
                trk[e] = trk[d] + 1
                tkn[e] = tkn[d] | 1 << winner
            else:
                kk[e] = k + 1
                ldr[e] = ldr[d]
                sut[e] = sut[d]
                if wins:
                    win[e] = k
                    top[e] = c
                else:
                    win[e] = win[d]
                    top[e] = top[d]
                on[e] = on[d] + _POINTS[trump, c]
                lft[e] = lft[d]
        d = e
        mode = _ENTER
