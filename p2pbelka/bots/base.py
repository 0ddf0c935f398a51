"""The bot interface and the registry of levels."""

from __future__ import annotations

import random
from typing import Protocol

from p2pbelka.cards import Card
from p2pbelka.rules.game import EGGS_CHOICES, GameState


class Bot(Protocol):
    def play(self, game: GameState, seat: int) -> Card: ...

    def claim_redeal(self, game: GameState, seat: int) -> bool: ...

    def choose_eggs(self, game: GameState, seat: int) -> str: ...


class RandomBot:
    """A random legal card; re-deals and eggs by coin toss.  Seeded: reproducible."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def play(self, game: GameState, seat: int) -> Card:
        assert game.deal is not None
        return self.rng.choice(game.deal.legal_cards(seat))

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return self.rng.random() < 0.5

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return self.rng.choice(EGGS_CHOICES)


def _levels() -> dict[str, type]:
    # Imported here: the stronger levels import the rules engine and the search.
    from p2pbelka.bots.heuristic import HeuristicBot
    from p2pbelka.bots.strong import StrongBot, StrongPlusBot

    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "strong": StrongBot,
        "strong+": StrongPlusBot,
    }


BOT_LEVELS: dict[str, type] = _levels()


def make_bot(level: str, seed: int | None = None) -> Bot:
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r} (expected one of {', '.join(BOT_LEVELS)})"
        ) from None
    bot: Bot = factory(seed)
    return bot


# -- Belot (2 or 3 players): its own interface and levels, in p2pbelka.bots.belot ------

from p2pbelka.bots.belot.base import (  # noqa: E402  (kept apart from Belka's registry)
    BELOT_BOT_LEVELS,
    BelotBot,
    make_belot_bot,
)

__all__ = ["BELOT_BOT_LEVELS", "BOT_LEVELS", "BelotBot", "Bot", "make_belot_bot", "make_bot"]
