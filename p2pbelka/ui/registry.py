"""The games the screens show, under the names their rules go by
(``p2pbelka.rules.registry``): each game's :class:`~p2pbelka.ui.gameui.GameUI`.

The screens name no game: they ask here.  The built-in games are listed in this
module (a registry may name them); a test adds a game of its own with ``register``
and takes it away with ``unregister``, touching no shared file.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from p2pbelka.rules import registry as games
from p2pbelka.rules.common.byname import ByName

if TYPE_CHECKING:
    from p2pbelka.ui.gameui import GameUI
    from p2pbelka.ui.view import TableView


@functools.cache
def _games() -> ByName[GameUI]:
    """The screens, the built-in games' loaded when one is first asked for: they bring
    prompt_toolkit, which a text or bot seat's log (that asks only for a game's own event
    lines, and a quiet one never) should not pay for at its start."""
    from p2pbelka.ui.games.belka.screen import UI as BELKA
    from p2pbelka.ui.games.belot.screen import UI as BELOT

    return ByName(
        {BELKA.name: BELKA, BELOT.name: BELOT},
        taken="the game {name!r} has a screen registered already",
        unknown="no screen for the game {name!r:.20} (the screens show {known})",
    )


def register(game: GameUI) -> None:
    """Add a game's screen (``ValueError`` if the rules do not know the game, or if it
    has another screen already)."""
    games.spec(game.name)
    _games().add(game.name, game)


def unregister(name: str) -> None:
    """Forget a game's screen added with :func:`register` (the built-in games' stay)."""
    _games().remove(name)


def game(name: str) -> GameUI:
    """The screen of the game ``name``; ``ValueError`` naming the games shown."""
    return _games().get(name)


def seats_of(name: str, players: int | None = None) -> int:
    """The seats of a table of ``name``: ``players``, or the game's usual number."""
    return players or games.spec(name).default_seats


def new_view(name: str, players: int | None = None) -> tuple[GameUI, TableView]:
    """The screen of ``name`` and an empty view of its table of ``players`` seats."""
    found = game(name)
    return found, found.new_view(seats_of(name, players))
