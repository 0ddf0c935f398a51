"""Belka's own events and standing, beside the events every game shares
(``table/events.py``).

A module of its own, apart from Belka's phases (``track.py`` beside it), so the
screens, the peers and the bots read these without importing the phases.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card, Suit
from p2pbelka.table.events import GameEvent, Score


@dataclass(frozen=True, slots=True)
class BelkaScore(Score):
    """Belka's standing: the eyes by team (``points``), the titles each team has won,
    whether an eggs bonus is pending, and the seats' suits once the first deal fixed
    them."""

    titles: tuple[tuple[str, ...], ...] = ()
    eggs_pending: bool = False
    seat_suits: tuple[Suit, ...] | None = None


@dataclass(frozen=True, slots=True)
class TrumpAnnounced(GameEvent):
    """The J♣ is shown; its holder's suit is trumps."""

    holder: int
    trump: str
    trump_team: int
    seat_suits: tuple[Suit, ...] | None


@dataclass(frozen=True, slots=True)
class RedealClaimed(GameEvent):
    """``seat`` claims a re-deal, opening its hand (``cards``)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class EggsChosen(GameEvent):
    """After eggs, ``seat`` chose the bonus (``choice``); ``score`` is the standing
    after it."""

    seat: int
    choice: str
    score: BelkaScore
