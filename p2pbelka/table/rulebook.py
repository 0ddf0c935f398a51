"""Every game's rules as a menu: its presets, each option's values, and what a table's
preset and overrides come to.  The lobby shows and changes rules with it.

Belka has two presets and options with fixed values; Belot has one preset and
two options that take any number of points from 0 to 200, offered here as a
few common values (any other is still accepted where a value is typed).
"""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules import options as belka_options
from p2pbelka.rules.belot import options as belot_options
from p2pbelka.table import belot
from p2pbelka.table.belka import BelkaTrack
from p2pbelka.table.games import track_class

FOUR_POINTS = ("0", "20", "50", "100", "150", "200")
"""Points for four eights or four sevens offered in a menu ("0": not a combination)."""


def presets(game: str) -> tuple[str, ...]:
    """The presets of ``game`` (``ValueError`` for a game this version does not play)."""
    track_class(game)
    if game == BelkaTrack.name:
        return tuple(belka_options.PRESETS)
    return (belot.PRESET,)


def choices(game: str) -> dict[str, tuple[str, ...]]:
    """Every option of ``game`` with the values a menu offers, in the rules' order."""
    track_class(game)
    if game == BelkaTrack.name:
        return dict(belka_options.CHOICES)
    return {
        "hanging_twice": belot_options.HANGING_TWICE,
        "four_eights": FOUR_POINTS,
        "four_sevens": FOUR_POINTS,
    }


def preset_values(game: str, preset: str) -> dict[str, str]:
    """Every option's value under ``preset`` alone."""
    if game == BelkaTrack.name:
        return dict(belka_options.PRESETS[preset])
    return dict(belot_options.DEFAULTS)


def resolved(game: str, preset: str, overrides: Mapping[str, str]) -> dict[str, str]:
    """Every option's value at a table of ``preset`` with ``overrides`` (checked:
    ``ValueError`` naming what the game refuses)."""
    track_class(game).check_rules(preset, dict(overrides))
    return preset_values(game, preset) | dict(overrides)


def overrides_for(game: str, preset: str, values: Mapping[str, str]) -> dict[str, str]:
    """The shortest overrides that give ``values`` under ``preset``: the options that
    differ from the preset's own."""
    base = preset_values(game, preset)
    return {name: value for name, value in values.items() if base.get(name) != value}


def next_value(game: str, name: str, current: str, step: int = 1) -> str:
    """The value after (``step`` 1) or before (-1) ``current`` in the option's menu."""
    menu = list(choices(game)[name])
    if current not in menu:  # a typed value outside the menu: from its neighbours on
        menu.append(current)
        menu.sort(key=lambda v: int(v) if v.isdigit() else 0)
    return menu[(menu.index(current) + step) % len(menu)]
