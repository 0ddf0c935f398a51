"""The local player's moves, as data: what a screen, a bot or a test hands to ``Table.apply``.

A move is a small frozen value, so it can be logged, compared with
``Table.legal_moves()`` and followed from a key press to the envelope it becomes.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class ClaimRedeal:
    """Show the hand and ask for a re-deal (Belka: under 13 points, or four nines)."""

    def __str__(self) -> str:
        return "re-deal"


@dataclass(frozen=True, slots=True)
class Ready:
    """Play the hand as dealt (the answer when a re-deal could be claimed)."""

    def __str__(self) -> str:
        return "play"


@dataclass(frozen=True, slots=True)
class ChooseEggs:
    """After a 60:60, the winners of the next deal take ``plus4`` or give the ``title``."""

    choice: str

    def __str__(self) -> str:
        return self.choice


@dataclass(frozen=True, slots=True)
class Bid:
    """Belot: a call, ``play``/``pass`` in round 1, a suit letter or ``pass`` in round 2."""

    call: str

    def __str__(self) -> str:
        return self.call


@dataclass(frozen=True, slots=True)
class Declare:
    """Belot, at one's lead: show a combination (a sequence, a four, or belle)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "declare " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Claim1001:
    """Belot: claim 1001, after taking a trick."""

    def __str__(self) -> str:
        return "claim 1001"


Move = PlayCard | ClaimRedeal | Ready | ChooseEggs | Bid | Declare | Claim1001
