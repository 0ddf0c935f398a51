"""Belot's own events, beside the events every game shares (``table/events.py``).

A module of its own, apart from Belot's phases (``track.py`` beside it), so the
screens, the peers and the bots read these without importing the phases.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card
from p2pbelka.table.events import GameEvent


@dataclass(frozen=True, slots=True)
class CardTurned(GameEvent):
    """The card under the stock is opened to all; bidding begins with ``turn``."""

    card: Card
    turn: int | None


@dataclass(frozen=True, slots=True)
class BidMade(GameEvent):
    """``seat`` called; ``declarer`` and ``trump`` once someone took the deal,
    ``turn`` the next seat to call (None when bidding is over), ``void`` when all passed."""

    seat: int
    call: str
    declarer: int | None
    trump: str | None
    turn: int | None
    void: bool


@dataclass(frozen=True, slots=True)
class Declared(GameEvent):
    """``seat`` showed a combination (or belle) worth ``value``."""

    seat: int
    cards: tuple[Card, ...]
    name: str
    value: int


@dataclass(frozen=True, slots=True)
class Claimed(GameEvent):
    """``seat`` claimed 1001, and every peer's engine agreed (``total``)."""

    seat: int
    total: int
