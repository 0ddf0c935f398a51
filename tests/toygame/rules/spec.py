"""Toy's spec: what every layer asks of its rules (``rules.registry.spec("toy")``)."""

from __future__ import annotations

from p2pbelka.rules.spec import GameSpec
from tests.toygame.rules import game as rules
from tests.toygame.rules.summary import ToySummary

SPEC = GameSpec(
    name=rules.NAME,
    title="Toy",
    seat_counts=(rules.SEATS,),
    default_seats=rules.SEATS,
    presets=("plain",),
    menu={"deals": rules.DEALS},
    preset_values=lambda preset: {"deals": "2"},
    check_rules=rules.check_rules,
    teams=lambda seats: tuple((seat,) for seat in range(seats)),
    records=rules,
    summary_from_json=ToySummary.from_json,
)
