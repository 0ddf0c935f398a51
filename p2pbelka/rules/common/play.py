"""What every trick-taking game here shares: a card played by a seat, a finished trick,
and a hand as the engines take it (a mask, cards, or unknown)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from p2pbelka.cards import Card

HandInput = int | Iterable[Card] | None
"""A hand given to the engine: a mask, cards, or None when unknown."""


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays ``card``."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


def hand_mask(hand: int | Iterable[Card]) -> int:
    """A hand as a mask (a mask passes through)."""
    if isinstance(hand, int):
        return hand
    mask = 0
    for card in hand:
        mask |= card.bit
    return mask
