"""Helpers for the Belot bot tests: whole deals from a seed, positions by hand."""

from __future__ import annotations

import random
from dataclasses import replace

from p2pbelka.bots.belot.base import BelotBot, decide
from p2pbelka.bots.belot.tournament import play_deal
from p2pbelka.cards import CARDS
from p2pbelka.rules.belot.deal import Action
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.randomplay import random_deck


def bot_deal(
    bots: list[BelotBot], seed: int, scores: tuple[int, ...] | None = None
) -> tuple[BelotGame, list[Action]]:
    """One deal from ``seed``, every turn asked of the bots through :func:`decide` (which
    checks each action with the engine); returns the game after the deal and the actions."""
    players = len(bots)
    rng = random.Random(seed)
    game = BelotGame.new(players=players, first_dealer=seed % players)
    if scores is not None:
        game = replace(game, score=scores)
    first, turned, extra = random_deck(rng, players, game.dealer)
    game = game.start_deal(first, CARDS[turned])
    taken: list[Action] = []

    def ask(game: BelotGame, seat: int) -> list[Action]:
        actions = decide(bots[seat], game, seat)
        taken.extend(actions)
        return actions

    return play_deal(game, extra, ask).finish_deal(), taken
