"""Belka as every layer sees it: four seats in two teams, two presets and house options."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.belka import options
from p2pbelka.rules.belka.name import GAME, SEATS
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.rules.spec import GameSpec, LazyRecords, RecordFormat

# Every command reads the spec (its help names each game's presets and seats): the
# rules engine, its records and its summaries are imported where they are used.


def _records() -> RecordFormat:
    from p2pbelka.rules.belka import records

    return records


def _summary_from_json(value: object, path: str) -> DealSummary:
    from p2pbelka.rules.belka.summary import BelkaSummary

    return BelkaSummary.from_json(value, path)


def _check_rules(preset: str, values: Mapping[str, str]) -> None:
    options.options_from(preset, dict(values))


def _teams(seats: int) -> tuple[tuple[int, ...], ...]:
    return ((0, 2), (1, 3))  # partners sit opposite


SPEC = GameSpec(
    name=GAME,
    title="Belka",
    seat_counts=(SEATS,),
    default_seats=SEATS,
    presets=tuple(options.PRESETS),
    menu=dict(options.CHOICES),
    preset_values=lambda preset: dict(options.PRESETS[preset]),
    check_rules=_check_rules,
    teams=_teams,
    records=LazyRecords(_records),  # the records module's functions
    summary_from_json=_summary_from_json,
)
