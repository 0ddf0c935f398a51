"""``p2pbelka bench solver [--game G]``: how fast a game's exact (double-dummy) search
solves whole worlds, for the games that have a compiled one (each game's own part:
:func:`p2pbelka.bench.registry.game_part`)."""

from __future__ import annotations

from p2pbelka.bench.registry import game_part
from p2pbelka.rules.registry import DEFAULT


def run(quick: bool = False, game: str = DEFAULT) -> dict[str, object]:
    part = game_part("solver", game)
    if part is None:
        raise ValueError(f"no solver figures for {game!r}: it has no compiled solver yet")
    figures: dict[str, object] = part.run(quick)
    return figures
