"""The arguments that pick a game and its table (``--game``, ``--players``, ``--preset``),
their help written from the registry, so a command lists every game without naming one."""

from __future__ import annotations

import argparse

from p2pbelka.rules import registry
from p2pbelka.rules.spec import GameSpec


def _counts(spec: GameSpec) -> str:
    counts = " or ".join(str(n) for n in spec.seat_counts)
    if len(spec.seat_counts) == 1:
        return f"{spec.title} {counts}"
    return f"{spec.title} {counts} (default {spec.default_seats})"


def players_help() -> str:
    """``seats: Belka 4; Belot 2 or 3 (default 3)``: every game's seat counts."""
    return "seats: " + "; ".join(_counts(registry.spec(name)) for name in registry.names())


def _presets(spec: GameSpec) -> str:
    first, *others = spec.presets
    return f"{spec.title}: " + " or ".join([f"{first} (default)" if others else first, *others])


def presets_help() -> str:
    """``Belka: classic (default) or eyes; Belot: classic``: every game's presets."""
    return "; ".join(_presets(registry.spec(name)) for name in registry.names())


def add_game_argument(parser: argparse.ArgumentParser, what: str = "the game") -> None:
    """``--game NAME``, one of the registered games, the default game if left out."""
    parser.add_argument(
        "--game",
        choices=registry.names(),
        default=registry.DEFAULT,
        help=f"{what} (default {registry.DEFAULT})",
    )


def add_players_argument(parser: argparse.ArgumentParser) -> None:
    """``--players N``, the game's default seats if left out."""
    parser.add_argument("--players", type=int, default=None, help=players_help())


def seats_of(game: str, players: int | None) -> int:
    """The seats of a table of ``game``: ``players``, or the game's default (``ValueError``
    for a count the game is not played by)."""
    spec = registry.spec(game)
    seats = spec.default_seats if players is None else players
    spec.check_seats(seats)
    return seats


def table_help() -> str:
    """``Belka table, or Belot table``: the name each game's table gets when not given."""
    return ", or ".join(table_name(name) for name in registry.names())


def table_name(game: str) -> str:
    """A table's name on the LAN when its host gives none (``Belka table``)."""
    return f"{registry.spec(game).title} table"
