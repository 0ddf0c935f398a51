"""``p2pbelka bench model [--game G]``: how well the bots' model of the hidden hands fits
games between different bots, for the games that have such a model (each game's own
part: :func:`p2pbelka.bench.registry.game_part`)."""

from __future__ import annotations

from p2pbelka.bench.registry import game_part
from p2pbelka.rules.registry import DEFAULT


def run(quick: bool = False, game: str = DEFAULT) -> dict[str, object]:
    part = game_part("model", game)
    if part is None:
        raise ValueError(f"no model figures for {game!r}: its bots have no model to measure")
    figures: dict[str, object] = part.run(quick)
    return figures
