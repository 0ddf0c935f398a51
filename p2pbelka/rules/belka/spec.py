"""Belka as every layer sees it: four seats in two teams, two presets and house options."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules.belka import options, records
from p2pbelka.rules.belka.game import GAME, SEATS
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.spec import GameSpec


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
    records=records,  # a module with the format's functions
    summary_from_json=BelkaSummary.from_json,
)
