"""The bot interface and the registry of levels."""

from __future__ import annotations

import random
from typing import Protocol

from p2pbelka.cards import Card
from p2pbelka.rules.belka.game import EGGS_CHOICES, GameState


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


def _max_think() -> int:
    from p2pbelka.bots.strong import MAX_THINK as highest

    return highest


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
MAX_THINK: int = _max_think()
"""The largest think level (``--think N``, level ``strong:N``)."""


THINKING = "strong"
"""The level that ``--think`` scales."""


def split_level(level: str) -> tuple[str, int]:
    """``"strong:3"`` -> (``"strong"``, 3); a plain level thinks at level 1.

    ``ValueError`` for an unknown level or think level.
    """
    name, sep, think = level.partition(":")
    if name not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {name!r} (expected one of {', '.join(BOT_LEVELS)})")
    if not sep:
        return name, 1
    if name != THINKING:
        raise ValueError(f"bot level {name!r} has no think levels (only {THINKING!r})")
    if not think.isdigit() or not 1 <= int(think) <= MAX_THINK:
        raise ValueError(f"think level {think!r} (expected 1 to {MAX_THINK})")
    return name, int(think)


def is_level(level: str) -> bool:
    """A level :func:`make_bot` builds: a registered name, or ``strong:N``."""
    try:
        split_level(level)
    except ValueError:
        return False
    return True


def with_think(level: str, think: int | None) -> str:
    """``level`` thinking at ``think`` (``--think N``): only ``strong`` scales; 1 is itself."""
    if think is None:
        return level
    if not 1 <= think <= MAX_THINK:
        raise ValueError(f"--think {think} (expected 1 to {MAX_THINK})")
    if level != THINKING:
        return level
    return level if think == 1 else f"{level}:{think}"


def make_bot(level: str, seed: int | None = None) -> Bot:
    """The bot of ``level``: a name of :data:`BOT_LEVELS`, or ``strong:N`` (think level N)."""
    name, think = split_level(level)
    factory = BOT_LEVELS[name]
    if think != 1:
        thinking: Bot = factory.thinking(think, seed)  # type: ignore[attr-defined]
        return thinking
    bot: Bot = factory(seed)
    return bot


# -- Belot (2 or 3 players): its own interface and levels, in p2pbelka.bots.belot ------

from p2pbelka.bots.belot.base import (  # noqa: E402  (kept apart from Belka's registry)
    BELOT_BOT_LEVELS,
    BelotBot,
    make_belot_bot,
)

__all__ = [
    "BELOT_BOT_LEVELS",
    "BOT_LEVELS",
    "MAX_THINK",
    "BelotBot",
    "Bot",
    "is_level",
    "make_belot_bot",
    "make_bot",
    "split_level",
    "with_think",
]
