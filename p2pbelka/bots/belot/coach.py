"""Belot's coach: a seat's card plays in a finished game, graded by the strong evaluation.

Each of the seat's plays is taken from the game *as the seat saw it then* (its own
cards, the turned card, every call, declaration and card so far): the hidden cards
are dealt again as the ``strong`` level deals them (consistent with the voids, the
trumps not beaten, the declared cards; weighed by the calls and declarations they
explain), every distinct legal card is played in each world, the rules of thumb
play on and the exact search finishes the deal, valued as the level values it:
the seat's written points less the others' mean, the race to 1001 included
(:func:`~p2pbelka.bots.belot.search.utility`).  See :mod:`p2pbelka.bots.common.coach`
for what is flagged.

Calls are graded too, as the level makes them: bidding worlds (the others' six
cards, every seat's three more) weighed by the calls before the seat's, the
later seats calling by the rules of thumb, the deal played out by the rules of
thumb for every seat, the seat's own later play included (so no later choice of
its own sees a hidden card).  Declarations are not graded yet.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from p2pbelka.bots.belot.base import seat_view
from p2pbelka.bots.belot.inference import weighted_bidding, weighted_hands
from p2pbelka.bots.belot.knowledge import known_from
from p2pbelka.bots.belot.solver import distinct_moves
from p2pbelka.bots.belot.strong import POOL, SOLVE_CARDS, call_value, world_values
from p2pbelka.bots.common.coach import Graded, Position, with_choice
from p2pbelka.cards import CARDS, FULL_MASK
from p2pbelka.rules.belot.deal import Bid, Claim, Declaration, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.common.play import Play

THRESHOLD = 10.0
"""Points (written, against the others' mean) a play must cost to be flagged when the
player names no threshold."""
BID = "bid"
"""The kind of a call's decision; its moves are places in :data:`CALLS`."""
CALLS = ("play", "pass", "C", "D", "H", "S")
CALL_WORDS = ("playing the turned suit", "pass", "clubs", "diamonds", "hearts", "spades")
"""The calls in words (``ui/games/belot/view.py`` puts them in the catalogue)."""
_BIDS = 1_000_000
"""Where the calls' places start (their worlds' seeds apart from the cards')."""


def _declare_due(game: BelotGame, pending: list[Declaration]) -> BelotGame:
    """The declarations made at the lead about to be played, in the order made."""
    deal = game.deal
    assert deal is not None
    while pending and deal.at_lead and pending[0].trick == len(deal.tricks):
        made = pending.pop(0)
        game = game.apply(Declare(made.seat, tuple(made.cards)))
        deal = game.deal
        assert deal is not None
    return game


class BelotCoach:
    """Belot's :class:`~p2pbelka.bots.common.coach.Coach`."""

    unit = "points"
    threshold = THRESHOLD

    def move_words(self, kind: str, move: int) -> str | None:
        return CALL_WORDS[move] if kind == BID else None

    def positions(self, game: BelotGame, seat: int) -> Iterator[Position]:
        """The seat's calls and card plays in the finished deals of ``game``, each from its
        view."""
        g = BelotGame.new(game.options, game.players, game.first_dealer)
        index = 0
        for result in game.history:
            done = result.deal
            g = g.start_deal(done.dealt, done.turned)
            for k, call in enumerate(done.bids):
                deal = g.deal
                assert deal is not None and deal.turn is not None
                if deal.turn == seat:
                    at = _BIDS + 16 * done.number + k
                    move = CALLS.index(call)
                    yield Position(seat_view(g, seat), seat, move, done.number, 0, at, BID)
                g = g.apply(Bid(deal.turn, call))
            if done.extra is not None:
                g = g.deal_extra(done.extra)
                pending = list(done.declarations)
                for card in done.plays:
                    g = _declare_due(g, pending)
                    deal = g.deal
                    assert deal is not None and deal.turn is not None
                    turn = deal.turn
                    if turn == seat:
                        yield Position(
                            seat_view(g, seat), seat, card, done.number, len(deal.tricks), index
                        )
                    index += 1
                    g = g.apply(Play(turn, CARDS[card]))
                g = _declare_due(g, pending)
                if done.claim is not None:
                    g = g.apply(Claim(done.claim))
            g = g.finish_deal()

    def grade(self, position: Position, worlds: int, rng: random.Random) -> Graded:
        if position.kind == BID:
            return _grade_call(position, worlds, rng)
        view: BelotGame = position.view
        deal = view.deal
        if deal is None:
            raise ValueError("no deal in progress at this position")
        known = known_from(view, position.seat)
        allowed = deal.legal_mask(position.seat)
        if not allowed >> position.played & 1:
            return Graded([position.played], [[]])
        trick = sum(1 << c for c in known.trick)
        blockers = (FULL_MASK & ~known.hand & ~known.played) | trick
        moves = with_choice(distinct_moves(allowed, known.trump, blockers), position.played)
        if len(moves) < 2:
            return Graded(moves, [[] for _ in moves])
        stop = SOLVE_CARDS[known.players]
        values: list[list[float]] = [[] for _ in moves]
        for hands in weighted_hands(known, rng, worlds, POOL * worlds):
            for i, value in enumerate(world_values(known, hands, moves, stop)):
                values[i].append(value)
        return Graded(moves, values)


def _grade_call(position: Position, worlds: int, rng: random.Random) -> Graded:
    """Every legal call over bidding worlds drawn from the seat's view, as the level
    values calls."""
    view: BelotGame = position.view
    deal = view.deal
    assert deal is not None
    known = known_from(view, position.seat)
    calls = deal.legal_calls(position.seat)
    values: list[list[float]] = [[] for _ in calls]
    for first, extra in weighted_bidding(known, rng, worlds, POOL * worlds):
        for i, call in enumerate(calls):
            values[i].append(call_value(known, first, extra, call))
    return Graded([CALLS.index(call) for call in calls], values)


COACH = BelotCoach()
"""The coach in Belot's entry of the bots' registry."""
