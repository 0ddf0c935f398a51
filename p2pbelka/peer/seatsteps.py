"""What the seat-change machine (``seatchange.py``) tells its runner to do.

The machine never sends, waits or asks by itself: each of its inputs leaves zero
or more of these in its outbox (``SeatChange.take``), in the order they must be
done.  The runner (``handover.py``) does them: the quick ones at once (a switch,
freezing the table, remembering an id), the ones that wait (sending, asking the
player, telling the front end) in its one task, in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.table.session import Table


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Send this seat-change control message to every other seat."""

    payload: bytes


@dataclass(frozen=True, slots=True)
class AskPlayer:
    """Ask our player about seat ``seat`` (``name``, gone ``silent`` seconds): seat
    ``bot`` in its place, or (``back``) hand it back to its player ``bot``?  The
    answer comes back as ``SeatChange.answered(ask, ...)``; none by ``timeout``
    seconds is no (the machine counts the time itself too)."""

    ask: int
    seat: int
    name: str
    silent: float
    bot: str
    back: bool
    timeout: float


@dataclass(frozen=True, slots=True)
class Switch:
    """Stop the segment in play and go on in ``table`` (with the bots' ``bots``, each
    its table and seat); then tell the machine with ``SeatChange.enter``."""

    table: Table
    bots: tuple[tuple[Table, int], ...]


@dataclass(frozen=True, slots=True)
class Closed:
    """The change about ``seat`` came to nothing: ``why``.  ``back``: it was a seat
    handed back to its player (the bot plays on, nobody is told); else the front
    end is told (``OfferClosed``) and the driver ends the game as before."""

    seat: int
    why: str
    back: bool = False


@dataclass(frozen=True, slots=True)
class Freeze:
    """Stop the seat's table where it stands: a change is being decided at this cut."""


@dataclass(frozen=True, slots=True)
class Thaw:
    """Go on with the segment in play (if the table is frozen)."""


@dataclass(frozen=True, slots=True)
class Remember:
    """Keep ``segment`` in this machine's list of ids, durably, before anything is
    signed in it (done before any later step of the same batch)."""

    segment: bytes


@dataclass(frozen=True, slots=True)
class Replaced:
    """A continuation gave our seat to another key while we were still in the segment
    before it (we came back during the offer): fetch the game and watch it."""


Step = Broadcast | AskPlayer | Switch | Closed | Freeze | Thaw | Remember | Replaced
