"""``p2pbelka bench bots [--game G]``: how long each bot level of a game takes to decide,
on one core: Belka's in :mod:`p2pbelka.bench.belka_bots`, Belot's in
:mod:`p2pbelka.bench.belot_bots`.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bench import belka_bots, belot_bots
from p2pbelka.rules.registry import DEFAULT

TIMINGS: dict[str, Callable[[bool, int | None], dict[str, object]]] = {
    belka_bots.GAME: belka_bots.run,
    belot_bots.GAME: belot_bots.run,
}
"""Each game's bot timings, by the game's name: ``(quick, think) -> figures``."""


def run(quick: bool = False, game: str = DEFAULT, think: int | None = None) -> dict[str, object]:
    """The figures of ``game``'s bots; ``think``: time ``strong:N`` (``--think N``) too."""
    timing = TIMINGS.get(game)
    if timing is None:
        raise ValueError(f"no bot timings for {game!r} (only {', '.join(TIMINGS)})")
    return timing(quick, think)
