"""The ``heuristic`` level: a sound club player's rules of thumb, no search."""

from __future__ import annotations

import random

from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import choose
from p2pbelka.bots.belka.utility import after_redeal, best_eggs, win_chance
from p2pbelka.cards import CARDS, Card
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.game import GameState


def hand_strength(hand: int, trump: int) -> float:
    """A rough count of the tricks a hand takes: trumps, jacks and plain aces."""
    trumps = hand & core.TRUMP_MASKS[trump]
    strength = 0.6 * trumps.bit_count()
    strength += 0.5 * (trumps & core.JACKS_MASK).bit_count()
    strength += (hand & core.ACES_MASK & ~trumps).bit_count()
    return strength


def wants_redeal(game: GameState, seat: int) -> bool:
    """Ask for a re-deal with a weak hand, minding a charge on the claim.

    A claim the engine charges (the third re-deal in a row costs the dealing
    team) is made exactly when the charge leaves the game better for us.
    """
    deal = game.deal
    if deal is None or not deal.can_claim_redeal(seat):
        return False
    team = seat & 1
    redealt = after_redeal(game, seat)
    if redealt.score != game.score or redealt.winner is not None:
        return win_chance(redealt, team) > win_chance(game, team)
    hand = deal.dealt[seat]
    assert hand is not None
    # The trump of this deal is already known: the announced J♣ holder's suit.
    return hand_strength(hand, int(deal.trump)) < 3.0


class HeuristicBot:
    """Rules of thumb (see :mod:`p2pbelka.bots.belka.policy`); ties never arise, so no
    randomness."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def play(self, game: GameState, seat: int) -> Card:
        deal = game.deal
        if deal is None:
            raise ValueError("no deal in progress")
        return CARDS[choose(seen_from(deal, seat))]

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return wants_redeal(game, seat)

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return best_eggs(game, seat)
