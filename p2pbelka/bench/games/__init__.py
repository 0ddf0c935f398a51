"""Each game's own benchmarks, in a folder of its own (``bench/games/<game>/``), and
what such a folder says of itself to ``bench/registry.py``: :class:`GameBench`.

A figure that only one game has (Belot's bidding, Belka's legal-card masks) is
measured by a module of that game's folder named after its topic (``rules.py`` for
``p2pbelka bench rules``, ``paths.py`` for the path vectors...); the shared
benchmark of the topic asks the registry for it by the game's name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True, slots=True)
class GameBench:
    """One game's own benchmarks: the topics it has a part for, and where they are."""

    game: str
    """The game's name (``rules.registry.spec(game)``)."""
    package: str
    """The package holding the parts, one module per topic (``package.topic``)."""
    topics: frozenset[str]
    """The topics the game has a part for: the names of those modules."""

    def part(self, topic: str) -> ModuleType | None:
        """The module measuring ``topic``, imported when first asked for (a benchmark
        loads only the game code it measures); None for a topic the game has no part
        of."""
        if topic not in self.topics:
            return None
        return importlib.import_module(f"{self.package}.{topic}")
