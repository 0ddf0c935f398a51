"""The arguments that pick a game and its table (``--game``, ``--players``, ``--preset``),
their help written from the registry, so a command lists every game without naming one."""

from __future__ import annotations

import argparse

from p2pbelka.rules import registry
from p2pbelka.rules.spec import GameSpec
from p2pbelka.ui.words.i18n import _


def _title(spec: GameSpec) -> str:
    # the catalogue has each game's title (its screen's words): no game named here
    return _(spec.title)


def _or(words: list[str]) -> str:
    return _(" or ").join(words)


def _counts(spec: GameSpec) -> str:
    counts = _or([str(n) for n in spec.seat_counts])
    if len(spec.seat_counts) == 1:
        return f"{_title(spec)} {counts}"
    return _("{game} {counts} (default {n})").format(
        game=_title(spec), counts=counts, n=spec.default_seats
    )


def players_help() -> str:
    """``seats: Belka 4; Belot 2 or 3 (default 3)``: every game's seat counts."""
    every = "; ".join(_counts(registry.spec(name)) for name in registry.names())
    return _("seats: {counts}").format(counts=every)


def _presets(spec: GameSpec) -> str:
    first, *others = spec.presets
    default = _("{preset} (default)").format(preset=first) if others else first
    return f"{_title(spec)}: " + _or([default, *others])


def presets_help() -> str:
    """``Belka: classic (default) or eyes; Belot: classic``: every game's presets."""
    return "; ".join(_presets(registry.spec(name)) for name in registry.names())


def add_game_argument(parser: argparse.ArgumentParser, what: str | None = None) -> None:
    """``--game NAME``, one of the registered games, the default game if left out."""
    what = _("the game") if what is None else what
    parser.add_argument(
        "--game",
        choices=registry.names(),
        default=registry.DEFAULT,
        help=_("{what} (default {game})").format(what=what, game=registry.DEFAULT),
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
    return _(", or ").join(table_name(name) for name in registry.names())


def table_name(game: str) -> str:
    """A table's name on the LAN when its host gives none (``Belka table``)."""
    return f"{registry.spec(game).title} table"


def add_coach_option(parser: argparse.ArgumentParser) -> None:
    """``--coach`` as every command that seats the player gives it (``play``, ``host``,
    ``join``, ``resume``)."""
    parser.add_argument(
        "--coach",
        action="store_true",
        help=_("at each deal's end, show which of your decisions cost the most (the coach)"),
    )
    parser.add_argument(
        "--coach-worlds",
        type=_worlds,
        default=None,
        metavar="N",
        help=_(
            "with --coach: the deals the coach draws to grade each decision (default 80;"
            " fewer is quicker and noisier)"
        ),
    )


def _worlds(text: str) -> int:
    """``--coach-worlds``: a whole number, 2 or more (a mean over fewer is no mean)."""
    try:
        worlds = int(text)
    except ValueError:
        worlds = 0
    if worlds < 2:
        raise argparse.ArgumentTypeError(_("--coach-worlds must be 2 or more"))
    return worlds
