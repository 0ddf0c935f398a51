"""The games a table can run, by the name a table description gives."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.table.belka import BelkaTrack
from p2pbelka.table.track import GameTrack

GAMES: Mapping[str, type[GameTrack]] = {BelkaTrack.name: BelkaTrack}


def track_class(game: str) -> type[GameTrack]:
    """The track of the game ``game`` (``ValueError`` naming the games known)."""
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(
            f"unknown game {game!r:.20} (this version plays {', '.join(GAMES)})"
        ) from None
