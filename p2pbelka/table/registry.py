"""The games a table can run, under the names their rules go by (``p2pbelka.rules.registry``):
each game's track and its own phases, and the whole schedule they make with the common
phases of ``flow.py``.

The table's core names no game: it asks here.  The built-in games are listed in
this module (a registry may name them); a test adds a game of its own with
``register`` and takes it away with ``unregister``, touching no shared file.  What is
not the table's (a game's seat counts, teams, presets and options) is the rules'
spec's: ``p2pbelka.rules.registry.spec``.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.rules.common.byname import ByName
from p2pbelka.rules.registry import spec
from p2pbelka.table.flow import Schedule, schedule_for
from p2pbelka.table.phase import GamePhases, PhaseId
from p2pbelka.table.track import GameTrack


@dataclass(frozen=True, slots=True)
class TableGame:
    """One game as the table runs it."""

    track: type[GameTrack]
    phases: GamePhases
    schedule: Schedule


def _table_game(name: str, track: type[GameTrack], phases: GamePhases) -> TableGame:
    spec(name)  # the rules know it
    return TableGame(track, phases, schedule_for(phases))


def _belka() -> TableGame:
    from p2pbelka.table.games.belka.track import PHASES, BelkaTrack

    return _table_game(BelkaTrack.name, BelkaTrack, PHASES)


def _belot() -> TableGame:
    from p2pbelka.table.games.belot.track import PHASES, BelotTrack

    return _table_game(BelotTrack.name, BelotTrack, PHASES)


# A built-in game's track is loaded when a table first asks for it: a process plays one
# game, and the other's track would bring that game's whole rules engine.
_GAMES: ByName[TableGame] = ByName(
    {},
    loaders={"belka": _belka, "belot": _belot},
    taken="a table game named {name!r} is registered already",
    unknown="unknown game {name!r:.20} (this version plays {known})",
)


def register(name: str, track: type[GameTrack], phases: GamePhases) -> None:
    """Add the game the rules registry knows as ``name``: its track and its phases.
    ``ValueError`` if the rules do not know it, if the name is taken by another game,
    or if its phases do not make a schedule (see ``flow.schedule_for``)."""
    known = _GAMES.find(name)
    if known is not None and known.track is track and known.phases is phases:
        return  # the same game again
    _GAMES.add(name, _table_game(name, track, phases))


def unregister(name: str) -> None:
    """Forget a game added with :func:`register` (the built-in games stay)."""
    _GAMES.remove(name)


def names() -> tuple[str, ...]:
    """Every game a table can run, in the order they were registered."""
    return _GAMES.names()


def game(name: str) -> TableGame:
    """The game called ``name``; ``ValueError`` naming the games a table can run."""
    return _GAMES.get(name)


def track_class(name: str) -> type[GameTrack]:
    """The track of the game ``name`` (``ValueError`` naming the games known)."""
    return game(name).track


def schedule(name: str) -> Schedule:
    """The whole schedule of the game ``name`` (``ValueError`` naming the games known)."""
    return game(name).schedule


def machine(name: str) -> dict[PhaseId, frozenset[PhaseId]]:
    """The game's phases as data: each phase and the phases that may follow it."""
    return schedule(name).machine()
