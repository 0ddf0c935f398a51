"""Play out a deal with every hand known: exact (alpha-beta) or by the heuristic.

:func:`solve` is a double-dummy search on bitmasks: the card points team 0
takes from a position on, with best play by both teams.  A transposition table
keyed by the four hands and the leader holds bounds at trick starts (the rest
of a deal does not depend on how its first tricks went), and cards of one hand
that are neighbours in rank with the same points are searched once.  The
``no_unled_ace_discard`` option is ignored inside the search: it rarely bites
and the root's candidates are always legal.

:func:`playout` plays to the end with the heuristic policy for all four seats,
each seeing only what it could see: the cheap estimate early in a deal, where
exact search is too slow in Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from p2pbelka.bots.belka.knowledge import ORDER, Seen
from p2pbelka.bots.belka.policy import choose
from p2pbelka.rules.belka import core

POINTS: Final = core.POINTS
INF: Final = 1000

TT = dict[tuple[int, int, int, int, int], tuple[int, int]]


_SUIT_MOVES: Final[tuple[tuple[dict[int, tuple[int, ...]], ...], ...]] = tuple(
    tuple({} for _ in range(4)) for _ in range(4)
)
"""``[trump][suit]``: memo of :func:`_suit_moves` by ``legal << 32 | blockers`` (one suit's
cards each): the search asks for the same few patterns millions of times."""
_MEMO_MAX: Final = 1 << 16
"""Patterns kept per suit before a memo starts over (bounds memory; rarely reached)."""


def _suit_moves(legal: int, blockers: int, order: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`distinct_moves` within one suit, ``order`` its cards strongest first."""
    moves: list[int] = []
    run = -1
    for c in order:
        if legal >> c & 1:
            if POINTS[c] != run:
                moves.append(c)
                run = POINTS[c]
        elif blockers >> c & 1:
            run = -1
    return tuple(moves)


def suit_moves(legal: int, blockers: int, trump: int, suit: int) -> tuple[int, ...]:
    """:func:`distinct_moves` for ``legal`` cards all of effective ``suit`` (memoized)."""
    if not legal & (legal - 1):
        return (legal.bit_length() - 1,) if legal else ()
    suit_mask = core.EFFECTIVE_SUIT_MASKS[trump][suit]
    key = legal << 32 | blockers & suit_mask
    memo = _SUIT_MOVES[trump][suit]
    moves = memo.get(key)
    if moves is None:
        if len(memo) >= _MEMO_MAX:
            memo.clear()
        moves = memo[key] = _suit_moves(legal, blockers, ORDER[trump][suit])
    return moves


def distinct_moves(legal: int, blockers: int, trump: int) -> list[int]:
    """``legal`` less the cards that play exactly like a neighbour kept.

    Two cards are alike when nothing in ``blockers`` (cards that can still fall
    on the same trick) lies between them in rank and they are worth the same.
    Suit by suit (clubs first), strongest first within a suit.
    """
    moves: list[int] = []
    memos = _SUIT_MOVES[trump]
    for suit, suit_mask in enumerate(core.EFFECTIVE_SUIT_MASKS[trump]):
        in_suit = legal & suit_mask
        if not in_suit:
            continue
        # suit_moves inlined (a lone card; the memo), as the search calls this so often.
        if not in_suit & (in_suit - 1):
            moves.append(in_suit.bit_length() - 1)
            continue
        cached = memos[suit].get(in_suit << 32 | blockers & suit_mask)
        moves += cached if cached is not None else suit_moves(in_suit, blockers, trump, suit)
    return moves


# Sort keys of the search's move ordering, as tables (no per-move lambda call): leading,
# strongest card first; smearing on the partner's trick, most points first.
_LEAD_KEY: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(-core.POWER[t][core.EFFECTIVE_SUIT[t][c]][c] for c in range(32)) for t in range(4)
)
_NEG_POINTS: Final[tuple[int, ...]] = tuple(-p for p in POINTS)
_LOSER: Final = 1000
"""Added to a losing card's points in the ordering key: every winning card sorts first."""


def solve(hands: list[int], leader: int, trick: list[int], trump: int, tt: TT) -> int:
    """Card points team 0 takes from here on (the current trick's cards included).

    ``hands`` (masks, all four known) is used as scratch space and restored.
    """
    esuit = core.EFFECTIVE_SUIT[trump]
    eff = core.EFFECTIVE_SUIT_MASKS[trump]
    power = core.POWER[trump]
    mask_points = core.mask_points
    lead_key = _LEAD_KEY[trump].__getitem__
    neg_points = _NEG_POINTS.__getitem__
    points = POINTS
    suit_memo = _SUIT_MOVES[trump]
    h = hands

    # The search visits the same nodes in the same order as a plain alpha-beta over
    # (leader, cards of the trick): the trick's winner so far, its points and the cards
    # left at its start are carried down instead of being recomputed at every node.

    def lead(leader: int, alpha: int, beta: int) -> int:
        """A trick start: the transposition table's node."""
        hand = h[leader]
        if not hand:
            return 0
        h0, h1, h2, h3 = h
        key = (h0, h1, h2, h3, leader)
        entry = tt.get(key)
        left = h0 | h1 | h2 | h3
        if entry is None:
            lo, hi = 0, mask_points(left)
        else:
            lo, hi = entry
            if lo == hi:
                return lo
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        a0, b0 = alpha, beta
        if not hand & (hand - 1):
            # The last trick: one card a hand, nothing to choose, so no recursion (the
            # value and what the table stores are those of the forced line).
            c = hand.bit_length() - 1
            pw = power[esuit[c]]
            best_pw = pw[c]
            winner = leader
            best = points[c]
            for seat in ((leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3):
                c = h[seat].bit_length() - 1
                best += points[c]
                if pw[c] > best_pw:
                    best_pw = pw[c]
                    winner = seat
            if winner & 1:
                best = 0
        else:
            # The leader's choice of card.
            moves = distinct_moves(hand, left, trump)
            moves.sort(key=lead_key)
            maximize = not leader & 1
            best = -INF if maximize else INF
            alpha1, beta1 = alpha, beta
            for c in moves:
                h[leader] = hand ^ (1 << c)
                led = esuit[c]
                pw = power[led]
                v = follow(leader, 1, led, pw, alpha1, beta1, 0, pw[c], points[c], left)
                if maximize:
                    if v > best:
                        best = v
                        if v > alpha1:
                            alpha1 = v
                elif v < best:
                    best = v
                    if v < beta1:
                        beta1 = v
                if alpha1 >= beta1:
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
        n: int,
        led: int,
        pw: tuple[int, ...],
        alpha: int,
        beta: int,
        win_off: int,
        best_pw: int,
        pts: int,
        left: int,
    ) -> int:
        """The ``n``-th card (1 to 3) of a trick led in suit ``led`` (``pw``: its powers):
        the card at ``win_off`` wins so far with ``best_pw``, ``pts`` points are on the
        trick, ``left`` the hands' cards at the trick's start."""
        seat = (leader + n) & 3
        hand = h[seat]
        in_suit = hand & eff[led]
        # Everything still to fall on this trick, or already on it: ``left`` less this hand.
        if not in_suit:
            moves: Sequence[int] = distinct_moves(hand, left & ~hand, trump)
        elif in_suit & (in_suit - 1):
            # suit_moves, its memo read here: this is the search's most frequent call.
            moves_key = in_suit << 32 | left & ~hand & eff[led]
            memo = suit_memo[led]
            cached = memo.get(moves_key)
            moves = cached if cached is not None else suit_moves(in_suit, left & ~hand, trump, led)
        else:
            moves = (in_suit.bit_length() - 1,)
        if len(moves) == 2:
            # The usual case, ordered as the sort below would (a swap only on a strict
            # inequality, as the sort is stable) without its call and key function.
            a, b = moves
            if (leader + win_off - seat) & 1 == 0:
                if points[b] > points[a]:
                    moves = (b, a)
            else:
                ka = pw[a] if pw[a] > best_pw else _LOSER + points[a]
                kb = pw[b] if pw[b] > best_pw else _LOSER + points[b]
                if kb < ka:
                    moves = (b, a)
        elif len(moves) > 2:
            if (leader + win_off - seat) & 1 == 0:
                # The partner holds the trick: points first.
                moves = sorted(moves, key=neg_points)
            else:
                # Cheapest winning card first, then the cheapest loser.
                moves = sorted(
                    moves, key=lambda c: pw[c] if pw[c] > best_pw else _LOSER + points[c]
                )
        maximize = not seat & 1
        best = -INF if maximize else INF
        for c in moves:
            h[seat] = hand ^ (1 << c)
            p = pw[c]
            if n == 3:
                winner = (leader + (3 if p > best_pw else win_off)) & 3
                if winner & 1:
                    v = lead(winner, alpha, beta)
                else:
                    gain = pts + points[c]
                    v = gain + lead(winner, alpha - gain, beta - gain)
            elif p > best_pw:
                v = follow(leader, n + 1, led, pw, alpha, beta, n, p, pts + points[c], left)
            else:
                v = follow(
                    leader, n + 1, led, pw, alpha, beta, win_off, best_pw, pts + points[c], left
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

    if not trick:
        return lead(leader, -INF, INF)
    led = esuit[trick[0]]
    pw = power[led]
    win_off = core.trick_winner(trick, trump)
    left = h[0] | h[1] | h[2] | h[3]
    for c in trick:
        left |= 1 << c
    pts = sum(points[c] for c in trick)
    return follow(leader, len(trick), led, pw, -INF, INF, win_off, pw[trick[win_off]], pts, left)


def step(hands: list[int], seen: Seen, card: int) -> int:
    """Play ``card`` for the seat to play in ``seen`` (a scratch copy, updated in place).

    Returns the card points team 0 gains (a trick completed by this card).
    """
    trump = seen.trump
    esuit = core.EFFECTIVE_SUIT[trump]
    trick = seen.trick
    seat = (seen.leader + len(trick)) & 3
    hands[seat] &= ~(1 << card)
    seen.played |= 1 << card
    if trick:
        led = esuit[trick[0]]
        if esuit[card] != led:
            seen.voids[seat] |= 1 << led
    else:
        seen.led_by[seat] |= 1 << esuit[card]
    trick.append(card)
    if len(trick) < 4:
        return 0
    winner = (seen.leader + core.trick_winner(trick, trump)) & 3
    gained = 0 if winner & 1 else sum(POINTS[x] for x in trick)
    seen.led_suits |= 1 << esuit[trick[0]]
    trick.clear()
    seen.leader = winner
    return gained


def playout(
    hands: list[int], seen: Seen, stop: int = 0, policy: Callable[[Seen], int] = choose
) -> int:
    """Play on with ``policy`` (the heuristic's) for every seat, to ``stop`` cards a hand.

    Returns the card points team 0 took.  ``seen`` is a scratch copy: the policy
    is shown one seat at a time, with that seat's hand and the public facts of
    this playout; on return it holds the position reached.  ``hands`` is consumed.
    """
    gained = 0
    while seen.trick or hands[seen.leader].bit_count() > stop:
        seat = (seen.leader + len(seen.trick)) & 3
        seen.seat = seat
        seen.hand = hands[seat]
        gained += step(hands, seen, policy(seen))
    return gained
