"""``p2pbelka bench bounds``: what one seated peer can make another hold, or send, at a
table of the default game (its own part, ``bench/games/<game>/bounds.py``, sets the
table up and attacks it)."""

from __future__ import annotations

from p2pbelka.bench.registry import game_part
from p2pbelka.rules.registry import DEFAULT


def run(quick: bool = False) -> dict[str, object]:
    part = game_part("bounds", DEFAULT)
    if part is None:
        raise ValueError(f"no bounds figures for {DEFAULT!r}")
    figures: dict[str, object] = part.run(quick)
    return figures
