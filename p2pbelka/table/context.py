"""What the code of a phase may see and do of its table: ``TableContext``.

A phase's handlers, orders, own messages and closing work (``phase.Step``) receive
the table as this protocol and nothing more, so the phases (``flow.py``) and the
games (``belka.py``, ``belot.py``) depend on it and never on ``session.Table``;
``state.TableState``, which the runner hands them, satisfies it.  Every member here
is one a phase uses.
"""

from __future__ import annotations

from typing import Protocol

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.dealsetup import LotDraw
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack


class TableContext(Protocol):
    # -- who sits where, and what the table description says ---------------------------

    @property
    def game_id(self) -> bytes: ...

    @property
    def table_digest(self) -> bytes:
        """The hash of the ``table`` envelope every seat sits down to."""
        ...

    @property
    def me(self) -> int | None:
        """The local seat, or None for an observer."""
        ...

    @property
    def n_seats(self) -> int: ...

    @property
    def host_seat(self) -> int: ...

    @property
    def flow(self) -> int:
        """The schedule revision the table description names."""
        ...

    @property
    def carries_commitments(self) -> bool:
        """A ``deal_end`` carries its sender's commitment for the next deal (flow 2)."""
        ...

    # -- where the game stands ---------------------------------------------------------

    @property
    def phase(self) -> str: ...

    @property
    def deal_id(self) -> int: ...

    @property
    def started(self) -> bool:
        """The game has a track: the lot is drawn, or a continuation took it over."""
        ...

    @property
    def track(self) -> GameTrack: ...

    @property
    def round(self) -> DealRound: ...

    @property
    def lots(self) -> LotDraw: ...

    # -- what a phase does --------------------------------------------------------------

    def emit(self, event: ev.Event) -> None: ...

    def fault(
        self, seat: int, what: str, envelope: Envelope | None = None, fatal: bool = True
    ) -> ev.Fault:
        """A fault proven by ``seat``'s envelope (by default the last one accepted)."""
        ...

    def dispute(self, seat: int, what: str) -> None:
        """Note a problem no seat can be blamed for yet: the audit will decide."""
        ...

    def open_position(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        ...

    def draw_secret(self) -> bytes: ...

    def start_game(self, first_dealer: int) -> None:
        """The lot is drawn: the game starts, and its first deal."""
        ...

    def continue_game(self) -> bool:
        """In a continuation segment, go on with the game the segment before left
        (True); False in a game's first segment."""
        ...

    def begin_deal(self) -> None: ...

    def upcoming_commitment(self) -> bytes:
        """The local seat's commitment for the next deal id."""
        ...

    def carry_commitment(self, seat: int, commitment: bytes) -> None:
        """``seat``'s commitment for the next deal id, from its ``deal_end``."""
        ...
