"""Belka's own moves (besides playing a card): the re-deal question and the eggs choice."""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.rules.common.moves import Move


@dataclass(frozen=True, slots=True)
class ClaimRedeal(Move):
    """Show the hand and ask for a re-deal (Belka: under 13 points, or four nines)."""

    def __str__(self) -> str:
        return "re-deal"


@dataclass(frozen=True, slots=True)
class Ready(Move):
    """Play the hand as dealt (the answer when a re-deal could be claimed)."""

    def __str__(self) -> str:
        return "play"


@dataclass(frozen=True, slots=True)
class ChooseEggs(Move):
    """After a 60:60, the winners of the next deal take ``plus4`` or give the ``title``."""

    choice: str

    def __str__(self) -> str:
        return self.choice
