"""The ``strong`` level: determinized search over the hidden cards.

For each decision the bot deals the hidden cards again many times, each time
consistently with what its seat knows (:mod:`p2pbelka.bots.sampler`), and
scores every distinct legal card on every such deal: the heuristic policy plays
the deal on (each seat seeing only its own cards) until few cards are left, and
an exact double-dummy search (:func:`p2pbelka.bots.solver.solve`) finishes it.
Late in a deal the search starts at once.  A card's score is the mean, over
the deals, of what the deal's result is worth in game points to the bot's team
(:func:`deal_utility`), so crossing 61, 91 or 120 card points weighs as it
does at the table.  Seeded: the same seed plays the same cards.
"""

from __future__ import annotations

import random
from dataclasses import replace

from p2pbelka.bots.heuristic import wants_redeal
from p2pbelka.bots.knowledge import Seen, seen_from
from p2pbelka.bots.policy import choose, legal
from p2pbelka.bots.sampler import weighted_samples
from p2pbelka.bots.solver import TT, distinct_moves, playout, solve, step
from p2pbelka.cards import CARDS, Card
from p2pbelka.rules.game import GameState
from p2pbelka.rules.options import Options

SAMPLES = 40
"""Deals sampled per decision."""
POOL = 4
"""Consistent deals drawn per sample kept: the sampler keeps those that best explain the play."""
SOLVE_CARDS = 3
"""Cards a hand at most when the exact search takes over from the playout."""


def deal_utility(options: Options, points: int, trump_team: bool) -> float:
    """What taking ``points`` card points of 120 is worth to a team, in game points.

    ``trump_team``: the team holds J♣.  A small term in the points themselves
    breaks ties toward more points (and keeps the last tricks worth fighting for).
    """
    smooth = 0.02 * (points - 60)
    if points == 60:
        return smooth
    win = points > 60
    won, lost = (points, 120 - points) if win else (120 - points, points)
    winners_trump = trump_team if win else not trump_team
    if options.eyes:
        value = (1 if winners_trump else 2) + (1 if lost < 30 else 0)
    else:
        value = (1 if won <= 90 else 2) + (0 if winners_trump else 1)
        if won == 120 and options.goli == "wins_game":
            value += 4
    return smooth + (value if win else -value)


def _scratch(seen: Seen) -> Seen:
    return replace(seen, trick=list(seen.trick), voids=list(seen.voids), led_by=list(seen.led_by))


class StrongBot:
    """Determinized search (see the module text); ``samples`` and ``solve_cards`` buy strength."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = SAMPLES,
        solve_cards: int = SOLVE_CARDS,
        pool: int = POOL,
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.solve_cards = solve_cards
        self.pool = pool

    def play(self, game: GameState, seat: int) -> Card:
        deal = game.deal
        if deal is None:
            raise ValueError("no deal in progress")
        seen = seen_from(deal, seat)
        return CARDS[self.choose(seen, game.options)]

    def choose(self, seen: Seen, options: Options) -> int:
        """The card to play, from the seat's knowledge only."""
        trump = seen.trump
        blockers = seen.others
        for c in seen.trick:
            blockers |= 1 << c
        moves = distinct_moves(legal(seen), blockers, trump)
        if len(moves) == 1:
            return moves[0]
        hint = choose(seen)
        team = seen.seat & 1
        ours = seen.trump_team == team
        left = 120 - seen.points[0] - seen.points[1]
        taken = seen.points[team]
        scores = [0.0] * len(moves)
        tt: TT = {}
        for hands in weighted_samples(seen, self.rng, self.samples, self.pool * self.samples):
            for i, card in enumerate(moves):
                h = list(hands)
                s = _scratch(seen)
                got0 = step(h, s, card)
                if h[s.leader].bit_count() + (1 if s.trick else 0) > self.solve_cards:
                    got0 += playout(h, s, self.solve_cards)
                got0 += solve(h, s.leader, s.trick, trump, tt)
                mine = got0 if team == 0 else left - got0
                scores[i] += deal_utility(options, taken + mine, ours)
        # Ties (common when the outcome is settled) go to the rule-of-thumb card.
        best = max(range(len(moves)), key=lambda i: (scores[i], moves[i] == hint))
        return moves[best]

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return wants_redeal(game, seat)

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return "plus4"
