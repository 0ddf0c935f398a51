"""Belka's bots at a table: the table's questions put to a Belka bot, and Belka's
entry in the bots' registry.

A table asks ``play`` (a card), ``redeal`` (claim a re-deal, or be ready) and
``eggs`` (``plus4`` or ``title``); :class:`BelkaSeatBot` asks its Belka bot the
matching question (``play``, ``claim_redeal``, ``choose_eggs``) and answers
with the move.  An answer the table would refuse, or a bot that fails, gets a
random legal move instead (drawn from a generator of the seat bot's own, so a
seeded bot's choices are not moved by it).
"""

from __future__ import annotations

import random

from p2pbelka.bots.belka.base import BELKA_BOT_LEVELS, THINKING, BelkaBot, make_belka_bot
from p2pbelka.bots.belka.coach import COACH
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belka.tournament import TOURNAMENT
from p2pbelka.bots.common.budget import table_budget
from p2pbelka.bots.common.entry import GameBots
from p2pbelka.bots.common.levels import BotLevel
from p2pbelka.bots.common.seat import Question, legal_answer
from p2pbelka.rules.belka import moves as mv
from p2pbelka.rules.belka.game import GAME, GameState
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.moves import Move, PlayCard


class BelkaSeatBot:
    """A Belka bot answering the table's questions."""

    def __init__(self, bot: BelkaBot, seed: int | None = None) -> None:
        self.bot = bot
        self.rng = random.Random(seed)  # for a fallback only

    def choose(self, game: GameState, seat: int, question: Question) -> Move:
        try:
            move = self._answer(game, seat, question.kind)
        except (ValueError, RuleViolation):  # a bot's bug must not stop the table
            move = None
        return legal_answer(question, move, self.rng)

    def _answer(self, game: GameState, seat: int, kind: str) -> Move | None:
        if kind == "play":
            return PlayCard(self.bot.play(game, seat))
        if kind == "redeal":
            return mv.ClaimRedeal() if self.bot.claim_redeal(game, seat) else mv.Ready()
        if kind == "eggs":
            return mv.ChooseEggs(self.bot.choose_eggs(game, seat))
        return None


def make_seat_bot(level: BotLevel, seed: int | None = None) -> BelkaSeatBot:
    """The Belka seat bot of ``level``, seeded (unseeded: within the table's time budget)."""
    bot = make_belka_bot(level, seed)
    if seed is None and isinstance(bot, StrongBot):
        bot.budget = table_budget(level.think)
    return BelkaSeatBot(bot, seed)


BOTS = GameBots(
    game=GAME,
    levels=tuple(BELKA_BOT_LEVELS),
    thinking=THINKING,
    make=make_seat_bot,
    tournament=TOURNAMENT,
    coach=COACH,
)
"""Belka's entry in :mod:`p2pbelka.bots.registry`."""
