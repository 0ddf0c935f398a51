"""Toy as every layer sees it, and its registration in each layer's registry."""

from __future__ import annotations

from p2pbelka.bots import registry as bots_registry
from p2pbelka.rules import registry as rules_registry
from p2pbelka.rules.spec import GameSpec
from p2pbelka.table import registry as table_registry
from p2pbelka.ui import registry as ui_registry
from tests.toygame import rules
from tests.toygame.bot import BOTS
from tests.toygame.screen import UI
from tests.toygame.summary import ToySummary
from tests.toygame.table import PHASES, ToyTrack

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


def register() -> None:
    """Toy joins every layer's registry (and nothing else changes)."""
    rules_registry.register(SPEC)
    table_registry.register(rules.NAME, ToyTrack, PHASES)
    bots_registry.register(BOTS)
    ui_registry.register(UI)


def unregister() -> None:
    ui_registry.unregister(rules.NAME)
    bots_registry.unregister(rules.NAME)
    table_registry.unregister(rules.NAME)
    rules_registry.unregister(rules.NAME)
