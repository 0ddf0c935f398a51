"""Table options for Belka: two presets and every house rule, switchable by name.

Every option has a string value, so a table can be configured from a command
line, a lobby message or a game record alike::

    options_from("classic", {"eggs": "double", "no_unled_ace_discard": "on"})

Unknown names and values raise :class:`OptionError` naming the allowed ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Final

from p2pbelka.rules.common.options import OptionError

TARGET: Final = 12
"""Game points to win (classic) and eyes per team (eyes variant)."""

CHOICES: Final[Mapping[str, tuple[str, ...]]] = {
    # "classic": game points are won; "eyes": eyes are opened against the losers.
    "scoring": ("classic", "eyes"),
    # Suits taken by the seats after the first deal's J♣ holder, in play order.
    "trump_order": ("HSD", "DSH"),
    "first_lead": ("after_dealer", "before_dealer"),
    "no_unled_ace_discard": ("off", "on"),
    # 120 card points: win the game, start a new one (count of games won), or nothing special.
    "goli": ("wins_game", "continues", "off"),
    # What the next deal with a winner gets after 60:60.
    "eggs": ("plus4", "four", "double", "none"),
    "first_deal_two": ("off", "on"),
    # Taking all eight tricks.
    "all_tricks": ("off", "wins_game"),
}

PRESETS: Final[Mapping[str, Mapping[str, str]]] = {
    "classic": {
        "scoring": "classic",
        "trump_order": "HSD",
        "first_lead": "after_dealer",
        "no_unled_ace_discard": "off",
        "goli": "wins_game",
        "eggs": "plus4",
        "first_deal_two": "off",
        "all_tricks": "off",
    },
    "eyes": {
        "scoring": "eyes",
        "trump_order": "HSD",
        "first_lead": "after_dealer",
        "no_unled_ace_discard": "off",
        "goli": "off",
        "eggs": "four",
        "first_deal_two": "off",
        "all_tricks": "wins_game",
    },
}


@dataclass(frozen=True, slots=True)
class Options:
    """One table's rules.  Build with :func:`options_from`; fields hold the string values."""

    preset: str = "classic"
    scoring: str = "classic"
    trump_order: str = "HSD"
    first_lead: str = "after_dealer"
    no_unled_ace_discard: str = "off"
    goli: str = "wins_game"
    eggs: str = "plus4"
    first_deal_two: str = "off"
    all_tricks: str = "off"

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise OptionError(f"unknown preset {self.preset!r} (expected one of {_list(PRESETS)})")
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise OptionError(
                    f"option {name}: unknown value {value!r} (expected one of {_list(allowed)})"
                )

    @property
    def eyes(self) -> bool:
        return self.scoring == "eyes"

    @property
    def ace_rule(self) -> bool:
        return self.no_unled_ace_discard == "on"

    def to_dict(self) -> dict[str, str]:
        """Every option by name (the preset name excluded)."""
        return {name: getattr(self, name) for name in CHOICES}

    def changes(self) -> dict[str, str]:
        """The options that differ from the preset."""
        base = PRESETS[self.preset]
        return {k: v for k, v in self.to_dict().items() if base[k] != v}


def options_from(preset: str = "classic", overrides: Mapping[str, str] | None = None) -> Options:
    """The preset's options with ``overrides`` (option name -> string value) applied."""
    if preset not in PRESETS:
        raise OptionError(f"unknown preset {preset!r} (expected one of {_list(PRESETS)})")
    values = dict(PRESETS[preset])
    for name, value in (overrides or {}).items():
        if name not in CHOICES:
            raise OptionError(f"unknown option {name!r} (expected one of {_list(CHOICES)})")
        if not isinstance(value, str):
            raise OptionError(f"option {name}: value must be a string, got {value!r}")
        values[name] = value
    return Options(preset=preset, **values)


def _list(names: Iterable[object]) -> str:
    return ", ".join(str(n) for n in names)


assert [f.name for f in fields(Options)][1:] == list(CHOICES)
