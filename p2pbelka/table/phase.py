"""The phases of a game at the table, and the two things a phase's code can say:
stop the game naming faults (``Abort``), or ask the local player (``Question``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv


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
