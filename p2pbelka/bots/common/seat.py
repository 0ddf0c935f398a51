"""The one bot interface: a seat bot answers the table's question with a move.

A table asks its local seat a question when it must decide: the question has a
``kind`` (``play``, ``redeal``, ``bid``, ... as the game names them) and the
``moves`` the table accepts now (``table.events.ChoiceNeeded`` is one; the bots
cannot import the table, a layer of their own rank, so :class:`Question` says
what they read of it).  A :class:`SeatBot` is given the game as its seat sees
it, its seat and the question, and answers with one of the question's moves:
never anything else (:func:`legal_answer`), so a bot's bug cannot stop a table.

A front end that does not know the game yet when it is made (a joiner's
``--bot``, a host's bot seats) holds a :class:`Bot`: it gives the game's seat
bot once the table names its game.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from p2pbelka.rules.common.moves import Move


class Question(Protocol):
    """What a bot reads of the table's question (``table.events.ChoiceNeeded``)."""

    @property
    def kind(self) -> str: ...

    @property
    def moves(self) -> tuple[Move, ...]: ...


class SeatBot(Protocol):
    """A bot in one seat of one game: ``choose`` is one of ``question.moves``."""

    def choose(self, game: Any, seat: int, question: Question) -> Move: ...


class Bot(Protocol):
    """A bot for a seat at a table of any game: ``for_game`` gives the seat bot of the
    game the table plays (the same one each time for the same game)."""

    def for_game(self, game: str) -> SeatBot: ...


def legal_answer(question: Question, move: Move | None, rng: random.Random) -> Move:
    """``move`` if the question allows it, else one of the question's moves drawn by
    ``rng`` (a bot's bug, or no answer at all: the table must go on)."""
    if move is not None and move in question.moves:
        return move
    if not question.moves:
        raise ValueError(f"a {question.kind!r} question without moves")
    return rng.choice(question.moves)


def as_bot(seat_bot: SeatBot) -> Bot:
    """A :class:`Bot` that is ``seat_bot`` whatever the game: for a bot built by hand
    (a test's spy, a benchmark's scripted player) where a front end wants a Bot."""
    return _Seated(seat_bot)


class _Seated:
    def __init__(self, seat_bot: SeatBot) -> None:
        self.seat_bot = seat_bot

    def for_game(self, game: str) -> SeatBot:
        return self.seat_bot
