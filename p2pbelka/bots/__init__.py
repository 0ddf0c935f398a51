"""Bots: choose what one seat does, from what that seat may know.

Every game's bots answer the table's question through one interface
(:mod:`p2pbelka.bots.common.seat`): a seat bot is given the game as its seat
sees it (every other hand unknown), its seat and the question (its ``kind`` and
the ``moves`` the table accepts now), and answers with one of those moves:

``make_seat_bot(game, level, seed).choose(game_state, seat, question) -> Move``

Levels are text parsed once into a :class:`BotLevel`: ``random``,
``heuristic`` (a club player's rules of thumb), ``strong`` (search over the
hidden cards, valued in the game it is played in), ``strong:N`` (the same
thinking N times as long, ``--think N``), and ``strong+`` (``strong:3``) where a
game's bots have it; see docs/bots.md.  ``make_bot(level, seed)`` is a bot for a
table of any game: it builds the game's seat bot when the table names its game.

The games' bots are siblings: :mod:`p2pbelka.bots.belka` and
:mod:`p2pbelka.bots.belot`, each with its own questions behind its seat bot;
:mod:`p2pbelka.bots.registry` lists them by game (``register`` adds another);
:mod:`p2pbelka.bots.common` holds what they share.  ``p2pbelka tournament``
measures one level against another.
"""

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from p2pbelka.bots.common.levels import BotLevel, bot_name
    from p2pbelka.bots.common.seat import Bot, Question, SeatBot
    from p2pbelka.bots.registry import (
        LevelBot,
        default_level,
        is_level,
        levels,
        make_bot,
        make_seat_bot,
        max_think,
        parse_level,
        with_think,
    )

# each name loads its module when first asked for (PEP 562): see ``lazy_names``
__getattr__ = lazy_names(
    __name__,
    {
        "BotLevel": ".common.levels",
        "bot_name": ".common.levels",
        "Bot": ".common.seat",
        "Question": ".common.seat",
        "SeatBot": ".common.seat",
        "LevelBot": ".registry",
        "default_level": ".registry",
        "is_level": ".registry",
        "levels": ".registry",
        "make_bot": ".registry",
        "make_seat_bot": ".registry",
        "max_think": ".registry",
        "parse_level": ".registry",
        "with_think": ".registry",
    },
)

__all__ = [
    "Bot",
    "BotLevel",
    "LevelBot",
    "Question",
    "SeatBot",
    "bot_name",
    "default_level",
    "is_level",
    "levels",
    "make_bot",
    "make_seat_bot",
    "max_think",
    "parse_level",
    "with_think",
]
