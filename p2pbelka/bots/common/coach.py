"""The coach: which of one seat's decisions cost the most, judged from the seat's own view.

A game's bots give a :class:`Coach` (its entry in the bots' registry): the seat's
decisions in a finished game (:meth:`Coach.positions`, each the game *as the seat
saw it then*: its own hand and the public play, never another hand) and how each
candidate move of one fares over worlds drawn from that view (:meth:`Coach.grade`,
the strong level's evaluation).  :func:`coach_game` turns that into advice: the
decisions whose move lost more than a threshold, in the game's own points, against
the best move found, with the better move, the cost and the reason behind it.

A flag must survive the noise of the worlds drawn: the cost is a mean over paired
worlds (every move valued on the same worlds), and a decision is flagged only when
that mean less :data:`Z` standard errors of it is still above the threshold, so a
deeper search (ten times the worlds) mostly agrees (``p2pbelka bench coach``).

Deterministic: each decision's worlds are drawn from a generator seeded by the
coach's seed and the decision's place in the game, so the same file and seed give
the same advice, whichever seat or threshold is asked for.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Z = 1.0
"""Standard errors of the cost that must stay above the threshold for a flag."""
WORLDS = 80
"""Worlds a decision is graded on by default: the strong level's card decision."""
SHIFT = 0.1
"""A reason names the share of deals the move wins or loses when it moves this much."""


@dataclass(frozen=True, slots=True)
class Position:
    """One decision of the seat: the game as the seat saw it, and what it did.

    ``view`` is the game's state with every hand but the seat's unknown (the game's
    ``seat_view``); ``played`` the move made, in the game's own move numbering
    (a card's index); ``deal`` and ``trick`` count from 0; ``index`` is the
    decision's place in the whole game (every seat's decisions counted), which
    seeds its worlds.
    """

    view: Any
    seat: int
    played: int
    deal: int
    trick: int
    index: int
    kind: str = "play"


@dataclass(frozen=True, slots=True)
class Graded:
    """Each candidate move's outcome in every world drawn (the same worlds for each).

    ``values[i][w]``: move ``moves[i]``'s worth to the seat in world ``w``, in the
    game's points; ``wins[i][w]``: the seat's side wins the deal there (None where
    the game has no such notion); ``points[i][w]``: the side's card points at the
    deal's end (None where the search does not give them).
    """

    moves: list[int]
    values: list[list[float]]
    wins: list[list[bool]] | None = None
    points: list[list[int]] | None = None
    chances: list[float] | None = None
    """Per move, the side's chance to win the game after it (for the choices between
    deals, where that is what moves)."""
    scored: list[list[int]] | None = None
    """``scored[i][w]``: the combination points the seat scored at the deal's end (for
    the choices of what to declare, where that is what moves)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the better move is better, in one of a few words a front end words.

    ``kind``: ``game`` (the side's chance to win the game after each move),
    ``deal`` (the better move wins the deal more often: ``better`` and
    ``played`` are the shares of worlds won), ``points`` (it takes more card points
    on average: the two means), ``scored`` (it scores more combination points on
    average: the two means), or ``worlds`` (it does better in the share
    ``better`` of the worlds and worse in ``played``).
    """

    kind: str
    better: float
    played: float


@dataclass(frozen=True, slots=True)
class Advice:
    """A flagged decision: the move made, the better one, the cost and why."""

    seat: int
    deal: int
    trick: int
    kind: str
    played: int
    better: int
    cost: float
    """Expected points lost against the better move (the game's unit: :attr:`Coach.unit`)."""
    error: float
    """The standard error of :attr:`cost` over the worlds."""
    reason: Reason
    worlds: int


class Coach(Protocol):
    """A game's coach: the seat's decisions in a game, and the evaluation of one."""

    unit: str
    """The points the cost is given in (``game points``, ``points``), in English."""
    threshold: float
    """The cost a flag needs when the player names none."""

    def move_words(self, kind: str, move: int) -> str | None:
        """A move that is not a card in English words (the game's screen words put them in
        the catalogue); None for a card (``move`` is its index).  For a move made of
        parts (:meth:`move_parts`), the words hold ``{what}`` where the parts go."""
        ...

    def move_parts(self, kind: str, move: int) -> list[tuple[str, tuple[int, ...]]] | None:
        """A move made of several things shown with their cards (what Belot declares at
        a lead): each thing's English words (in the catalogue) and its cards' indices,
        none for an empty choice; None for any other move."""
        ...

    def positions(self, game: Any, seat: int) -> Iterator[Position]:
        """The seat's decisions in ``game`` (an audited game, every deal finished), each
        with the game as the seat saw it then."""
        ...

    def grade(self, position: Position, worlds: int, rng: random.Random) -> Graded:
        """Every distinct legal move of the position (the one played among them), valued
        over ``worlds`` worlds drawn by ``rng`` from the position's view alone."""
        ...


@dataclass(frozen=True, slots=True)
class Judged:
    """A graded decision: the best move, the cost of the move made and its error."""

    best: int
    played: int
    cost: float
    error: float


def judge(graded: Graded, played: int) -> Judged:
    """The best move by mean value and the played move's paired cost against it."""
    n = len(graded.values[0]) if graded.values else 0
    means = [sum(v) / max(n, 1) for v in graded.values]
    mine = graded.moves.index(played)
    best = max(range(len(means)), key=lambda i: (means[i], i == mine))
    diffs = [b - p for b, p in zip(graded.values[best], graded.values[mine], strict=True)]
    cost = sum(diffs) / max(n, 1)
    if n < 2:
        return Judged(best, mine, cost, 0.0)
    var = sum((d - cost) ** 2 for d in diffs) / (n - 1)
    return Judged(best, mine, cost, math.sqrt(var / n))


def flags(judged: Judged, threshold: float) -> bool:
    """The decision cost more than ``threshold``, beyond the worlds' noise."""
    return judged.cost > threshold and judged.cost - Z * judged.error > threshold


def reason(graded: Graded, judged: Judged) -> Reason:
    """What changes most between the better move and the one made."""
    best, mine = judged.best, judged.played
    n = max(len(graded.values[0]), 1)
    if graded.chances is not None:
        return Reason("game", graded.chances[best], graded.chances[mine])
    if graded.wins is not None:
        won = sum(graded.wins[best]) / n
        lost = sum(graded.wins[mine]) / n
        if abs(won - lost) >= SHIFT:
            return Reason("deal", won, lost)
    if graded.scored is not None:
        better = sum(graded.scored[best]) / n
        played = sum(graded.scored[mine]) / n
        if abs(better - played) >= 1.0:
            return Reason("scored", better, played)
    if graded.points is not None:
        better = sum(graded.points[best]) / n
        played = sum(graded.points[mine]) / n
        if better - played >= 1.0:
            return Reason("points", better, played)
    pairs = list(zip(graded.values[best], graded.values[mine], strict=True))
    up = sum(1 for b, p in pairs if b > p) / n
    down = sum(1 for b, p in pairs if b < p) / n
    return Reason("worlds", up, down)


def position_rng(seed: int, position: Position) -> random.Random:
    """The generator of one decision's worlds: the coach's seed and the decision's place."""
    return random.Random(seed * 1_000_003 + position.index)


def advise(
    coach: Coach, position: Position, threshold: float, worlds: int = WORLDS, seed: int = 0
) -> Advice | None:
    """The advice on one decision, or None when it cost no more than ``threshold``."""
    graded = coach.grade(position, worlds, position_rng(seed, position))
    if len(graded.moves) < 2:
        return None
    judged = judge(graded, position.played)
    if not flags(judged, threshold):
        return None
    return Advice(
        seat=position.seat,
        deal=position.deal,
        trick=position.trick,
        kind=position.kind,
        played=position.played,
        better=graded.moves[judged.best],
        cost=judged.cost,
        error=judged.error,
        reason=reason(graded, judged),
        worlds=len(graded.values[0]),
    )


@dataclass(frozen=True, slots=True)
class Coaching:
    """What the coach found in one seat's game: the flagged decisions, of how many."""

    advice: list[Advice]
    decisions: int


def coach_game(
    coach: Coach,
    game: Any,
    seat: int,
    threshold: float | None = None,
    worlds: int = WORLDS,
    seed: int = 0,
    deal: int | None = None,
) -> Coaching:
    """Every decision of ``seat`` in ``game`` (in its deal ``deal`` alone, if given) that
    cost more than ``threshold`` (the coach's own when None), in the order played."""
    limit = coach.threshold if threshold is None else threshold
    found: list[Advice] = []
    decisions = 0
    for position in coach.positions(game, seat):
        if deal is not None and position.deal != deal:
            continue
        decisions += 1
        advice = advise(coach, position, limit, worlds, seed)
        if advice is not None:
            found.append(advice)
    return Coaching(found, decisions)


def with_choice(moves: Sequence[int], played: int) -> list[int]:
    """The distinct moves to grade, the one played among them (as itself: a card that
    plays like another is graded on its own, so its cost is its own)."""
    return list(moves) if played in moves else [*moves, played]
