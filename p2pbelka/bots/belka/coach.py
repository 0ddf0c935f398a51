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

Also graded, from the same view: a re-deal the seat could ask for (asked or not):
keeping the hand is valued by heuristic playouts over the worlds, as the ``strong``
level values it, asking by the engine's score of the re-deal (a third in a row
charges the dealers); and the eggs choice (``plus4`` or the title), by the engine
alone.  Both in the same game-point equivalents as the cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import legal
from p2pbelka.bots.belka.reading import Reading
from p2pbelka.bots.belka.sampler import sample_hands, weighted_samples
from p2pbelka.bots.belka.solver import TT, distinct_moves, playout
from p2pbelka.bots.belka.strong import EXACT_CARDS, POOL, SOLVE_CARDS, points_after
from p2pbelka.bots.belka.utility import (
    after_deal,
    after_eggs,
    after_redeal,
    deal_values,
    point_value,
    win_chance,
)
from p2pbelka.bots.common.coach import Graded, Position, with_choice
from p2pbelka.cards import CARDS
from p2pbelka.rules.belka.deal import RedealClaim
from p2pbelka.rules.belka.game import EGGS_CHOICES, EggsChoice, GameState
from p2pbelka.rules.common.play import Play

THRESHOLD = 0.25
"""Game points a play must cost to be flagged when the player names no threshold."""
REDEAL, EGGS = "redeal", "eggs"
"""The kinds of decision besides a card: ask for a re-deal (move 1) or not (0); the
eggs choice (move: its place in ``EGGS_CHOICES``)."""
MOVE_WORDS = {
    REDEAL: ("playing the hand", "a re-deal"),
    EGGS: ("+4 points", "the title"),
}
"""Those moves in words (``ui/games/belka/words.py`` puts them in the catalogue)."""
_REDEALS, _EGGS = 1_000_000, 2_000_000
"""Where the re-deal and eggs decisions' places start (their worlds' seeds apart from
the cards')."""


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
            deal = g.deal
            assert deal is not None
            if deal.can_claim_redeal(seat) and done.redeal_claim in (None, seat):
                asked = int(done.redeal_claim == seat)
                view = seat_view(g, seat)
                yield Position(view, seat, asked, done.number, 0, _REDEALS + done.number, REDEAL)
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
            chooser = g.choice_seat
            if result.eggs_choice is not None and chooser is not None:
                if chooser == seat:
                    move = EGGS_CHOICES.index(result.eggs_choice)
                    at = _EGGS + done.number
                    yield Position(seat_view(g, seat), seat, move, done.number, 8, at, EGGS)
                g = g.apply(EggsChoice(chooser, result.eggs_choice))

    def move_words(self, kind: str, move: int) -> str | None:
        return MOVE_WORDS[kind][move] if kind in MOVE_WORDS else None

    def move_parts(self, kind: str, move: int) -> list[tuple[str, tuple[int, ...]]] | None:
        return None  # no move of Belka's is made of parts

    def grade(self, position: Position, worlds: int, rng: random.Random) -> Graded:
        if position.kind == REDEAL:
            return _grade_redeal(position, worlds, rng)
        if position.kind == EGGS:
            return _grade_eggs(position)
        return self._grade_card(position, worlds, rng)

    def _grade_card(self, position: Position, worlds: int, rng: random.Random) -> Graded:
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


def _grade_redeal(position: Position, worlds: int, rng: random.Random) -> Graded:
    """Keeping the hand (heuristic playouts over worlds from the seat's view) against
    asking for a re-deal (the engine's score of it), as chances to win the game."""
    view: GameState = position.view
    deal = view.deal
    assert deal is not None
    seat, team = position.seat, position.seat & 1
    scale = point_value(view.options)
    now = win_chance(view, team)
    seen = seen_from(deal, seat)
    keep: list[float] = []
    cache: dict[int, float] = {}
    for _ in range(worlds):
        points0 = playout(sample_hands(seen, rng), seen.copy())
        if points0 not in cache:
            cache[points0] = win_chance(after_deal(view, points0), team)
        keep.append(cache[points0])
    claim = win_chance(after_redeal(view, seat), team)
    values = [[(c - now) / scale for c in keep], [(claim - now) / scale] * len(keep)]
    return Graded([0, 1], values, chances=[sum(keep) / max(len(keep), 1), claim])


def _grade_eggs(position: Position) -> Graded:
    """Each eggs choice by the engine: the side's chance to win the game after it."""
    view: GameState = position.view
    team = position.seat & 1
    scale = point_value(view.options)
    chances = [win_chance(after_eggs(view, position.seat, choice), team) for choice in EGGS_CHOICES]
    values = [[c / scale] for c in chances]
    return Graded(list(range(len(EGGS_CHOICES))), values, chances=chances)


COACH = BelkaCoach()
"""The coach in Belka's entry of the bots' registry (it keeps each seat's reading of
the others across the positions of one game)."""
