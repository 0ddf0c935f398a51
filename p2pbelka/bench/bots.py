"""The benches' bots of each game, by the game's name.

``p2pbelka bench bots [--game G]``: how long each bot level of a game takes to
decide, on one core (Belka's in :mod:`p2pbelka.bench.belka_bots`, Belot's in
:mod:`p2pbelka.bench.belot_bots`); :func:`sparring`: the opponents written apart
from a game's bots to measure them against (``tournament --b rules``), for the
games that have them (:mod:`p2pbelka.bench.belka_opponents`).
"""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bench import belka_bots, belka_opponents, belot_bots
from p2pbelka.bots.common.tournament import BotFactory
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


SPARRING: dict[str, tuple[dict[str, type], BotFactory]] = {
    belka_opponents.GAME: (belka_opponents.SPARRING, belka_opponents.bench_bot),
}
"""Each game's sparring partners by name, and a factory of its bots and of them."""


def sparring(game: str) -> tuple[dict[str, type], BotFactory | None]:
    """``game``'s sparring partners by name, and the factory that builds them and the
    game's own levels (for the tournament's workers); none and None for a game without."""
    partners, factory = SPARRING.get(game, ({}, None))
    return dict(partners), factory
