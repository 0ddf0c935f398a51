"""Belot as every layer sees it: two or three seats, each for themself, one preset and
three options."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.belot import options, records
from p2pbelka.rules.belot.game import GAME as GAME  # still spec.GAME, as before
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.common.options import OptionError
from p2pbelka.rules.spec import GameSpec

PRESET = "classic"
SEAT_COUNTS = (2, 3)

FOUR_POINTS = ("0", "20", "50", "100", "150", "200")
"""Points for four eights or four sevens offered in a menu ("0": not a combination);
any other number from 0 to 200 is accepted where one is typed."""


def _check_rules(preset: str, values: Mapping[str, str]) -> None:
    if preset != PRESET:
        raise OptionError(f"Belot has no preset {preset!r:.20} (use {PRESET!r} and options)")
    options.belot_options(dict(values))


def _teams(seats: int) -> tuple[tuple[int, ...], ...]:
    return tuple((seat,) for seat in range(seats))


SPEC = GameSpec(
    name=GAME,
    title="Belot",
    seat_counts=SEAT_COUNTS,
    default_seats=3,
    presets=(PRESET,),
    menu={
        "hanging_twice": options.HANGING_TWICE,
        "four_eights": FOUR_POINTS,
        "four_sevens": FOUR_POINTS,
    },
    preset_values=lambda preset: dict(options.DEFAULTS),
    check_rules=_check_rules,
    teams=_teams,
    records=records,  # a module with the format's functions
    summary_from_json=BelotSummary.from_json,
)
