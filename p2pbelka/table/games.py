"""The games a table can run, by the name a table description gives: each game's track
and its whole schedule (the common phases of ``flow.py`` with the game's own)."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.belka.game import SEATS as BELKA_SEATS
from p2pbelka.table import belot, flow
from p2pbelka.table.belka import BelkaTrack
from p2pbelka.table.belot import BelotTrack
from p2pbelka.table.flow import Schedule
from p2pbelka.table.track import GameTrack

GAMES: Mapping[str, type[GameTrack]] = {BelkaTrack.name: BelkaTrack, BelotTrack.name: BelotTrack}

SCHEDULES: Mapping[str, Schedule] = {
    **flow.SCHEDULES,
    # Belot's phases use the common handlers of flow.py, so its schedule is put together
    # here rather than in flow.py (which would import it back).
    BelotTrack.name: flow.schedule_for(belot.PHASES),
}
"""Every game's schedule, by the name a table description gives."""


def track_class(game: str) -> type[GameTrack]:
    """The track of the game ``game`` (``ValueError`` naming the games known)."""
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(
            f"unknown game {game!r:.20} (this version plays {', '.join(GAMES)})"
        ) from None


SEAT_COUNTS: Mapping[str, tuple[int, ...]] = {
    BelkaTrack.name: (BELKA_SEATS,),
    BelotTrack.name: belot.SEAT_COUNTS,
}
"""The numbers of seats each game is played by."""


def seat_counts(game: str) -> tuple[int, ...]:
    """The seat counts ``game`` is played by (``ValueError`` naming the games known)."""
    track_class(game)
    return SEAT_COUNTS[game]
