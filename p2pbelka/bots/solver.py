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

from collections.abc import Callable
from typing import Final

from p2pbelka.bots.knowledge import ORDER, Seen
from p2pbelka.bots.policy import choose
from p2pbelka.rules import core

POINTS: Final = core.POINTS
INF: Final = 1000

TT = dict[tuple[int, int, int, int, int], tuple[int, int]]


def distinct_moves(legal: int, blockers: int, trump: int) -> list[int]:
    """``legal`` less the cards that play exactly like a neighbour kept.

    Two cards are alike when nothing in ``blockers`` (cards that can still fall
    on the same trick) lies between them in rank and they are worth the same.
    """
    moves: list[int] = []
    eff = core.EFFECTIVE_SUIT_MASKS[trump]
    order = ORDER[trump]
    for suit in range(4):
        if not legal & eff[suit]:
            continue
        run = -1
        for c in order[suit]:
            if legal >> c & 1:
                if POINTS[c] != run:
                    moves.append(c)
                    run = POINTS[c]
            elif blockers >> c & 1:
                run = -1
    return moves


def solve(hands: list[int], leader: int, trick: list[int], trump: int, tt: TT) -> int:
    """Card points team 0 takes from here on (the current trick's cards included).

    ``hands`` (masks, all four known) is used as scratch space and restored.
    """
    esuit = core.EFFECTIVE_SUIT[trump]
    eff = core.EFFECTIVE_SUIT_MASKS[trump]
    power = core.POWER[trump]
    mask_points = core.mask_points
    h = hands

    def node(leader: int, cards: list[int], alpha: int, beta: int) -> int:
        n = len(cards)
        key = None
        lo, hi = 0, INF
        if n == 0:
            if not h[leader]:
                return 0
            key = (h[0], h[1], h[2], h[3], leader)
            entry = tt.get(key)
            if entry is None:
                lo, hi = 0, mask_points(h[0] | h[1] | h[2] | h[3])
            else:
                lo, hi = entry
                if lo == hi:
                    return lo
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            seat = leader
            moves = distinct_moves(h[seat], h[0] | h[1] | h[2] | h[3], trump)
            moves.sort(key=lambda c: -power[esuit[c]][c])
        else:
            seat = (leader + n) & 3
            pw = power[esuit[cards[0]]]
            hand = h[seat]
            legal = hand & eff[esuit[cards[0]]] or hand
            blockers = (h[0] | h[1] | h[2] | h[3]) & ~hand
            for c in cards:
                blockers |= 1 << c
            moves = distinct_moves(legal, blockers, trump)
            win_off = core.trick_winner(cards, trump)
            best_pw = pw[cards[win_off]]
            if (leader + win_off - seat) & 1 == 0:
                # The partner holds the trick: points first.
                moves.sort(key=lambda c: -POINTS[c])
            else:
                # Cheapest winning card first, then the cheapest loser.
                moves.sort(
                    key=lambda c: (pw[c] <= best_pw, pw[c] if pw[c] > best_pw else POINTS[c])
                )
        a0, b0 = alpha, beta
        maximize = not seat & 1
        best = -INF if maximize else INF
        for c in moves:
            bit = 1 << c
            h[seat] ^= bit
            cards.append(c)
            if n == 3:
                winner = (leader + core.trick_winner(cards, trump)) & 3
                gain = 0 if winner & 1 else sum(POINTS[x] for x in cards)
                v = gain + node(winner, [], alpha - gain, beta - gain)
            else:
                v = node(leader, cards, alpha, beta)
            cards.pop()
            h[seat] ^= bit
            if maximize:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        if key is not None:
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            tt[key] = (lo, hi)
        return best

    return node(leader, list(trick), -INF, INF)


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
