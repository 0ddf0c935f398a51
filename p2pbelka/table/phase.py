"""The phases of a game at the table, what a phase is made of (``Step``), and the two
things a phase's code can say: stop the game naming faults (``Abort``), or ask the
local player (``Question``).  The phases in order are in ``flow.py``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from p2pbelka.protocol import messages as m
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.audit import DealAudit, audit_deal
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack

if TYPE_CHECKING:
    from p2pbelka.table.session import Table


class Phase(StrEnum):
    SIT = "sit"
    LOT_COMMIT = "lot_commit"
    LOT_REVEAL = "lot_reveal"
    COMMIT = "commit"
    SHUFFLE = "shuffle"
    LOCK = "lock"
    SHARES = "shares"
    TRUMP = "trump"
    READY = "ready"
    TURN = "turn"
    BID = "bid"
    EXTRA = "extra"
    PLAY = "play"
    REVEAL = "reveal"
    DEAL_END = "deal_end"
    CHOICE = "choice"
    OVER = "over"
    ABORTED = "aborted"


class Abort(Exception):
    """Raised by a handler: the game stops, naming these faults."""

    def __init__(self, *faults: ev.Fault) -> None:
        self.faults = faults


@dataclass(frozen=True, slots=True)
class Question:
    """What the local seat is asked when the rules give it a choice."""

    kind: str
    moves: tuple[mv.Move, ...]


Handler = Callable[["Table", int, Any], None]
Order = Callable[["Table"], list[int]]
Own = Callable[["Table"], m.Message | Question | None]
Then = Callable[["Table"], Phase]
Slot = Callable[["Table"], int]
Prelude = Callable[["Table"], None]


@dataclass(frozen=True, slots=True)
class Step:
    handlers: Mapping[type[m.Message], Handler]
    order: Order
    own: Own
    then: Then
    parallel: bool = True
    """Every seat sends at once (processed in ``order``); else seats speak in turn."""
    turn_based: bool = False
    """``order`` is asked again after each message (trick play, the eggs choice)."""
    before_deals: bool = False
    """Envelopes of this phase belong to no deal (deal number 0)."""
    decision: bool = False
    """What is due may be a person's decision, which can take minutes."""
    slot: Slot | None = None
    """For a turn-based phase where one seat may send several messages in a row
    (Belot's bids, declarations and cards): which of them is due, so none is signed
    twice.  None: the phase's own rule (the speaker's place, or the cards played)."""
    prelude: Prelude | None = None
    """Work the table does once in this phase, after the local seat's own message
    of the phase has left and before any envelope of the phase is processed (it may
    raise ``Abort``).  The end-of-deal audit is the deal end's: a seat's
    ``deal_end`` travels while it audits."""

    @property
    def accepts(self) -> frozenset[str]:
        return frozenset(cls.TYPE for cls in self.handlers)


MoveToMessage = Callable[["Table", Any], m.Message]


Audit = Callable[[DealRound, GameTrack], DealAudit]


@dataclass(frozen=True, slots=True)
class GamePhases:
    """What a game adds to the common schedule: its own phases, the phase that
    follows the shares (the hands are read) and the one that follows the deal-end
    reports, how each of its moves becomes a message, and its end-of-deal audit."""

    steps: Mapping[Phase, Step]
    after_shares: Phase
    after_deal_end: Callable[[Table], Phase]
    moves: Mapping[type[mv.Move], MoveToMessage]
    audit: Audit = audit_deal


def all_seats(table: Table) -> list[int]:
    """Every seat, in seat order: the order of a parallel phase."""
    return list(range(table.n_seats))
