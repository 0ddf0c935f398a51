"""The compiled kernels of :mod:`.fastsolver` (numba; importing this needs it).

:func:`bisect` finds a position's value by null-window searches of :func:`search`:
the alpha-beta of :mod:`.solver` (its ``lead`` and ``follow`` in one function) on an
explicit stack (a recursive version, its node in locals, measured no faster).  Beyond
:mod:`.solver`: the table's key keeps only the order of the cards left (:func:`key`,
by small tables), so that a row also bounds the positions that play alike and differ
only in the points of their cards, by those points (:func:`shift_bounds`: the Skat
solvers' quasi-symmetry); a table row is one cache line, the table's best move is tried first,
then the leads that cut before (a history table); a follower tries first the card
that takes the trick for sure (above what the next opponent can play), smearing
points only on a trick its partner surely holds; a trick start not in the table is
bounded by the trumps one team surely wins (:func:`_sure`), and the last two
tricks are played out line by line in the window (:func:`two`), never stored.

The table's rows hold the trump, the leader and the suits' cards left beside the key,
and bounds that depend on nothing else: a row stays valid for every later solve (the candidate
cards of one world meet the same endgames again), the solve that wrote it only
deciding which row a full probe run gives up.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from p2pbelka.bots.belka.knowledge import ORDER
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
from p2pbelka.rules.belka import core

_LOSER: Final = 1000
_STAMPS: Final = (1 << 24) - 1
"""A row's stamp, bits 8 to 31 of its meta word (the key's third word above them)."""
INF: Final = 1000
_ENTER: Final = 0
_RETURN: Final = 1


# Read by the compiled code as constants (numba freezes global arrays).
_ESUIT: Any = np.array(core.EFFECTIVE_SUIT, dtype=np.int64)
_EFF: Any = np.array(core.EFFECTIVE_SUIT_MASKS, dtype=np.int64)
_POWER: Any = np.array(core.POWER, dtype=np.int64)
_POINTS: Any = np.array(core.POINTS, dtype=np.int64)
_ORDER: Any = np.full((4, 4, 12), -1, dtype=np.int64)
for _t in range(4):
    for _s in range(4):
        _ORDER[_t, _s, : len(ORDER[_t][_s])] = ORDER[_t][_s]

_BYTE_POINTS: Any = np.array(
    [sum(core.RANK_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256)],
    dtype=np.int64,
)


@jit
def _mask_points(mask: int) -> int:
    return int(
        _BYTE_POINTS[mask & 255]
        + _BYTE_POINTS[mask >> 8 & 255]
        + _BYTE_POINTS[mask >> 16 & 255]
        + _BYTE_POINTS[mask >> 24 & 255]
    )


@jit
def _distinct(legal: int, blockers: int, trump: int, mv: Any, d: int) -> int:
    """Write the moves of ``legal`` (one of each equivalent run) to ``mv[d]``; their count."""
    n = 0
    for suit in range(4):
        rest = legal & _EFF[trump, suit]
        if rest == 0:
            continue
        if rest & (rest - 1) == 0:
            mv[d, n] = bit_index(rest)
            n += 1
            continue
        run = -1
        for k in range(12):
            c = _ORDER[trump, suit, k]
            if legal >> c & 1:
                if _POINTS[c] != run:
                    mv[d, n] = c
                    n += 1
                    run = _POINTS[c]
                rest ^= 1 << c
                if rest == 0:
                    break  # the suit's legal cards are all placed
            elif blockers >> c & 1:
                run = -1
    return n


_JACKS: Final = core.JACKS_MASK
_JACK_ORDER: Final = (4, 28, 20, 12)  # J♣ J♠ J♥ J♦, strongest first


def _packed(present: int, held: int, order: tuple[int, ...]) -> int:
    """The positions ``order`` (strongest first) of a group of alike cards: the bits of
    ``held`` among ``present`` moved to the group's strongest positions, in order."""
    out = 0
    top = 0
    for pos in order:
        if present >> pos & 1:
            if held >> pos & 1:
                out |= 1 << order[top]
            top += 1
    return out


_PLAIN: Final = (7, 3, 6, 5, 2, 1, 0)
"""A suit's bits less its jack's (bit 4), strongest first: A T K Q 9 8 7."""


def _byte(seven: int) -> int:
    """:func:`_seven_bits` undone (the jack's bit clear)."""
    return seven & 15 | (seven & 0x70) << 1


def _ranked_points(seven: int) -> list[int]:
    """The points of a suit's non-jack cards ``seven`` (as :func:`_seven_bits` gives them),
    strongest first."""
    byte = _byte(seven)
    return [core.RANK_POINTS[b] for b in _PLAIN if byte >> b & 1]


def _shift(now: int, then: int) -> int:
    """``below | above << 8``: how many points a suit's non-jack cards ``now`` are worth
    less, and more, than ``then`` (as many cards), card against card in rank order."""
    a, b = _ranked_points(now), _ranked_points(then)
    if len(a) != len(b):
        return 0  # never asked: equal keys hold as many cards a suit
    below = sum(max(y - x, 0) for x, y in zip(a, b, strict=True))
    above = sum(max(x - y, 0) for x, y in zip(a, b, strict=True))
    return below | above << 8


# ``[present << 7 | held]`` (seven bits each): a suit's non-jack cards ``held`` among
# those ``present`` moved to the suit's strongest places, as a byte; ``[present << 4 |
# held]``: the jacks as gathered by :func:`_jack_bits` (bit ``j`` the jack at card
# ``28 - 8j``), packed as card masks; ``[now << 7 | then]``: :func:`_shift`.
_SUIT_PACK: Any = np.array(
    [_packed(_byte(p), _byte(x), _PLAIN) for p in range(128) for x in range(128)],
    dtype=np.int64,
)
_JACK_PACK: Any = np.array(
    [
        _packed(
            sum(1 << (28 - 8 * j) for j in range(4) if p >> j & 1),
            sum(1 << (28 - 8 * j) for j in range(4) if x >> j & 1),
            _JACK_ORDER,
        )
        for p in range(16)
        for x in range(16)
    ],
    dtype=np.int64,
)
_SHIFT: Any = np.array([_shift(a, b) for a in range(128) for b in range(128)], dtype=np.int64)


@jit
def _jack_bits(m: int) -> int:
    """The jacks of ``m`` as four bits (bit ``j``: the jack at card ``28 - 8j``)."""
    return ((m >> 4 & 0x01010101) * 0x08040201) >> 24 & 15


@jit
def _seven_bits(byte: int) -> int:
    """A suit's byte less its jack's bit (bit 4), as seven bits."""
    return byte & 15 | byte >> 1 & 0x70


@jit
def key(h: Any) -> tuple[int, int, int]:
    """The four hands as the table's key, and what tells apart the positions sharing it.

    The key keeps only the order of the cards left: each suit's cards other than its
    jack relabelled as the highest of those places (A T K Q 9 8 7), the jacks as the
    highest jacks.  Positions with one key play alike, card for card (the same seats
    hold the same ranks among the cards left, so the same tricks fall the same way),
    and differ only in the points of the cards: the third word, seven bits a suit of
    the non-jack cards left, says by how much (:func:`shift_bounds`).  That is the Skat
    solvers' quasi-symmetry; the jacks (2 points each) and each suit's 9 8 7 (none)
    differ in nothing."""
    k0 = h[0]
    k1 = h[1]
    k2 = h[2]
    k3 = h[3]
    every = k0 | k1 | k2 | k3
    o0 = k0 & _JACKS
    o1 = k1 & _JACKS
    o2 = k2 & _JACKS
    o3 = k3 & _JACKS
    left = 0
    for suit in range(4):
        shift = suit * 8
        present = _seven_bits(every >> shift & 255)
        left |= present << 7 * suit
        row = present << 7
        o0 |= _SUIT_PACK[row | _seven_bits(k0 >> shift & 255)] << shift
        o1 |= _SUIT_PACK[row | _seven_bits(k1 >> shift & 255)] << shift
        o2 |= _SUIT_PACK[row | _seven_bits(k2 >> shift & 255)] << shift
        o3 |= _SUIT_PACK[row | _seven_bits(k3 >> shift & 255)] << shift
    present = _jack_bits(every)
    if present != 15:
        row = present << 4
        o0 = o0 & ~_JACKS | _JACK_PACK[row | _jack_bits(k0)]
        o1 = o1 & ~_JACKS | _JACK_PACK[row | _jack_bits(k1)]
        o2 = o2 & ~_JACKS | _JACK_PACK[row | _jack_bits(k2)]
        o3 = o3 & ~_JACKS | _JACK_PACK[row | _jack_bits(k3)]
    return o0 | o1 << 32, o2 | o3 << 32, left


@jit
def shift_bounds(lo: int, hi: int, left: int, then: int, top: int) -> tuple[int, int]:
    """Bounds ``lo``, ``hi`` stored for a position with the same key whose suits held
    ``then`` (as :func:`key`'s third word) made bounds for this one, holding ``left``:
    whatever both sides play, the same cards of one change hands as of the other, each
    worth at most the difference in points more or less (``top``: the points left)."""
    if left == then:
        return lo, hi
    below = 0
    above = 0
    for suit in range(4):
        sh = 7 * suit
        d = _SHIFT[(left >> sh & 127) << 7 | (then >> sh & 127)]
        below += d & 255
        above += d >> 8
    return max(lo - below, 0), min(hi + above, top)


@jit
def _cheapest(hand: int, trump: int) -> int:
    """The card of ``hand`` worth least that the hand may play on a trump lead (a trump
    if it holds one); -1 for an empty hand."""
    pool = hand & _EFF[trump, trump]
    if pool == 0:
        pool = hand
    best = -1
    while pool:
        b = pool & -pool
        pool ^= b
        c = bit_index(b)
        if best < 0 or _POINTS[c] < _POINTS[best]:
            best = c
    return best


@jit
def _lowest_trump(hand: int, trump: int) -> int:
    """The weakest trump of ``hand``, or -1."""
    for k in range(10, -1, -1):
        c = _ORDER[trump, trump, k]
        if c >= 0 and hand >> c & 1:
            return int(c)
    return -1


@jit
def _sure(h: Any, leader: int, trump: int) -> int:
    """Points one team surely takes: its trumps above every trump of the other team
    win their tricks, and when that team is on lead, the leader cashing its own such
    trumps now also takes the cheapest card each opponent may play on them (a trump
    while it holds one) and what the partner plays.  Positive for team 0, negative for
    team 1, 0 for neither."""
    t0 = h[0] | h[2]
    t1 = h[1] | h[3]
    first = -1
    got = 0
    masters = 0
    for k in range(11):
        c = _ORDER[trump, trump, k]
        if c < 0:
            break
        if t0 >> c & 1:
            if first == 1:
                break
            first = 0
        elif t1 >> c & 1:
            if first == 0:
                break
            first = 1
        else:
            continue
        got += _POINTS[c]
        masters |= 1 << c
    if first < 0:
        return 0
    if first == leader & 1 and h[leader] & masters:
        # The leader leads its masters, strongest first, while it keeps the lead: the
        # opponents follow with their cheapest trump (or card) as they may, the partner
        # with its lowest trump (it overtakes only when it holds no lower one: then the
        # lead passes and the cashing stops).  Masters not played stay the team's.
        own = h[leader] & masters
        o1 = h[(leader + 1) & 3]
        pa = h[leader ^ 2]
        o3 = h[(leader + 3) & 3]
        cash = 0
        for k in range(11):
            c = _ORDER[trump, trump, k]
            if c < 0:
                break
            if not own >> c & 1:
                continue
            own ^= 1 << c
            cash += _POINTS[c]
            f = _cheapest(o1, trump)
            if f >= 0:
                cash += _POINTS[f]
                o1 ^= 1 << f
            f = _cheapest(o3, trump)
            if f >= 0:
                cash += _POINTS[f]
                o3 ^= 1 << f
            f = _lowest_trump(pa, trump)
            if f < 0:
                f = _cheapest(pa, trump)
            if f >= 0:
                cash += _POINTS[f]
                pa ^= 1 << f
                if _POWER[trump, trump, f] > _POWER[trump, trump, c]:
                    break  # the partner took the lead
        rest = (own | pa) & masters
        while rest:
            b = rest & -rest
            rest ^= b
            cash += _POINTS[bit_index(b)]
        got = max(got, cash)
    return got if first == 0 else -got


@jit
def two_cards(m: int) -> bool:
    rest = m & (m - 1)
    return rest != 0 and rest & (rest - 1) == 0


@jit
def _last(h: Any, leader: int, trump: int) -> int:
    """Team 0's points of the last trick (one card a hand, all forced)."""
    c = bit_index(h[leader])
    led = _ESUIT[trump, c]
    top = _POWER[trump, led, c]
    winner = leader
    v = _POINTS[c]
    for off in range(1, 4):
        s = (leader + off) & 3
        c = bit_index(h[s])
        v += _POINTS[c]
        if _POWER[trump, led, c] > top:
            top = _POWER[trump, led, c]
            winner = s
    return 0 if winner & 1 else int(v)


@jit
def _top_power(hand: int, trump: int, led: int) -> int:
    """The highest power ``hand`` can play to a trick led in ``led``, -1 if none wins."""
    p = first_power(hand, _ORDER[trump, led], _POWER[trump, led])
    if p < 0 and led != trump:
        p = first_power(hand, _ORDER[trump, trump], _POWER[trump, led])
    return p


@jit
def _pair(m: int) -> tuple[int, int]:
    """The two cards of a two-card mask, lower first."""
    low = m & -m
    return bit_index(low), bit_index(m ^ low)


@jit
def _second_winner(o0: int, o1: int, o2: int, o3: int, w: int, trump: int) -> int:
    """The offset (0 to 3, counted as ``o0``..``o3`` are) of the last trick's winner when
    offset ``w`` leads it, one card a hand."""
    first = o0 if w == 0 else o1 if w == 1 else o2 if w == 2 else o3
    led = _ESUIT[trump, first]
    win = 0
    top = _POWER[trump, led, o0]
    p = _POWER[trump, led, o1]
    if p > top:
        win = 1
        top = p
    p = _POWER[trump, led, o2]
    if p > top:
        win = 2
        top = p
    if _POWER[trump, led, o3] > top:
        win = 3
    return win


@jit
def two(h: Any, leader: int, trump: int, alpha: int, beta: int) -> int:
    """Team 0's points of the last two tricks (two cards a hand): every line played
    out (at most 16) by alpha-beta in the window, cheaper than the search's nodes
    below a trick start.  Fail-soft: a value at or beyond the window is a bound.
    The cards are indices (each hand's two), the last trick's points what the
    first leaves.  (Not recursive for three tricks: numba's disk cache of a
    recursive function crashes the next process that loads it.)"""
    x0, y0 = _pair(h[leader])
    x1, y1 = _pair(h[(leader + 1) & 3])
    x2, y2 = _pair(h[(leader + 2) & 3])
    x3, y3 = _pair(h[(leader + 3) & 3])
    every = _POINTS[x0] + _POINTS[y0] + _POINTS[x1] + _POINTS[y1]
    every += _POINTS[x2] + _POINTS[y2] + _POINTS[x3] + _POINTS[y3]
    odd = leader & 1  # the leader's team; offsets 1 and 3 are the other one
    max0 = odd == 0
    best0 = -INF if max0 else INF
    a0 = alpha
    b0 = beta
    for j0 in range(2):
        if a0 >= b0:
            break
        c0 = x0 if j0 == 0 else y0
        o0 = y0 if j0 == 0 else x0
        led = _ESUIT[trump, c0]
        p0 = _POWER[trump, led, c0]
        f1 = (_ESUIT[trump, x1] == led) + 2 * (_ESUIT[trump, y1] == led)
        f2 = (_ESUIT[trump, x2] == led) + 2 * (_ESUIT[trump, y2] == led)
        f3 = (_ESUIT[trump, x3] == led) + 2 * (_ESUIT[trump, y3] == led)
        best1 = INF if max0 else -INF
        a1 = a0
        b1 = b0
        for j1 in range(2):
            if a1 >= b1:
                break
            if f1 and not f1 >> j1 & 1:
                continue  # must follow with the other card
            c1 = x1 if j1 == 0 else y1
            o1 = y1 if j1 == 0 else x1
            p1 = _POWER[trump, led, c1]
            best2 = -INF if max0 else INF
            a2 = a1
            b2 = b1
            for j2 in range(2):
                if a2 >= b2:
                    break
                if f2 and not f2 >> j2 & 1:
                    continue
                c2 = x2 if j2 == 0 else y2
                o2 = y2 if j2 == 0 else x2
                p2 = _POWER[trump, led, c2]
                win = 0
                top = p0
                if p1 > top:
                    win = 1
                    top = p1
                if p2 > top:
                    win = 2
                    top = p2
                pts = _POINTS[c0] + _POINTS[c1] + _POINTS[c2]
                best3 = INF if max0 else -INF
                for j3 in range(2):
                    if f3 and not f3 >> j3 & 1:
                        continue
                    c3 = x3 if j3 == 0 else y3
                    o3 = y3 if j3 == 0 else x3
                    w = 3 if _POWER[trump, led, c3] > top else win
                    got = pts + _POINTS[c3]
                    w2 = _second_winner(o0, o1, o2, o3, w, trump)
                    # Team 0's share: the leader's team takes offsets 0 and 2.
                    v = got if (w & 1) ^ odd == 0 else 0
                    if (w2 & 1) ^ odd == 0:
                        v += every - got
                    if max0:
                        if v < best3:
                            best3 = v
                            if v <= a2:
                                break
                    elif v > best3:
                        best3 = v
                        if v >= b2:
                            break
                if max0:
                    if best3 > best2:
                        best2 = best3
                        a2 = max(a2, best3)
                elif best3 < best2:
                    best2 = best3
                    b2 = min(b2, best3)
            if max0:
                if best2 < best1:
                    best1 = best2
                    b1 = min(b1, best2)
            elif best2 > best1:
                best1 = best2
                a1 = max(a1, best2)
        if max0:
            if best1 > best0:
                best0 = best1
                a0 = max(a0, best1)
        elif best1 < best0:
            best0 = best1
            b0 = min(b0, best1)
    return int(best0)


@jit
def search(
    h: Any,
    n0: int,
    leader0: int,
    led0: int,
    win0: int,
    pw0: int,
    pts0: int,
    left0: int,
    trump: int,
    tt: Any,
    stamp: int,
    alpha0: int,
    beta0: int,
    nodes: Any,
    hist: Any,
) -> int:
    """The alpha-beta of :mod:`.solver` (``lead`` and ``follow`` in one) on an explicit
    stack: one row per card played from the root (numba neither caches nor speeds up
    recursion).  The root is the ``n0``-th card of a trick (0: a trick start)."""
    size = 40
    mv = np.empty((size, 12), dtype=np.int64)
    keys = np.empty((size, 12), dtype=np.int64)
    nn = np.empty(size, dtype=np.int64)  # the node's card of its trick, 0 to 3
    ldr = np.empty(size, dtype=np.int64)  # the trick's leader
    led = np.empty(size, dtype=np.int64)
    win = np.empty(size, dtype=np.int64)  # offset of the card winning so far
    bpw = np.empty(size, dtype=np.int64)  # its power
    pts = np.empty(size, dtype=np.int64)  # points on the trick
    lft = np.empty(size, dtype=np.int64)  # the hands' cards at the trick's start
    alpha = np.empty(size, dtype=np.int64)
    beta = np.empty(size, dtype=np.int64)
    best = np.empty(size, dtype=np.int64)
    seat = np.empty(size, dtype=np.int64)
    hand = np.empty(size, dtype=np.int64)
    cnt = np.empty(size, dtype=np.int64)
    nxt = np.empty(size, dtype=np.int64)  # the next move's index
    gain = np.empty(size, dtype=np.int64)  # added to the child's value (a trick won)
    # Trick starts only: the window on entry, the table's bounds, slot and key.
    a0 = np.empty(size, dtype=np.int64)
    b0 = np.empty(size, dtype=np.int64)
    tlo = np.empty(size, dtype=np.int64)
    thi = np.empty(size, dtype=np.int64)
    tslot = np.empty(size, dtype=np.int64)
    tbase = np.empty(size, dtype=np.int64)
    tka = np.empty(size, dtype=np.int64)
    tkb = np.empty(size, dtype=np.int64)
    tkc = np.empty(size, dtype=np.int64)  # the key's third word, kept in the row's meta
    hint = np.empty(size, dtype=np.int64)  # the card the table says to try first
    bmv = np.empty(size, dtype=np.int64)  # the best card so far (kept in the table)
    # A row of ``tt`` (:mod:`p2pbelka.bots.common.jitkit`): its tag the leader and the
    # trump, valid for every solve.  ``hist``: per seat and card, how often leading it cut.
    tmask = tt.shape[0] - 1

    d = 0
    nn[0] = n0
    ldr[0] = leader0
    led[0] = led0
    win[0] = win0
    bpw[0] = pw0
    pts[0] = pts0
    lft[0] = left0
    alpha[0] = alpha0
    beta[0] = beta0
    mode = _ENTER
    ret = 0
    while True:
        if mode == _ENTER:
            nodes[0] += 1
            # A node's entry: its value at once, or its moves.
            done = False
            if nn[d] == 0:
                ld = ldr[d]
                hd = h[ld]
                if hd == 0:
                    ret = 0
                    done = True
                elif two_cards(hd):
                    ret = two(h, ld, trump, alpha[d], beta[d])
                    done = True
                elif hd & (hd - 1) == 0:
                    ret = _last(h, ld, trump)  # the last trick: forced
                    done = True
                else:
                    left = h[0] | h[1] | h[2] | h[3]
                    lft[d] = left
                    ka, kb, kc = key(h)
                    tkc[d] = kc
                    tka[d] = ka
                    tkb[d] = kb
                    tag = ld << 2 | trump
                    base = slot(ka, kb ^ tag * 0x165667B1, tmask)
                    tbase[d] = base
                    found = probe(tt, base, ka, kb, tag, -1)
                    tslot[d] = found
                    if found >= 0:
                        lo, hi, hint[d] = row_bounds(tt, found)
                        lo, hi = shift_bounds(lo, hi, kc, tt[found, 2] >> 32, _mask_points(left))
                    else:
                        hint[d] = -1
                        lo = 0
                        hi = _mask_points(left)
                        sure = _sure(h, ld, trump)
                        if sure > 0:
                            lo = sure
                        elif sure < 0:
                            hi += sure
                    done, ret, al, be = narrow(lo, hi, alpha[d], beta[d])
                    if not done:
                        alpha[d] = al
                        beta[d] = be
                        a0[d] = al
                        b0[d] = be
                        tlo[d] = lo
                        thi[d] = hi
                        k = _distinct(hd, left, trump, mv, d)
                        for j in range(k):
                            c = mv[d, j]
                            pw = _POWER[trump, _ESUIT[trump, c], c]
                            keys[d, j] = -(hist[ld * 32 + c] << 7) - pw
                        sort_moves(mv, keys, d, k)
                        hint_first(mv, d, k, hint[d])
                        cnt[d] = k
                        seat[d] = ld
                        hand[d] = hd
            else:
                s = (ldr[d] + nn[d]) & 3
                hd = h[s]
                in_suit = hd & _EFF[trump, led[d]]
                if in_suit == 0:
                    k = _distinct(hd, lft[d] & ~hd, trump, mv, d)
                elif in_suit & (in_suit - 1):
                    k = _distinct(in_suit, lft[d] & ~hd, trump, mv, d)
                else:
                    mv[d, 0] = bit_index(in_suit)
                    k = 1
                if k > 1:
                    # The power a card must beat to take the trick for sure: the
                    # winner's, or the most the next opponent to play can reach.
                    bar = bpw[d]
                    if nn[d] < 3:
                        o = (ldr[d] + 3) & 3 if nn[d] == 2 else (ldr[d] + 2) & 3
                        bar = max(bar, _top_power(h[o], trump, led[d]))
                    # The partner holds the trick for sure: most points first; else
                    # the cheapest card that takes it for sure, then the cheapest.
                    smear = (ldr[d] + win[d] - s) & 1 == 0 and bar == bpw[d]
                    for j in range(k):
                        c = mv[d, j]
                        if smear:
                            keys[d, j] = -_POINTS[c]
                        else:
                            p = _POWER[trump, led[d], c]
                            keys[d, j] = p if p > bar else _LOSER + _POINTS[c]
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
            best[d] = -INF if seat[d] & 1 == 0 else INF
            bmv[d] = -1
            nxt[d] = 0
        elif mode == _RETURN:
            # Back from a child of row d: take its value.
            v = ret + gain[d]
            if seat[d] & 1 == 0:
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
        # Exit the node when its moves are done or cut; else play its next move.
        if nxt[d] >= cnt[d] or alpha[d] >= beta[d]:
            if alpha[d] >= beta[d] and nn[d] == 0:
                hc = popcount(hand[d])
                hist[seat[d] * 32 + bmv[d]] += hc * hc
            h[seat[d]] = hand[d]
            ret = best[d]
            if nn[d] == 0:
                lo, hi = settle(ret, a0[d], b0[d], tlo[d], thi[d])
                meta = tkc[d] << 32 | (stamp & _STAMPS) << 8
                meta |= popcount(hand[d]) << 4 | ldr[d] << 2 | trump
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
        n = nn[d]
        if n == 0:
            ls = _ESUIT[trump, c]
            nn[e] = 1
            ldr[e] = s
            led[e] = ls
            win[e] = 0
            bpw[e] = _POWER[trump, ls, c]
            pts[e] = _POINTS[c]
            lft[e] = lft[d]
            gain[d] = 0
            alpha[e] = alpha[d]
            beta[e] = beta[d]
        else:
            p = _POWER[trump, led[d], c]
            if n == 3:
                winner = (ldr[d] + (3 if p > bpw[d] else win[d])) & 3
                g = 0 if winner & 1 else pts[d] + _POINTS[c]
                nn[e] = 0
                ldr[e] = winner
                gain[d] = g
                alpha[e] = alpha[d] - g
                beta[e] = beta[d] - g
            else:
                nn[e] = n + 1
                ldr[e] = ldr[d]
                led[e] = led[d]
                if p > bpw[d]:
                    win[e] = n
                    bpw[e] = p
                else:
                    win[e] = win[d]
                    bpw[e] = bpw[d]
                pts[e] = pts[d] + _POINTS[c]
                lft[e] = lft[d]
                gain[d] = 0
                alpha[e] = alpha[d]
                beta[e] = beta[d]
        d = e
        mode = _ENTER


@jit
def bisect(
    h: Any,
    n0: int,
    leader0: int,
    led0: int,
    win0: int,
    pw0: int,
    pts0: int,
    left0: int,
    trump: int,
    tt: Any,
    stamp: int,
    hi: int,
    guess: int,
    nodes: Any,
) -> int:
    """The value, between 0 and ``hi``, by null-window searches (is it at least ``b``?)
    that share the table.  Without a ``guess`` (negative), by bisection: the bounds a
    null-window search returns are often only a point past its window, so stepping to
    them (MTD(f)) took up to 40 searches a world.  With one (a sibling's value), the
    first search is there and the next ones gallop away from it (1, 2, 4... points)
    until one turns back, then bisect: two searches when the guess was right.  At a
    trick start the range starts narrowed by the trumps one team surely wins."""
    lo = 0
    if n0 == 0 and h[leader0] & (h[leader0] - 1):
        sure = _sure(h, leader0, trump)  # the sure trumps narrow the range
        if sure > 0:
            lo = sure
        else:
            hi += sure
    hist = np.zeros(128, dtype=np.int64)
    way = 2  # 1 rising, -1 falling, 0 not yet known, 2 bisecting
    if guess >= 0:
        b = min(max(guess, lo + 1), hi)
        way = 0
    else:
        b = (lo + hi + 1) // 2
    step = 1
    while lo < hi:
        g = search(
            h, n0, leader0, led0, win0, pw0, pts0, left0, trump, tt, stamp, b - 1, b, nodes, hist
        )
        went = 1 if g >= b else -1
        if went > 0:
            lo = max(lo, g)
        else:
            hi = min(hi, g)
        if way == 0:
            way = went
        elif way != 2 and way != went:
            way = 2
        if way == 1:
            b = min(lo + step, hi)
        elif way == -1:
            b = max(hi - step + 1, lo + 1)
        else:
            b = (lo + hi + 1) // 2
        step *= 2
    return lo
