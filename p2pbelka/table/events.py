"""What a table tells its driver (screen, bot, log): plain immutable records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p2pbelka.cards import Card


@dataclass(frozen=True, slots=True)
class Event:
    pass


@dataclass(frozen=True, slots=True)
class Fault:
    """A seat caught breaking the protocol or the rules, with the signed evidence.

    ``evidence`` holds the hashes of the envelopes that prove it (hex), all in the
    transcript.  ``fatal`` faults stop the game; a renege is not fatal (the rules
    charge it and play goes on).
    """

    seat: int
    what: str
    evidence: tuple[str, ...] = ()
    fatal: bool = True
    deal: int | None = None

    def __str__(self) -> str:
        where = f"deal {self.deal}: " if self.deal is not None else ""
        return f"{where}seat {self.seat}: {self.what}"


@dataclass(frozen=True, slots=True)
class Rejected(Event):
    """An envelope that was dropped; the game goes on.  ``seat`` when the sender is known."""

    reason: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    names: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal_id: int
    number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrumpAnnounced(Event):
    holder: int
    trump: str
    trump_team: int


@dataclass(frozen=True, slots=True)
class RedealClaimed(Event):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChoiceNeeded(Event):
    """The local seat must decide: ``kind`` is ``play``, ``redeal`` or ``eggs``."""

    kind: str
    options: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class DealAudited(Event):
    """The end-of-deal audit passed (or charged a renege): the deal as verified."""

    deal_id: int
    summary: dict[str, Any] = field(hash=False)


@dataclass(frozen=True, slots=True)
class EggsChosen(Event):
    seat: int
    choice: str


@dataclass(frozen=True, slots=True)
class FaultFound(Event):
    fault: Fault


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: int | None
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameAborted(Event):
    faults: tuple[Fault, ...]
