"""Exact Belot endgames on plain ints: the value :func:`search.solve` defines, found fast.

:func:`solve` returns, for a :class:`search.Sim` with every hand known, the
bot's :func:`search.utility` under exact play: the bot maximizes, every other
seat minimizes (a paranoid search), each leader declaring at its first lead by
the rules of thumb and claiming 1001 when true, as in :func:`search.solve`.
What makes it fast where the reference copies the whole deal at every node:

- the position lives in a few ints and one list of hands, changed in place
  and restored; the trick's winner so far, its points and its top card are
  carried down instead of being recomputed at every card;
- a transposition table at trick starts, keyed by the hands, the leader, the
  card points each seat has, who took a trick, who has led and what was
  declared -- everything the rest of the deal's value depends on (the utility
  is not additive in the card points, so they are part of the key, not an
  offset);
- cards of a seat that play alike (same suit and points, no card still to
  fall between them) are searched once -- only for a seat that has had its
  lead, as an unplayed card may still complete a combination to declare;
- move ordering: a leader's strongest cards first; a follower's cheapest
  winning card first when the other side holds the trick, its points first
  when its own side does;
- the last trick, one card a hand, is played out without a node per card.

The values equal :func:`search.solve`'s (the tests check it against a plain
minimax on random small endgames).
"""

from __future__ import annotations

from typing import Final

from p2pbelka.bots.belot.search import WIN, Sim, deal_value, declare_at_lead
from p2pbelka.rules.belot import core

INF: Final = 1e9
_LOSER: Final = 1000
"""Added to a losing card's points in the ordering key: every winning card sorts first."""

_ORDER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            sorted(
                range(s * 8, s * 8 + 8),
                key=lambda c: -(core.TRUMP_ORDER if c >> 3 == t else core.PLAIN_ORDER)[c & 7],
            )
        )
        for s in range(4)
    )
    for t in range(4)
)
"""``[trump][suit]``: the suit's cards, strongest first."""
_LEAD_KEY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(-core.POWER[t][c >> 3][c] for c in range(32)) for t in range(4)
)
_NEG_POINTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(-p for p in core.POINTS[t]) for t in range(4)
)
"""Sort keys of the move ordering, as tables (no per-move lambda call)."""
_MOVES: Final[tuple[tuple[dict[int, tuple[int, ...]], ...], ...]] = tuple(
    tuple({} for _ in range(4)) for _ in range(4)
)
"""``[trump][suit]``: memo of one suit's distinct moves by ``legal << 8 | blockers`` (that
suit's bytes): the search asks for the same few patterns again and again (at most 2**16)."""


def _suit_distinct(legal: int, blockers: int, trump: int, suit: int) -> tuple[int, ...]:
    """One suit's ``legal`` cards (its byte) less those that play exactly like a stronger
    neighbour kept (same points, nothing of ``blockers`` between), strongest first."""
    memo = _MOVES[trump][suit]
    key = legal << 8 | blockers
    moves = memo.get(key)
    if moves is None:
        pts = core.POINTS[trump]
        out: list[int] = []
        run = -1
        for c in _ORDER[trump][suit]:
            r = c & 7
            if legal >> r & 1:
                if pts[c] != run:
                    out.append(c)
                    run = pts[c]
            elif blockers >> r & 1:
                run = -1
        moves = memo[key] = tuple(out)
    return moves


def _distinct(legal: int, blockers: int, trump: int) -> tuple[int, ...]:
    """``legal`` less the cards that play exactly like a stronger neighbour kept."""
    moves: tuple[int, ...] = ()
    for suit in range(4):
        shift = 8 * suit
        byte = legal >> shift & 255
        if byte:
            moves += _suit_distinct(byte, blockers >> shift & 255, trump, suit)
    return moves


def distinct_moves(legal: int, trump: int, blockers: int) -> list[int]:
    """``legal`` less the cards that play exactly like a stronger neighbour kept: same
    suit, same points, nothing in ``blockers`` (cards still to fall) between them."""
    return list(_distinct(legal, blockers, trump))


def _bits(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


Table = dict[tuple[object, ...], tuple[float, float]]
"""A transposition table: bounds on the value by position (see :func:`solve`)."""


def solve(sim: Sim, me: int, tt: Table | None = None) -> float:
    """Seat ``me``'s utility of ``sim`` (any position, mid-trick too) under exact play.

    ``sim`` is used as scratch space: on return its hands and points are as given,
    its declarations may hold those made at leads inside the search.  ``tt`` may be
    shared by the solves of one world for one seat (the candidate moves of a decision,
    whose lines meet again): its keys hold everything else the value depends on.
    """
    n = sim.players
    trump = sim.trump
    pts = core.POINTS[trump]
    power = core.POWER[trump]
    suit_masks = (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
    above = core.ABOVE_TRUMP
    h = sim.hands
    points = sim.points
    declared = list(sim.declared)
    # Who declared which masks, in order, those made inside the search too (a one-item
    # box, changed in place): part of the table's key and of the combinations' memo.
    made: list[tuple[int, ...]] = [tuple(d[0] << 32 | d[4] for d in declared)]
    lead_moves: dict[int, list[int]] = {}
    scores = sim.scores
    declarer, hanging, fours = sim.declarer, sim.hanging, sim.fours
    lead_key = _LEAD_KEY[trump].__getitem__
    neg_points = _NEG_POINTS[trump].__getitem__
    if tt is None:
        tt = {}
    scored_memo: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    # Per seat, the value of every combination it declared: a claim needs at least this.
    claimable = [sum(d[2] for d in declared if d[0] == s) for s in range(n)]

    def scored(took: int) -> list[int]:
        key = (took, made[0])
        got = scored_memo.get(key)
        if got is None:
            got = scored_memo[key] = core.scored_combinations(
                [(s, k, v, key_) for s, k, v, key_, _m in declared], took, n
            )
        return got

    leaf_memo: dict[tuple[int, ...], float] = {}

    def leaf(took: int, last: int) -> float:
        sc = scored(took)
        totals = [points[s] + sc[s] for s in range(n)]
        totals[last] += core.LAST_TRICK
        key = (*totals, last)
        v = leaf_memo.get(key)
        if v is None:
            v = leaf_memo[key] = deal_value(totals, me, declarer, hanging, scores, last)
        return v

    def lead(leader: int, tricks: int, took: int, led: int, alpha: float, beta: float) -> float:
        added = 0
        if tricks < 9 and not led >> leader & 1:
            led |= 1 << leader
            new = declare_at_lead(h[leader], leader, trump, fours, declared)
            if new:
                declared.extend(new)
                added = len(new)
                claimable[leader] += sum(d[2] for d in new)
                made[0] += tuple(d[0] << 32 | d[4] for d in new)
        if tricks == 9:
            v = leaf(took, leader)
        elif (
            tricks
            and scores[leader] + points[leader] + claimable[leader] >= core.TARGET
            and scores[leader] + points[leader] + scored(took)[leader] >= core.TARGET
        ):
            v = WIN if leader == me else -WIN
        elif tricks == 8:
            v = last_trick(leader, took)
        else:
            v = lead_search(leader, tricks, took, led, alpha, beta)
        if added:
            claimable[leader] -= sum(d[2] for d in declared[-added:])
            del declared[-added:]
            made[0] = made[0][:-added]
        return v

    def last_trick(leader: int, took: int) -> float:
        c = h[leader].bit_length() - 1
        pw = power[c >> 3]
        best_pw = pw[c]
        winner = leader
        gain = pts[c]
        for i in range(1, n):
            seat = (leader + i) % n
            c = h[seat].bit_length() - 1
            gain += pts[c]
            if pw[c] > best_pw:
                best_pw = pw[c]
                winner = seat
        points[winner] += gain
        v = leaf(took | 1 << winner, winner)
        points[winner] -= gain
        return v

    def lead_search(
        leader: int, tricks: int, took: int, led: int, alpha: float, beta: float
    ) -> float:
        # Declarations made inside the search by their masks: a seat's first lead may come
        # with another hand on another path to the same cards.
        key = (*h, leader, *points, took, led, made[0])
        entry = tt.get(key)
        if entry is not None:
            lo, hi = entry
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = -INF, INF
        a0, b0 = alpha, beta
        hand = h[leader]
        left = 0
        for m in h:
            left |= m
        moves_key = hand << 32 | left
        moves = lead_moves.get(moves_key)
        if moves is None:
            moves = lead_moves[moves_key] = sorted(
                _distinct(hand, left & ~hand, trump), key=lead_key
            )
        maximize = leader == me
        best = -INF if maximize else INF
        for c in moves:
            h[leader] = hand ^ (1 << c)
            pw = power[c >> 3]
            v = follow(leader, 1, c >> 3, pw, 0, c, pts[c], left, tricks, took, led, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        h[leader] = hand
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo, hi)
        return best

    def follow(
        leader: int,
        k: int,
        suit: int,
        pw: tuple[int, ...],
        win_off: int,
        top: int,
        on: int,
        left: int,
        tricks: int,
        took: int,
        led: int,
        alpha: float,
        beta: float,
    ) -> float:
        """The ``k``-th card of a trick led in ``suit``: the card at ``win_off`` (``top``)
        wins so far, ``on`` points lie on the trick, ``left`` the cards at its start."""
        seat = (leader + k) % n
        hand = h[seat]
        legal = hand & suit_masks[suit]
        moves: tuple[int, ...]
        if not legal:
            legal = hand
            if led >> seat & 1:
                moves = _distinct(legal, left & ~hand, trump)
            else:
                moves = _bits(legal)
        else:
            if suit == trump:
                over = legal & above[top]
                if over:
                    legal = over
            if not legal & (legal - 1):
                moves = (legal.bit_length() - 1,)
            elif led >> seat & 1:
                shift = 8 * suit
                moves = _suit_distinct(legal >> shift, (left & ~hand) >> shift & 255, trump, suit)
            else:
                moves = _bits(legal)
        if len(moves) > 1:
            best_pw = pw[top]
            if ((leader + win_off) % n == me) == (seat == me):
                moves = tuple(sorted(moves, key=neg_points))
            else:
                moves = tuple(
                    sorted(moves, key=lambda c: pw[c] if pw[c] > best_pw else _LOSER + pts[c])
                )
        maximize = seat == me
        best = -INF if maximize else INF
        best_pw = pw[top]
        for c in moves:
            h[seat] = hand ^ (1 << c)
            wins = pw[c] > best_pw
            if k == n - 1:
                winner = (leader + (k if wins else win_off)) % n
                gain = on + pts[c]
                points[winner] += gain
                v = lead(winner, tricks + 1, took | 1 << winner, led, alpha, beta)
                points[winner] -= gain
            else:
                off, best_c = (k, c) if wins else (win_off, top)
                v = follow(
                    leader,
                    k + 1,
                    suit,
                    pw,
                    off,
                    best_c,
                    on + pts[c],
                    left,
                    tricks,
                    took,
                    led,
                    alpha,
                    beta,
                )
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        h[seat] = hand
        return best

    if sim.claimer >= 0:
        return WIN if sim.claimer == me else -WIN
    if not sim.trick:
        if sim.tricks == 9:
            return leaf(sim.took, sim.last)
        return lead(sim.leader, sim.tricks, sim.took, sim.led, -INF, INF)
    trick = sim.trick
    pw = power[trick[0] >> 3]
    win_off = core.trick_winner(trick, trump)
    left = sum(1 << c for c in trick)
    for m in h:
        left |= m
    on = sum(pts[c] for c in trick)
    return follow(
        sim.leader,
        len(trick),
        trick[0] >> 3,
        pw,
        win_off,
        trick[win_off],
        on,
        left,
        sim.tricks,
        sim.took,
        sim.led,
        -INF,
        INF,
    )
