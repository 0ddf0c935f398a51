"""Belka's bot interface, the ``random`` level and Belka's levels by name.

A Belka bot is asked three kinds of question, each with the game state *as the
seat sees it* (``GameState`` whose current deal has every other hand unknown):

- ``play(game, seat) -> Card``: a legal card (``game.deal.legal_cards(seat)``);
- ``claim_redeal(game, seat) -> bool``: ask for a re-deal when the hand allows;
- ``choose_eggs(game, seat) -> str``: ``"plus4"`` or ``"title"``.

At a table, :class:`~p2pbelka.bots.belka.seat.BelkaSeatBot` turns the table's
questions into these.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Protocol

from p2pbelka.bots.common.levels import BotLevel, parse
from p2pbelka.cards import Card
from p2pbelka.rules.belka.game import EGGS_CHOICES, GameState


class BelkaBot(Protocol):
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
    from p2pbelka.bots.belka.strong import MAX_THINK as highest

    return highest


def _levels() -> dict[str, type]:
    # Imported here: the stronger levels import the rules engine and the search.
    from p2pbelka.bots.belka.heuristic import HeuristicBot
    from p2pbelka.bots.belka.strong import StrongBot, StrongPlusBot

    return {
        "random": RandomBot,
        "heuristic": HeuristicBot,
        "strong": StrongBot,
        "strong+": StrongPlusBot,
    }


BELKA_BOT_LEVELS: dict[str, type] = _levels()
MAX_THINK: int = _max_think()
"""The largest think level (``--think N``, level ``strong:N``)."""

THINKING: Mapping[str, int] = {"strong": MAX_THINK}
"""The levels that think at more than one level (``--think``), to their highest."""


def belka_level(level: BotLevel | str) -> BotLevel:
    """``level`` as a Belka level: a name of :data:`BELKA_BOT_LEVELS`, or ``strong:N``;
    ``ValueError`` otherwise."""
    return parse(str(level), tuple(BELKA_BOT_LEVELS), THINKING)


def make_belka_bot(level: BotLevel | str, seed: int | None = None) -> BelkaBot:
    """The Belka bot of ``level``: a name of :data:`BELKA_BOT_LEVELS`, or ``strong:N``
    (think level N)."""
    parsed = belka_level(level)
    factory = BELKA_BOT_LEVELS[parsed.name]
    if parsed.think != 1:
        thinking: BelkaBot = factory.thinking(parsed.think, seed)  # type: ignore[attr-defined]
        return thinking
    bot: BelkaBot = factory(seed)
    return bot
