"""Where a benchmark finds a game's own part: ``p2pbelka.bench.<game>_<topic>``.

A figure that only one game has (Belot's bidding, Belka's legal-card masks) is
measured by a module of that game's own, named after it; a shared benchmark asks
for it by the game's registered name, and so names no game itself.  A game
without a part of its own is measured by the shared code alone.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from p2pbelka.rules import registry


def game_part(topic: str, game: str) -> ModuleType | None:
    """The module measuring ``topic`` for ``game``, if the game has one (``ValueError``
    for a game this version does not play)."""
    registry.spec(game)
    name = f"p2pbelka.bench.{game}_{topic}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # the part exists, and something it imports does not
            raise
        return None
