"""Belot as every layer sees it: two or three seats, each for themself, one preset and
three options."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.belot import options
from p2pbelka.rules.belot.name import GAME as GAME  # (still spec.GAME, as before)
from p2pbelka.rules.common.options import OptionError
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.rules.spec import GameSpec, LazyRecords, RecordFormat

# Every command reads the spec (its help names each game's presets and seats): the
# rules engine, its records and its summaries are imported where they are used.

PRESET = "classic"
SEAT_COUNTS = (2, 3)

FOUR_POINTS = ("0", "20", "50", "100", "150", "200")
"""Points for four eights or four sevens offered in a menu ("0": not a combination);
any other number from 0 to 200 is accepted where one is typed."""


def _check_rules(preset: str, values: Mapping[str, str]) -> None:
    if preset != PRESET:
        raise OptionError(f"Belot has no preset {preset!r:.20} (use {PRESET!r} and options)")
    options.belot_options(dict(values))


def _records() -> RecordFormat:
    from p2pbelka.rules.belot import records

    return records


def _summary_from_json(value: object, path: str) -> DealSummary:
    from p2pbelka.rules.belot.summary import BelotSummary

    return BelotSummary.from_json(value, path)


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
    records=LazyRecords(_records),  # the records module's functions
    summary_from_json=_summary_from_json,
)
