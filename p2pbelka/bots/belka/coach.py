"""Belka's coach: a seat's card plays in a finished game, graded by the strong evaluation.

Each of the seat's plays is taken from the game *as the seat saw it then* (its own
hand, the cards played so far, the finished deals' public cards): the hidden cards
are dealt again as the ``strong`` level deals them (consistent with the voids and
the announced J♣, weighed by how well they explain the others' play, the others
read across the game's earlier deals), every distinct legal card is played in each
world, the heuristic plays on and the exact search finishes the deal, and the
result is worth what it is worth *in this game* (game-point equivalents of the
chance to win the game: :func:`~p2pbelka.bots.belka.utility.deal_values`).  See
:mod:`p2pbelka.bots.common.coach` for what is flagged.

Re-deal claims and the eggs choice are not graded yet.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import legal
from p2pbelka.bots.belka.reading import Reading
from p2pbelka.bots.belka.sampler import weighted_samples
from p2pbelka.bots.belka.solver import TT, distinct_moves
from p2pbelka.bots.belka.strong import EXACT_CARDS, POOL, SOLVE_CARDS, points_after
from p2pbelka.bots.belka.utility import deal_values
from p2pbelka.bots.common.coach import Graded, Position, with_choice
from p2pbelka.cards import CARDS
from p2pbelka.rules.belka.deal import RedealClaim
from p2pbelka.rules.belka.game import EggsChoice, GameState
from p2pbelka.rules.common.play import Play

THRESHOLD = 0.25
"""Game points a play must cost to be flagged when the player names no threshold."""


def seat_view(game: GameState, seat: int) -> GameState:
    """``game`` as ``seat`` saw it: the deal in progress with every other hand unknown,
    and the hands of the finished deals nobody played out (re-deals) unknown too."""
    history = tuple(
        replace(r, deal=r.deal.view(seat)) if r.deal.redeal_claim is not None else r
        for r in game.history
    )
    deal = None if game.deal is None else game.deal.view(seat)
    return replace(game, deal=deal, history=history)


class BelkaCoach:
    """Belka's :class:`~p2pbelka.bots.common.coach.Coach`."""

    unit = "game points"
    threshold = THRESHOLD

    def __init__(self) -> None:
        self._readings: dict[int, Reading] = {}

    def positions(self, game: GameState, seat: int) -> Iterator[Position]:
        """The seat's card plays in the finished deals of ``game``, each from its view."""
        g = GameState.new(game.options, game.first_dealer)
        index = 0
        for result in game.history:
            done = result.deal
            g = g.start_deal(done.dealt, audit=True)
            if done.redeal_claim is not None:
                g = g.apply(RedealClaim(done.redeal_claim))
            for card in done.plays:
                deal = g.deal
                assert deal is not None and deal.turn is not None
                turn = deal.turn
                if turn == seat:
                    yield Position(
                        seat_view(g, seat), seat, card, done.number, len(deal.tricks), index
                    )
                index += 1
                g = g.apply(Play(turn, CARDS[card]))
            g = g.finish_deal()
            if result.eggs_choice is not None and g.choice_seat is not None:
                g = g.apply(EggsChoice(g.choice_seat, result.eggs_choice))

    def grade(self, position: Position, worlds: int, rng: random.Random) -> Graded:
        view: GameState = position.view
        deal = view.deal
        if deal is None:
            raise ValueError("no deal in progress at this position")
        seat = position.seat
        seen = seen_from(deal, seat)
        allowed = legal(seen)
        if not allowed >> position.played & 1:
            return Graded([position.played], [[]])  # a renege: the rules charged it already
        blockers = seen.others
        for c in seen.trick:
            blockers |= 1 << c
        moves = with_choice(distinct_moves(allowed, blockers, seen.trump), position.played)
        if len(moves) < 2:
            return Graded(moves, [[] for _ in moves])
        team = seat & 1
        reading = self._readings.setdefault(seat, Reading(seat))
        reading.update(view)
        value = deal_values(view, team)
        left = 120 - seen.points[0] - seen.points[1]
        taken = seen.points[team]
        stop = SOLVE_CARDS if seen.hand.bit_count() > EXACT_CARDS else 8
        values: list[list[float]] = [[] for _ in moves]
        wins: list[list[bool]] = [[] for _ in moves]
        points: list[list[int]] = [[] for _ in moves]
        tt: TT = {}
        for hands in weighted_samples(seen, rng, worlds, POOL * worlds, reading.shares()):
            for i, card in enumerate(moves):
                got0 = points_after(seen, hands, card, stop, tt)
                total = taken + (got0 if team == 0 else left - got0)
                values[i].append(value(total))
                wins[i].append(total > 60)
                points[i].append(total)
        return Graded(moves, values, wins, points)


COACH = BelkaCoach()
"""The coach in Belka's entry of the bots' registry (it keeps each seat's reading of
the others across the positions of one game)."""
