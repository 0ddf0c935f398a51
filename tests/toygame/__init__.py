"""A third game, in the tests only: Toy, a plain trick-taking game for two.

It exists to prove that a game joins every layer through the registries alone,
touching no shared file.  Its parts sit as a built-in game's do, one folder a layer:
its rules engine, summary and spec (``rules/``), its track and phases at the table
(``table/``), its bots (``bots/``), its screen (``ui/``: two functions) and a
benchmark of its own (``bench/``); :func:`register` adds it to every layer's
registry and :func:`unregister` takes it away.
"""

from __future__ import annotations

from p2pbelka.bench import registry as bench_registry
from p2pbelka.bots import registry as bots_registry
from p2pbelka.rules import registry as rules_registry
from p2pbelka.table import registry as table_registry
from p2pbelka.ui import registry as ui_registry
from tests.toygame.bench import BENCH
from tests.toygame.bots.seat import BOTS
from tests.toygame.rules import game as rules
from tests.toygame.rules.spec import SPEC
from tests.toygame.table.track import PHASES, ToyTrack
from tests.toygame.ui.screen import UI


def register() -> None:
    """Toy joins every layer's registry (and nothing else changes)."""
    rules_registry.register(SPEC)
    table_registry.register(rules.NAME, ToyTrack, PHASES)
    bots_registry.register(BOTS)
    bench_registry.register(BENCH)
    ui_registry.register(UI)


def unregister() -> None:
    ui_registry.unregister(rules.NAME)
    bench_registry.unregister(rules.NAME)
    bots_registry.unregister(rules.NAME)
    table_registry.unregister(rules.NAME)
    rules_registry.unregister(rules.NAME)
