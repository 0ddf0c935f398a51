"""What the runner of a game's segments and the reclaimer share, said in one place.

``runner.SeatChangeRunner`` runs the segments and writes this; ``reclaim.Reclaimer``
reads it (and appends to the transcript when it adopts a game a peer sent).  The
segment in play and whether our seat is a bot's are the seat-change machine's
(``machine.SeatChange``), read through it, so nothing here can disagree with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.drivers import SegmentDriver
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table


@dataclass
class SeatState:
    """A game played in segments, as this peer holds it."""

    mesh: Mesh
    signer: Signer
    """This player's own key."""
    home_seat: int
    """The seat this player sat down in."""
    first_segment: bytes
    writer: TranscriptWriter
    transcript: list[Envelope]
    """Every segment's envelopes, as the transcript file has them (kept in step)."""
    change: SeatChange
    driver: SegmentDriver | None = None
    """The seat's driver in the segment in play (the runner sets it on entering)."""
    ending: ev.GameOver | ev.GameAborted | None = None
    """How the game ended without us, as a peer's copy of it says (the reclaimer
    learned it; the runner tells the front end once it follows that game)."""

    @property
    def table(self) -> Table | None:
        return self.change.table

    @property
    def segment(self) -> bytes:
        return self.change.segment

    @property
    def watching(self) -> bool:
        """A bot plays our seat: our table is an observer's."""
        return self.change.watching
