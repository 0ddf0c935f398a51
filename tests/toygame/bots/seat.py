"""Toy's bots: ``random`` (any legal card) and ``lowest`` (the lowest legal card)."""

from __future__ import annotations

import random
from typing import Any

from p2pbelka.bots.common.entry import GameBots
from p2pbelka.bots.common.levels import BotLevel
from p2pbelka.bots.common.seat import Question, legal_answer
from p2pbelka.rules.common.moves import Move, PlayCard
from tests.toygame.rules import game as rules


class ToyBot:
    def __init__(self, level: BotLevel, seed: int | None) -> None:
        self.lowest = level.name == "lowest"
        self.rng = random.Random(seed)

    def choose(self, game: Any, seat: int, question: Question) -> Move:
        cards = [m for m in question.moves if isinstance(m, PlayCard)]
        if self.lowest and cards:
            return legal_answer(question, min(cards, key=lambda m: m.card.rank), self.rng)
        return legal_answer(question, None, self.rng)


BOTS = GameBots(
    game=rules.NAME,
    levels=("random", "lowest"),
    thinking={},
    make=ToyBot,
)
