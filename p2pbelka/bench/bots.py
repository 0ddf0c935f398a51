"""The benches' bots of each game, by the game's name.

``p2pbelka bench bots [--game G]``: how long each bot level of a game takes to
decide, on one core (Belka's in :mod:`p2pbelka.bench.games.belka.bots`, Belot's in
:mod:`p2pbelka.bench.games.belot.bots`); :func:`sparring`: the opponents written apart
from a game's bots to measure them against (``tournament --b rules``), for the
games that have them (:mod:`p2pbelka.bench.games.belka.opponents`).
"""

from __future__ import annotations

from p2pbelka.bench.registry import game_part
from p2pbelka.bots.common.tournament import BotFactory
from p2pbelka.rules.registry import DEFAULT


def run(quick: bool = False, game: str = DEFAULT, think: int | None = None) -> dict[str, object]:
    """The figures of ``game``'s bots (its part ``bench/games/<game>/bots.py``: ``run(quick,
    think)``); ``think``: time ``strong:N`` (``--think N``) too."""
    part = game_part("bots", game)
    if part is None:
        raise ValueError(f"no bot timings for {game!r}")
    figures: dict[str, object] = part.run(quick, think)
    return figures


def sparring(game: str) -> tuple[dict[str, type], BotFactory | None]:
    """``game``'s sparring partners by name (its part ``bench/games/<game>/opponents.py``:
    ``SPARRING``, ``bench_bot``), and the factory that builds them and the game's own
    levels (for the tournament's workers); none and None for a game without."""
    part = game_part("opponents", game)
    if part is None:
        return {}, None
    partners: dict[str, type] = dict(part.SPARRING)
    factory: BotFactory = part.bench_bot
    return partners, factory
