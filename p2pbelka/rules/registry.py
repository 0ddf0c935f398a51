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
from p2pbelka.rules.spec import GameSpec

_GAMES: dict[str, GameSpec] = {BELKA.name: BELKA, BELOT.name: BELOT}

DEFAULT = BELKA.name
"""The game played when nobody says which (``p2pbelka`` alone)."""


def register(game: GameSpec) -> None:
    """Add a game (``ValueError`` if its name is taken by another)."""
    known = _GAMES.get(game.name)
    if known is not None and known is not game:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game


def unregister(name: str) -> None:
    """Forget a game added with :func:`register` (the built-in games stay)."""
    if name not in (BELKA.name, BELOT.name):
        _GAMES.pop(name, None)


def names() -> tuple[str, ...]:
    """Every game's name, the default first."""
    return tuple(_GAMES)


def spec(name: str) -> GameSpec:
    """The game called ``name``; ``ValueError`` naming the games this version plays."""
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(
            f"unknown game {name!r:.20} (this version plays {', '.join(_GAMES)})"
        ) from None
