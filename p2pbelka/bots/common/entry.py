"""What a game's bots say of themselves to the registry: :class:`GameBots`.

A game's bot package fills one in (``bots/<game>/seat.py``) and
:mod:`p2pbelka.bots.registry` lists it under the game's name, the name a
table's setup gives (``table.state.setup.game``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2pbelka.bots.common.coach import Coach
from p2pbelka.bots.common.levels import BotLevel
from p2pbelka.bots.common.seat import SeatBot
from p2pbelka.bots.common.tournament import Tournament


@dataclass(frozen=True, slots=True)
class GameBots:
    """One game's bots: their levels, how a seat bot of a level is built, its tournament."""

    game: str
    """The game's name (``rules.registry.spec(game)``)."""
    levels: tuple[str, ...]
    """Every level's name, the weakest first."""
    thinking: Mapping[str, int]
    """The levels that think at more than one level (``strong:N``), to their highest."""
    make: Callable[[BotLevel, int | None], SeatBot]
    """The seat bot of a level (one of :attr:`levels`, think level checked), seeded."""
    tournament: Tournament | None = None
    """Matches between levels on the game's rules alone, if the game has them."""
    coach: Coach | None = None
    """Grades one seat's decisions in a finished game (``replay --coach``), if the game has one."""
