"""What a phase of a game at the table is made of (``Step``), the phases every game
shares (``Phase``), and the two things a phase's code can say: stop the game naming
faults (``Abort``), or ask the local player (``Question``).

The common phases in order are in ``flow.py``; a game declares its own phases (an
enum of its own) and steps in its module (``GamePhases``).  A phase's value is what
the record knows of it: a dispute names it, and it keys what the local seat owes.
Each step declares the phases that may follow it (``successors``), so a game's
machine is data (``flow.Schedule.machine``); the next phase a step picks must be
one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeAlias

from p2pbelka.protocol import messages as m
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.audit import DealAudit, audit_deal
from p2pbelka.table.context import TableContext
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack

PhaseId: TypeAlias = StrEnum
"""Any phase: one of the core's (``Phase``) or one of a game's own enum."""


class Phase(StrEnum):
    """The phases every game goes through (``flow.py``)."""

    SIT = "sit"
    LOT_COMMIT = "lot_commit"
    LOT_REVEAL = "lot_reveal"
    COMMIT = "commit"
    SHUFFLE = "shuffle"
    LOCK = "lock"
    SHARES = "shares"
    PLAY = "play"
    REVEAL = "reveal"
    DEAL_END = "deal_end"
    CLOSE = "close"
    OVER = "over"
    ABORTED = "aborted"
    LEFT = "left"


FIRST = Phase.SIT
ENDS = frozenset({Phase.OVER, Phase.ABORTED, Phase.LEFT})
"""The phases a game ends in: no step.  Any phase may end in ``ABORTED`` (an
``Abort``, a proof, a dispute) or ``LEFT`` (given up on unsigned: the game stops
here unfinished, as its file reads); ``OVER`` only where a step says so."""
STOPS = frozenset({Phase.ABORTED, Phase.LEFT})
"""The ends any phase may reach, that no step names."""


class Abort(Exception):
    """Raised by a handler: the game stops, naming these faults."""

    def __init__(self, *faults: ev.Fault) -> None:
        self.faults = faults


class MachineError(AssertionError):
    """A step picked a next phase it does not declare: a bug in the schedule, never
    a peer's fault."""


@dataclass(frozen=True, slots=True)
class Question:
    """What the local seat is asked when the rules give it a choice."""

    kind: str
    moves: tuple[mv.Move, ...]


Handler = Callable[[TableContext, int, Any], None]
Order = Callable[[TableContext], list[int]]
Own = Callable[[TableContext], m.Message | Question | None]
Then = Callable[[TableContext], PhaseId]
Slot = Callable[[TableContext], int]
Action = Callable[[TableContext], None]


def leads_to(*phases: PhaseId) -> frozenset[PhaseId]:
    return frozenset(phases)


@dataclass(frozen=True, slots=True)
class Step:
    handlers: Mapping[type[m.Message], Handler]
    order: Order
    own: Own
    successors: frozenset[PhaseId]
    """The phases that may follow this one (``then`` picks one of them)."""
    then: Then | None = None
    """Which phase follows, once every speaker has spoken; None: the only successor."""
    on_exit: Action | None = None
    """Work the table does once every speaker has spoken, before ``then`` decides
    (reading the hands, starting the game or the next deal; it may raise ``Abort``)."""
    parallel: bool = True
    """Every seat sends at once (processed in ``order``); else seats speak in turn."""
    turn_based: bool = False
    """``order`` is asked again after each message (trick play, a game's own choice
    between deals)."""
    before_deals: bool = False
    """Envelopes of this phase belong to no deal (deal number 0)."""
    decision: bool = False
    """What is due may be a person's decision, which can take minutes."""
    slot: Slot | None = None
    """For a turn-based phase where one seat may send several messages in a row
    (Belot's bids, declarations and cards): which of them is due, so none is signed
    twice.  None: the speaker's place in the order."""
    prelude: Action | None = None
    """Work the table does once in this phase, after the local seat's own message
    of the phase has left and before any envelope of the phase is processed (it may
    raise ``Abort``).  The end-of-deal audit is the deal end's: a seat's
    ``deal_end`` travels while it audits."""

    def __post_init__(self) -> None:
        if self.then is None and len(self.successors) != 1:
            raise ValueError("a step with several successors must say which one follows")

    @property
    def accepts(self) -> frozenset[str]:
        return frozenset(cls.TYPE for cls in self.handlers)

    def leave(self, table: TableContext) -> PhaseId:
        """Every speaker has spoken: do the step's closing work and name the next phase
        (``MachineError`` if the step picks one it does not declare)."""
        if self.on_exit is not None:
            self.on_exit(table)
        if self.then is None:
            (only,) = self.successors
            return only
        nxt = self.then(table)
        if nxt not in self.successors:
            declared = ", ".join(sorted(self.successors))
            raise MachineError(f"the step picked {nxt}, which is not among {declared}")
        return nxt


MoveToMessage = Callable[[TableContext, Any], m.Message]


Audit = Callable[[DealRound, GameTrack], DealAudit]


@dataclass(frozen=True, slots=True)
class GamePhases:
    """What a game adds to the common schedule: its own steps (its own phases, or a
    common phase it plays its own way), the phase that follows the shares (the hands
    are read), how each of its moves becomes a message, its end-of-deal audit, and
    the phase of its own between deals, if any (Belka's eggs choice): it follows the
    deal-end reports whenever its ``order`` names a seat, else the next deal does."""

    steps: Mapping[PhaseId, Step]
    after_shares: PhaseId
    moves: Mapping[type[mv.Move], MoveToMessage]
    audit: Audit = audit_deal
    between_deals: PhaseId | None = None


def all_seats(table: TableContext) -> list[int]:
    """Every seat, in seat order: the order of a parallel phase."""
    return list(range(table.n_seats))
