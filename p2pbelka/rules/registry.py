"""The games this version plays, by name: the one list every layer asks.

``spec(name)`` gives a game's :class:`~p2pbelka.rules.spec.GameSpec` (``ValueError``
naming the games known for any other name), ``names()`` every game in the order a
menu shows them.  A game outside this package (a test's toy game) joins with
``register``; the games of other layers (the table's tracks, the bots) register in
those layers' own registries under the same name.
"""

from __future__ import annotations

from p2pbelka.rules.belka.spec import SPEC as BELKA
from p2pbelka.rules.belot.spec import SPEC as BELOT
from p2pbelka.rules.common.byname import ByName
from p2pbelka.rules.spec import GameSpec

_GAMES: ByName[GameSpec] = ByName(
    {BELKA.name: BELKA, BELOT.name: BELOT},
    taken="a game named {name!r} is registered already",
    unknown="unknown game {name!r:.20} (this version plays {known})",
)

DEFAULT = BELKA.name
"""The game played when nobody says which (``p2pbelka`` alone)."""


def register(game: GameSpec) -> None:
    """Add a game (``ValueError`` if its name is taken by another)."""
    _GAMES.add(game.name, game)


def unregister(name: str) -> None:
    """Forget a game added with :func:`register` (the built-in games stay)."""
    _GAMES.remove(name)


def names() -> tuple[str, ...]:
    """Every game's name, the default first."""
    return _GAMES.names()


def spec(name: str) -> GameSpec:
    """The game called ``name``; ``ValueError`` naming the games this version plays."""
    return _GAMES.get(name)
