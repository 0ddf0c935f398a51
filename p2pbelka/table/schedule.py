"""The schedule of a game: its phases, what each accepts, and who is dealt which position.

See protocol/SPEC.md, section 4: in a *parallel* phase every seat sends at once
and envelopes are processed in seat order; in a sequential one seats speak in
turn.
"""

from __future__ import annotations

from enum import StrEnum

from p2pbelka.cards import Card
from p2pbelka.table import events as ev

N_POSITIONS = 32
JACK_OF_CLUBS = Card.parse("JC").index
LOT_PURPOSE = b"first-dealer"


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


# The message types each phase accepts; a phase where every seat speaks once, in
# seat order, is "parallel": seats send at once and are processed in seat order.
PHASE_TYPES: dict[Phase, frozenset[str]] = {
    Phase.SIT: frozenset({"sit"}),
    Phase.LOT_COMMIT: frozenset({"lot_commit"}),
    Phase.LOT_REVEAL: frozenset({"lot_reveal"}),
    Phase.COMMIT: frozenset({"commit"}),
    Phase.SHUFFLE: frozenset({"shuffle"}),
    Phase.LOCK: frozenset({"lock"}),
    Phase.SHARES: frozenset({"shares"}),
    Phase.TRUMP: frozenset({"trump"}),
    Phase.READY: frozenset({"ready", "redeal"}),
    Phase.PLAY: frozenset({"play"}),
    Phase.REVEAL: frozenset({"reveal"}),
    Phase.DEAL_END: frozenset({"deal_end"}),
    Phase.CHOICE: frozenset({"choice"}),
}
PARALLEL = frozenset(
    {
        Phase.SIT,
        Phase.LOT_COMMIT,
        Phase.LOT_REVEAL,
        Phase.COMMIT,
        Phase.SHARES,
        Phase.TRUMP,
        Phase.READY,
        Phase.REVEAL,
        Phase.DEAL_END,
    }
)


class OrderError(ValueError):
    """A transcript whose envelopes are not in the canonical order."""


class Abort(Exception):
    """Raised by a handler: the game stops, naming these faults."""

    def __init__(self, *faults: ev.Fault) -> None:
        self.faults = faults


def deal_owners(dealer: int, n_seats: int = 4) -> tuple[int, ...]:
    """Seat of each deck position: 4 rounds of 2 cards a seat, from the seat after the dealer."""
    owners = []
    for _round in range(4):
        for offset in range(1, n_seats + 1):
            owners += [(dealer + offset) % n_seats] * 2
    return tuple(owners)
