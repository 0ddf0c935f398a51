"""The benchmarks' part of every game, by the game's name: what the shared benchmarks ask.

Each game's folder ``bench/games/<game>/`` says which topics it has a part for
(:class:`~p2pbelka.bench.games.GameBench`, in its ``__init__.py``); a shared benchmark
asks :func:`game_part` by the game's registered name, and so names no game itself.  A game
without a part of a topic, or without any (a test's toy game that registers none), is
measured by the shared code alone.  A game outside this package joins with
:func:`register`.
"""

from __future__ import annotations

from types import ModuleType

from p2pbelka.bench.games import GameBench
from p2pbelka.bench.games.belka import BENCH as BELKA
from p2pbelka.bench.games.belot import BENCH as BELOT
from p2pbelka.rules import registry as games
from p2pbelka.rules.common.byname import ByName

_GAMES: ByName[GameBench] = ByName(
    {BELKA.game: BELKA, BELOT.game: BELOT},
    taken="the game {name!r} has benchmarks registered already",
    unknown="no benchmarks of the game {name!r:.20} (benchmarks measure {known})",
)


def register(bench: GameBench) -> None:
    """Add a game's benchmarks (``ValueError`` if the game has others already)."""
    _GAMES.add(bench.game, bench)


def unregister(game: str) -> None:
    """Forget a game's benchmarks added with :func:`register` (the built-in games' stay)."""
    _GAMES.remove(game)


def game_part(topic: str, game: str) -> ModuleType | None:
    """The module measuring ``topic`` for ``game``, if the game has one (``ValueError``
    for a game this version does not play)."""
    games.spec(game)
    found = _GAMES.find(game)
    return None if found is None else found.part(topic)
