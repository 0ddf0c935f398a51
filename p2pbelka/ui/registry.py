"""The games the screens show, under the names their rules go by
(``p2pbelka.rules.registry``): each game's :class:`~p2pbelka.ui.gameui.GameUI`, and
the part of it the text logs use, its :class:`~p2pbelka.ui.gamewords.GameWords`.

The screens name no game: they ask here.  The built-in games are listed in this
module (a registry may name them); a test adds a game of its own with ``register``
and takes it away with ``unregister``, touching no shared file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from p2pbelka.rules import registry as games
from p2pbelka.rules.common.byname import ByName

if TYPE_CHECKING:
    from p2pbelka.ui.gameui import GameUI
    from p2pbelka.ui.gamewords import GameWords
    from p2pbelka.ui.view import TableView


# Each built-in game's parts are loaded when that game is first asked for: a process
# shows or logs one game, and a screen brings prompt_toolkit, which a text or bot seat's
# log (that asks for the game's words alone, ``words``) should not pay for at its start.
# (Imported by name, not through importlib: the layers' test reads these imports.)


def _screens() -> dict[str, Callable[[], GameUI]]:
    def belka() -> GameUI:
        from p2pbelka.ui.games.belka.screen import UI

        return UI

    def belot() -> GameUI:
        from p2pbelka.ui.games.belot.screen import UI

        return UI

    return {"belka": belka, "belot": belot}


def _words() -> dict[str, Callable[[], GameWords]]:
    def belka() -> GameWords:
        from p2pbelka.ui.games.belka.logwords import WORDS

        return WORDS

    def belot() -> GameWords:
        from p2pbelka.ui.games.belot.logwords import WORDS

        return WORDS

    return {"belka": belka, "belot": belot}


_SCREENS: ByName[GameUI] = ByName(
    {},
    loaders=_screens(),
    taken="the game {name!r} has a screen registered already",
    unknown="no screen for the game {name!r:.20} (the screens show {known})",
)
_WORDS: ByName[GameWords] = ByName(
    {},
    loaders=_words(),
    taken="the game {name!r} has words registered already",
    unknown="no words for the game {name!r:.20} (the logs word {known})",
)


def register(game: GameUI) -> None:
    """Add a game's screen (``ValueError`` if the rules do not know the game, or if it
    has another screen already)."""
    games.spec(game.name)
    _SCREENS.add(game.name, game)


def unregister(name: str) -> None:
    """Forget a game's screen added with :func:`register` (the built-in games' stay)."""
    _SCREENS.remove(name)


def game(name: str) -> GameUI:
    """The screen of the game ``name``; ``ValueError`` naming the games shown."""
    return _SCREENS.get(name)


def words(name: str) -> GameWords:
    """What the text logs say of the game ``name`` (its screen's words for a game
    registered with its screen alone); ``ValueError`` naming the games shown."""
    found = _WORDS.find(name)
    return found if found is not None else game(name).log_words()


def seats_of(name: str, players: int | None = None) -> int:
    """The seats of a table of ``name``: ``players``, or the game's usual number."""
    return players or games.spec(name).default_seats


def new_view(name: str, players: int | None = None) -> tuple[GameUI, TableView]:
    """The screen of ``name`` and an empty view of its table of ``players`` seats."""
    found = game(name)
    return found, found.new_view(seats_of(name, players))
