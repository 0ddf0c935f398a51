"""The bots of every game, by the game's name: the one list every front end asks.

Each game's bot package gives its entry (:class:`~p2pbelka.bots.common.entry.GameBots`:
its levels, which of them think longer, how a seat bot is built, its tournament);
a game outside this package (a test's toy game) joins with :func:`register`.

A level is text such as ``strong`` or ``strong:3``, parsed once into a
:class:`~p2pbelka.bots.common.levels.BotLevel` (:func:`parse_level`): against
one game's levels when the game is known, else against every game's (a joiner's
``--bot`` before it sees the table).  :func:`make_seat_bot` builds a game's seat
bot; :func:`make_bot` a bot for a table of any game, whose seat bot is built
when the table names its game.
"""

from __future__ import annotations

from p2pbelka.bots.common import levels as lv
from p2pbelka.bots.common.coach import Coach
from p2pbelka.bots.common.entry import GameBots
from p2pbelka.bots.common.levels import BotLevel
from p2pbelka.bots.common.seat import SeatBot
from p2pbelka.bots.common.tournament import Tournament
from p2pbelka.rules import registry as games
from p2pbelka.rules.common.byname import ByName


def _belka() -> GameBots:
    from p2pbelka.bots.belka.seat import BOTS

    return BOTS


def _belot() -> GameBots:
    from p2pbelka.bots.belot.seat import BOTS

    return BOTS


# A built-in game's bots are loaded when first asked for (they bring the game's rules
# engine): a seat whose game is known (a host's) loads its own game's alone; a level
# parsed for any game (a joiner's, before it sees the table) loads every game's.
_GAMES: ByName[GameBots] = ByName(
    {},
    loaders={"belka": _belka, "belot": _belot},
    taken="the game {name!r} has bots registered already",
    unknown="no bots for the game {name!r:.20} (bots play {known})",
)


def register(bots: GameBots) -> None:
    """Add a game's bots (``ValueError`` if the game has others already)."""
    _GAMES.add(bots.game, bots)


def unregister(game: str) -> None:
    """Forget a game's bots added with :func:`register` (the built-in games' stay)."""
    _GAMES.remove(game)


def bots_of(game: str) -> GameBots:
    """The bots of ``game``; ``ValueError`` naming the games that have bots."""
    return _GAMES.get(game)


def levels(game: str | None = None) -> tuple[str, ...]:
    """The levels of ``game``'s bots, weakest first; of every game's, each once, for None."""
    if game is not None:
        return bots_of(game).levels
    return tuple(dict.fromkeys(name for bots in _GAMES.values() for name in bots.levels))


def thinking(game: str | None = None) -> dict[str, int]:
    """The levels that think longer (``strong:N``), to their highest think level: of
    ``game``'s bots, or the most any game's reach for None."""
    if game is not None:
        return dict(bots_of(game).thinking)
    most: dict[str, int] = {}
    for bots in _GAMES.values():
        for name, highest in bots.thinking.items():
            most[name] = max(highest, most.get(name, 1))
    return most


def default_level() -> str:
    """The level a bot plays at when nobody names one: ``heuristic`` where the games'
    bots have it."""
    return "heuristic" if "heuristic" in levels() else "random"


def max_think(game: str | None = None) -> int:
    """The highest think level (``--think N``) of ``game``'s bots, or of any game's."""
    return max(thinking(game).values(), default=1)


def parse_level(level: BotLevel | str, game: str | None = None) -> BotLevel:
    """``level`` as a :class:`BotLevel` of ``game``'s bots (any game's, for None);
    ``ValueError`` saying why not."""
    text = str(level)
    if game is None:
        return lv.parse(text, levels(), thinking())
    try:
        return lv.parse(text, levels(game), thinking(game))
    except ValueError as exc:
        raise ValueError(f"{_title(game)}: {exc}") from None


def is_level(level: str, game: str | None = None) -> bool:
    """A level :func:`parse_level` reads (for ``game``, or for some game)."""
    try:
        parse_level(level, game)
    except ValueError:
        return False
    return True


def with_think(level: str, think: int | None, game: str | None = None) -> str:
    """``level`` thinking at ``think`` (``--think N``): only the levels that think longer
    scale, and 1 is the level itself; ``ValueError`` for a think level out of range."""
    return lv.with_think(level, think, thinking(game))


def make_seat_bot(game: str, level: BotLevel | str, seed: int | None = None) -> SeatBot:
    """The seat bot of ``level`` for a table of ``game``, seeded (reproducible)."""
    return bots_of(game).make(parse_level(level, game), seed)


def tournament(game: str) -> Tournament:
    """``game``'s tournament; ``ValueError`` if it has none."""
    found = bots_of(game).tournament
    if found is None:
        raise ValueError(f"{_title(game)} has no tournament")
    return found


def coach(game: str) -> Coach:
    """``game``'s coach (``replay --coach``); ``ValueError`` if it has none."""
    found = bots_of(game).coach
    if found is None:
        raise ValueError(f"{_title(game)} has no coach")
    return found


class LevelBot:
    """A bot of one level for a seat at a table of any game.

    The level is parsed once (``ValueError`` unless some game's bots have it); the
    game's seat bot is built when the table names its game (``for_game``), and kept
    while the game stays the same: a front end that plays one table after another
    of a game (a resumed one, the next segment) plays on with the same seat bot, as
    a seeded game's reproducibility needs.
    """

    def __init__(
        self, level: BotLevel | str, seed: int | None = None, game: str | None = None
    ) -> None:
        """``game``: the table's game when it is known already (a host's): the level is
        checked against that game's bots alone."""
        self.level = parse_level(level, game)
        self.seed = seed
        self._seat: tuple[str, SeatBot] | None = None

    def for_game(self, game: str) -> SeatBot:
        """The seat bot of this level for ``game``; ``ValueError`` if the game's bots
        have no such level."""
        if self._seat is None or self._seat[0] != game:
            self._seat = (game, make_seat_bot(game, self.level, self.seed))
        return self._seat[1]

    def __repr__(self) -> str:
        return f"LevelBot({str(self.level)!r}, seed={self.seed!r})"


def make_bot(level: BotLevel | str, seed: int | None = None, game: str | None = None) -> LevelBot:
    """A bot of ``level`` for a table of any game, or of ``game`` when it is known
    already (see :class:`LevelBot`)."""
    return LevelBot(level, seed, game)


def _title(game: str) -> str:
    try:
        return games.spec(game).title
    except ValueError:
        return game
