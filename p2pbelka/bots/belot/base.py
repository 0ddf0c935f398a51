"""The Belot bot interface, the ``random`` level and the turn driver.

A Belot bot answers four questions, each given the game *as its seat sees it*
(a :class:`~p2pbelka.rules.belot.game.BelotGame` whose deal is
``DealState.view(seat)``; :func:`seat_view` makes one) and the seat:

- ``bid(game, seat) -> str``: a call of ``deal.legal_calls(seat)``;
- ``declarations(game, seat) -> list[tuple[Card, ...]]``: at its lead, the
  combinations to declare now, in order (each legal once the ones before it are
  made), possibly none;
- ``claim(game, seat) -> bool``: claim 1001 now (asked only when
  ``deal.can_claim(seat)``);
- ``play(game, seat) -> Card``: a card of ``deal.legal_cards(seat)``.

:func:`decide` asks them in the right order and returns the actions of one
turn, each checked by the engine: ``[Bid]``, or at a lead ``[Declare, ...,
Claim]`` or ``[Declare, ..., Play]``, otherwise ``[Play]``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from p2pbelka.bots.common.levels import BotLevel, parse
from p2pbelka.cards import Card
from p2pbelka.rules.belot.deal import Action, Bid, Claim, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.common.play import Play


class BelotBot(Protocol):
    def bid(self, game: BelotGame, seat: int) -> str: ...

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]: ...

    def claim(self, game: BelotGame, seat: int) -> bool: ...

    def play(self, game: BelotGame, seat: int) -> Card: ...


def seat_view(game: BelotGame, seat: int) -> BelotGame:
    """The game as ``seat`` may see it: every other hand (so the stock) unknown."""
    if game.deal is None:
        return game
    return replace(game, deal=game.deal.view(seat))


def decide(bot: BelotBot, game: BelotGame, seat: int) -> list[Action]:
    """The actions ``seat`` takes at its turn, asked of ``bot`` from the seat's view.

    Raises :class:`~p2pbelka.rules.common.errors.RuleViolation` if the bot answers
    with an illegal move (a bug in the bot: a table should then fall back on
    a random legal move) and ``ValueError`` when it is not the seat's turn.
    """
    game = seat_view(game, seat)
    deal = game.deal
    if deal is None or deal.turn != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    if deal.phase == "bidding":
        action: Action = Bid(seat, bot.bid(game, seat))
        deal.apply(action)
        return [action]
    actions: list[Action] = []
    if deal.at_lead:
        if deal.legal_declarations(seat):
            for cards in bot.declarations(game, seat):
                declare = Declare(seat, tuple(cards))
                deal = deal.apply(declare)
                actions.append(declare)
            game = replace(game, deal=deal)
        if deal.can_claim(seat) and bot.claim(game, seat):
            return [*actions, Claim(seat)]
    play = Play(seat, bot.play(game, seat))
    deal.apply(play)
    return [*actions, play]


class RandomBelotBot:
    """Uniform over the legal actions: calls and cards; at a lead, each legal combination
    or "no more" with equal odds, again and again.  Claims 1001 whenever it is true."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def bid(self, game: BelotGame, seat: int) -> str:
        assert game.deal is not None
        return self.rng.choice(game.deal.legal_calls(seat))

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        deal = game.deal
        assert deal is not None
        chosen: list[tuple[Card, ...]] = []
        while True:
            legal = deal.legal_declarations(seat)
            pick = self.rng.randrange(len(legal) + 1)
            if pick == len(legal):
                return chosen
            chosen.append(legal[pick])
            deal = deal.apply(Declare(seat, legal[pick]))

    def claim(self, game: BelotGame, seat: int) -> bool:
        return game.deal is not None and game.deal.can_claim(seat)

    def play(self, game: BelotGame, seat: int) -> Card:
        assert game.deal is not None
        return self.rng.choice(game.deal.legal_cards(seat))


def _levels() -> dict[str, type]:
    # Imported here: the stronger levels pull in the policy and the search.
    from p2pbelka.bots.belot.heuristic import HeuristicBelotBot
    from p2pbelka.bots.belot.strong import StrongBelotBot

    return {"random": RandomBelotBot, "heuristic": HeuristicBelotBot, "strong": StrongBelotBot}


def _max_think() -> int:
    from p2pbelka.bots.belot.strong import MAX_THINK as highest

    return highest


BELOT_BOT_LEVELS: dict[str, type] = _levels()
BELOT_THINKING: Mapping[str, int] = {"strong": _max_think()}
"""The levels that think at more than one level (``strong:N``), to their highest."""


def belot_level(level: BotLevel | str) -> BotLevel:
    """``level`` as a Belot level: ``random``, ``heuristic``, ``strong`` or ``strong:N``;
    ``ValueError`` otherwise."""
    return parse(str(level), tuple(BELOT_BOT_LEVELS), BELOT_THINKING, "Belot bot level")


def make_belot_bot(level: BotLevel | str, seed: int | None = None) -> BelotBot:
    """A Belot bot of ``level`` (``random``, ``heuristic``, ``strong`` or ``strong:N``),
    seeded."""
    parsed = belot_level(level)
    factory = BELOT_BOT_LEVELS[parsed.name]
    if parsed.think != 1:
        thinking: BelotBot = factory.thinking(parsed.think, seed)  # type: ignore[attr-defined]
        return thinking
    bot: BelotBot = factory(seed)
    return bot
