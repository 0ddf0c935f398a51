"""Belot's own moves (besides playing a card): calls, declarations, the claim of 1001."""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card
from p2pbelka.rules.common.moves import Move


@dataclass(frozen=True, slots=True)
class Bid(Move):
    """A call, ``play``/``pass`` in round 1, a suit letter or ``pass`` in round 2."""

    call: str

    def __str__(self) -> str:
        return self.call


@dataclass(frozen=True, slots=True)
class Declare(Move):
    """At one's lead: show a combination (a sequence, a four, or belle)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "declare " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Claim1001(Move):
    """Claim 1001, after taking a trick."""

    def __str__(self) -> str:
        return "claim 1001"
