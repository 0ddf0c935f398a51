"""Belot's bots at a table: a Belot bot's turns answered one move at a time, and
Belot's entry in the bots' registry.

A Belot bot plans a whole turn (:func:`~p2pbelka.bots.belot.base.decide`: a call;
or at a lead its declarations, then a claim or a card); the table asks for it
one move at a time (``bid``, ``declare``, ``play``, ...).  :class:`BelotSeatBot`
keeps the rest of the turn's plan and hands it out as the table asks; a planned
move the table does not offer ends the plan, and a random legal move is made
instead, as when the bot fails (a bot's bug must not stop a table).

Seeds: the seat bot's generator, seeded, draws the Belot bot's seed first and
then every fallback, so a seeded seat plays the same game every time.
"""

from __future__ import annotations

import random

from p2pbelka.bots.belot.base import (
    BELOT_BOT_LEVELS,
    BELOT_THINKING,
    belot_level,
    decide,
    make_belot_bot,
)
from p2pbelka.bots.belot.coach import COACH
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.bots.belot.tournament import TOURNAMENT
from p2pbelka.bots.common.budget import table_budget
from p2pbelka.bots.common.entry import GameBots
from p2pbelka.bots.common.levels import BotLevel
from p2pbelka.bots.common.seat import Question, legal_answer
from p2pbelka.rules.belot import moves as mv
from p2pbelka.rules.belot.deal import Action, Bid, Claim, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.spec import GAME
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.moves import Move, PlayCard
from p2pbelka.rules.common.play import Play


class BelotSeatBot:
    """A Belot bot of ``level`` in one seat, and the rest of its turn."""

    def __init__(self, level: BotLevel | str, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.bot = make_belot_bot(level, self.rng.getrandbits(32))
        if seed is None and isinstance(self.bot, StrongBelotBot):
            self.bot.budget = table_budget(_think(level))
        self.plan: list[Move] = []

    def choose(self, game: BelotGame, seat: int, question: Question) -> Move:
        if not self.plan:
            try:
                self.plan = [as_move(action) for action in decide(self.bot, game, seat)]
            except (ValueError, RuleViolation):  # a bot's bug must not stop the table
                self.plan = []
        move = self.plan.pop(0) if self.plan else None
        if move is None or move not in question.moves:
            self.plan = []
        return legal_answer(question, move, self.rng)


def _think(level: BotLevel | str) -> int:
    return level.think if isinstance(level, BotLevel) else belot_level(level).think


def as_move(action: Action) -> Move:
    """The table's move for a Belot engine action of the seat's own."""
    if isinstance(action, Bid):
        return mv.Bid(action.call)
    if isinstance(action, Declare):
        return mv.Declare(tuple(action.cards))
    if isinstance(action, Claim):
        return mv.Claim1001()
    if isinstance(action, Play):
        return PlayCard(action.card)
    raise ValueError(f"not a Belot action: {action!r}")


def make_seat_bot(level: BotLevel, seed: int | None = None) -> BelotSeatBot:
    """The Belot seat bot of ``level``, seeded."""
    return BelotSeatBot(level, seed)


BOTS = GameBots(
    game=GAME,
    levels=tuple(BELOT_BOT_LEVELS),
    thinking=BELOT_THINKING,
    make=make_seat_bot,
    tournament=TOURNAMENT,
    coach=COACH,
)
"""Belot's entry in :mod:`p2pbelka.bots.registry`."""
