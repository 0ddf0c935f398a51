"""Every game's rules as a menu: its presets, each option's values, and what a table's
preset and overrides come to.  The lobby shows and changes rules with it.

Each game's spec (``rules.registry.spec``) gives its presets and the values a
menu offers; a game may accept other values where one is typed.
"""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.registry import spec


def presets(game: str) -> tuple[str, ...]:
    """The presets of ``game`` (``ValueError`` for a game this version does not play)."""
    return spec(game).presets


def choices(game: str) -> dict[str, tuple[str, ...]]:
    """Every option of ``game`` with the values a menu offers, in the rules' order."""
    return dict(spec(game).menu)


def preset_values(game: str, preset: str) -> dict[str, str]:
    """Every option's value under ``preset`` alone."""
    return spec(game).preset_values(preset)


def resolved(game: str, preset: str, overrides: Mapping[str, str]) -> dict[str, str]:
    """Every option's value at a table of ``preset`` with ``overrides`` (checked:
    ``ValueError`` naming what the game refuses)."""
    spec(game).check_rules(preset, dict(overrides))
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
