"""The player's moves, as data: what a screen, a bot or a test hands to ``Table.apply``.

A move is a small frozen value, so it can be logged, compared with
``Table.legal_moves()`` and followed from a key press to the envelope it becomes.
Every game's moves derive from :class:`Move`; playing a card is every game's
(:class:`PlayCard`), the rest are a game's own (``rules/<game>/moves.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card


class Move:
    """Any game's move: a frozen dataclass whose ``str`` names it for people."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class PlayCard(Move):
    card: Card

    def __str__(self) -> str:
        return str(self.card)
