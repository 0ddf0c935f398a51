"""What a game says of itself to every layer: :class:`GameSpec`.

A game's package fills one in (``rules/<game>/spec.py``) and the registry
(:mod:`p2pbelka.rules.registry`) lists it by name.  Code outside the games asks
the spec instead of naming a game: how many seats, who plays with whom, which
presets and options, how a JSON record is read, replayed and reported, how a deal's
summary is read back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from p2pbelka.rules.common.summary import DealSummary

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    R = TypeVar("R", default=Any)
    G = TypeVar("G", default=Any)
else:
    from typing import TypeVar

    R = TypeVar("R")
    G = TypeVar("G")
"""A game's parsed record (``R``) and its rules-engine state (``G``).  A bare
``RecordFormat`` (a spec's: any game) is ``RecordFormat[Any, Any]``; a game's records
module is a ``RecordFormat[ItsRecord, ItsGame]`` (Python 3.11's ``TypeVar`` takes no
default, hence the two spellings)."""


class RecordFormat(Protocol[R, G]):
    """A game's JSON game records (the referee's input): read, replay, report, write."""

    def parse_record(self, data: object) -> R:
        """The record in ``data`` (decoded JSON); ``RecordError`` naming the JSON path."""
        ...

    def replay_record(self, record: R) -> G:
        """The game the record's actions lead to; ``RuleViolation`` at the first illegal one."""
        ...

    def report(self, game: G) -> dict[str, object]:
        """The game as the rules score it, as JSON."""
        ...

    def game_to_record(self, game: G) -> dict[str, object]:
        """A game as a record (the inverse of replaying one)."""
        ...

    def finished_to_record(self, game: G) -> dict[str, object]:
        """The record of the game's finished deals alone: what ``verify --record``
        writes, since a deal cut short holds hands nobody saw."""
        ...


class LazyRecords:
    """A game's records module (its :class:`RecordFormat`), imported when first used:
    the referee, ``verify`` and the replays read records, a table playing a game never
    does, and a game's spec is read by every command (its help names every game)."""

    def __init__(self, load: Callable[[], RecordFormat]) -> None:
        self._load = load

    @functools.cached_property
    def _format(self) -> RecordFormat:
        return self._load()

    def parse_record(self, data: object) -> Any:
        return self._format.parse_record(data)

    def replay_record(self, record: Any) -> Any:
        return self._format.replay_record(record)

    def report(self, game: Any) -> dict[str, object]:
        return self._format.report(game)

    def game_to_record(self, game: Any) -> dict[str, object]:
        return self._format.game_to_record(game)

    def finished_to_record(self, game: Any) -> dict[str, object]:
        return self._format.finished_to_record(game)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game, as every layer may ask about it without naming it."""

    name: str
    """The name a ``table`` envelope, a record's ``game`` field and ``--game`` give."""
    title: str
    """The game's name for people (``Belka``)."""
    seat_counts: tuple[int, ...]
    """The numbers of seats the game is played by, smallest first."""
    default_seats: int
    """The seats a table has when nobody says (``--players`` left out)."""
    presets: tuple[str, ...]
    """The presets, the default first."""
    menu: Mapping[str, tuple[str, ...]]
    """Every option with the values a menu offers, in the rules' order (a game may
    accept other values where one is typed: :attr:`check_rules` decides)."""
    preset_values: Callable[[str], dict[str, str]]
    """Every option's value under a preset alone."""
    check_rules: Callable[[str, Mapping[str, str]], None]
    """Raise ``ValueError`` (an ``OptionError``) for an unknown preset, option or value."""
    teams: Callable[[int], tuple[tuple[int, ...], ...]]
    """The sides at a table of that many seats, each a tuple of seats (one seat each
    in a game played each for oneself)."""
    records: RecordFormat
    """The game's JSON records."""
    summary_from_json: Callable[[object, str], DealSummary]
    """A deal's summary read back from its ``to_json`` (decoded JSON, and its path in
    the document it came from: ``""`` for the whole); ``RecordError`` names the JSON
    path of a malformed field."""

    @property
    def partnership(self) -> bool:
        """Seats play in teams of more than one."""
        return any(len(team) > 1 for team in self.teams(self.default_seats))

    def check_seats(self, seats: int) -> None:
        """``ValueError`` unless the game is played by ``seats``."""
        if seats not in self.seat_counts:
            counts = " or ".join(str(n) for n in self.seat_counts)
            raise ValueError(f"{self.title} is played by {counts}, not {seats}")
