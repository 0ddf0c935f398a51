"""What a deal's result is worth to a team, read off the rules engine.

The bots never hold their own copy of the scoring: the consequences of a
deal's result, a re-deal claim or an eggs choice are found by letting
:class:`~p2pbelka.rules.belka.game.GameState` score them (:func:`after_deal`,
:func:`after_redeal`, :func:`after_eggs`), so a rule change reaches the bots
with no edit here.

A game state is worth its chance of winning the game (:func:`win_chance`),
from a table computed once per rule set on the engine itself: from every
score (and with eggs pending or not) the next deal ends in one of a few
typical results (:data:`OUTCOMES`, as often as they happened in measured
play, the J♣ team either team with even odds), and the engine says where each
result leads, the 12-point goal, goli, all eight tricks and the eggs bonus
included.  Differences in that chance are given in *game-point equivalents*
(:func:`deal_values`): one unit is what one game point is worth at 0:0, so
early in a game a 91-point result is worth about one point more than a
61-point one, and at 11 points, where any won deal ends the game, it is worth
nothing more, and the bot stops taking risks for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import Final

from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import RedealClaim, seat_suits_from
from p2pbelka.rules.belka.game import EGGS_CHOICES, EggsChoice, GameState
from p2pbelka.rules.belka.options import TARGET, Options
from p2pbelka.rules.belka.randomplay import random_hands
from p2pbelka.rules.common.play import Trick

OUTCOMES: Final[tuple[tuple[int, float], ...]] = (
    (0, 0.002),
    (20, 0.062),
    (45, 0.305),
    (60, 0.015),
    (75, 0.41),
    (100, 0.177),
    (120, 0.029),
)
"""Card points of the J♣ team in a deal, and how often: 1500 deals of heuristic play."""

State = tuple[int, int, bool]
"""Team 0's score, team 1's score, eggs pending."""

TIE_BREAK: Final = 0.004
"""Game-point equivalents per card point: ties between equal results go to more points."""


def after_deal(
    game: GameState, points0: int, eggs: Callable[[GameState, int], str] | None = None
) -> GameState:
    """``game`` once its deal in progress ends with team 0 taking ``points0`` card points.

    Scored by the engine.  Taking all 120 is taken as all eight tricks too;
    otherwise the tricks are split.  An eggs choice it asks for is made by
    ``eggs`` (default :func:`best_eggs`).
    """
    deal = game.deal
    if deal is None:
        raise ValueError("no deal in progress")
    if points0 in (0, 120):
        winners = [0 if points0 else 1] * 8
    else:
        winners = [0, 1] * 4
    tricks = tuple(Trick(leader=w, cards=(), winner=w) for w in winners)
    done = replace(
        deal,
        plays=(0,) * 32,
        trick=(),
        tricks=tricks,
        card_points=(points0, 120 - points0),
        offenses=(),
        redeal_claim=None,
    )
    nxt = replace(game, deal=done).finish_deal()
    if nxt.pending_choice is not None:
        seat = nxt.pending_choice
        nxt = after_eggs(nxt, seat, (eggs or best_eggs)(nxt, seat))
    return nxt


def after_redeal(game: GameState, seat: int) -> GameState:
    """``game`` once ``seat`` has asked for a re-deal (the engine charges any penalty)."""
    return game.apply(RedealClaim(seat)).finish_deal()


def after_eggs(game: GameState, seat: int, choice: str) -> GameState:
    return game.apply(EggsChoice(seat, choice))


def best_eggs(game: GameState, seat: int) -> str:
    """The eggs choice whose game the team is likeliest to win; ties to the first listed.

    With no choice pending for the seat's team, the first listed (nothing to weigh).
    """
    if game.pending_choice is None or game.pending_choice != seat & 1:
        return EGGS_CHOICES[0]
    return _best_eggs(_table(game.options), game, seat)


def _best_eggs(table: dict[State, float], game: GameState, seat: int) -> str:
    team = seat & 1
    return max(EGGS_CHOICES, key=lambda c: _chance(table, after_eggs(game, seat, c), team))


def win_chance(game: GameState, team: int) -> float:
    """How likely ``team`` is to win ``game`` from here (between deals or in one)."""
    return _chance(_table(game.options), game, team)


def _chance(table: dict[State, float], game: GameState, team: int) -> float:
    if game.winner is not None:
        return 1.0 if game.winner == team else 0.0
    a, b = game.score
    v0 = table[(min(a, TARGET - 1), min(b, TARGET - 1), game.eggs_pending)]
    # goli=continues counts games won: each one is a whole game to the good.
    won = game.games_won[team] - game.games_won[1 - team]
    return (v0 if team == 0 else 1.0 - v0) + won


def point_value(options: Options) -> float:
    """What one game point (or one eye against the other team) is worth at 0:0."""
    t = _table(options)
    return abs(t[(1, 0, False)] - t[(0, 1, False)]) / 2 or 1.0


def deal_values(game: GameState, team: int) -> Callable[[int], float]:
    """Game-point equivalents to ``team`` of its deal in progress ending with ``p`` card points.

    Measured from the game as it stands; memoized, the engine is asked once per total.
    """
    scale = point_value(game.options)
    now = win_chance(game, team)
    cache: dict[int, float] = {}

    def value(points: int) -> float:
        v = cache.get(points)
        if v is None:
            points0 = points if team == 0 else 120 - points
            v = (win_chance(after_deal(game, points0), team) - now) / scale
            v += TIE_BREAK * (points - 60)
            cache[points] = v
        return v

    return value


def fresh_deal_values(options: Options, team: int, trump_team: int) -> Callable[[int], float]:
    """:func:`deal_values` for a deal at 0:0 (past the first deal): a position with no game."""
    return deal_values(_templates_cached(options)[trump_team], team)


# -- the table -------------------------------------------------------------------------


def _templates(options: Options) -> tuple[GameState, GameState]:
    """Two games past their first deal, one with J♣ on team 0's side, one on team 1's."""
    hands = random_hands(random.Random(0), 0)
    holder = next(s for s in range(4) if hands[s] >> core.JC_INDEX & 1)
    base = GameState.new(options, 0)
    out = []
    for team in (0, 1):
        shift = (team - holder) % 4
        rotated = [hands[(s - shift) % 4] for s in range(4)]
        game = base.start_deal(rotated)
        deal = game.deal
        assert deal is not None and deal.trump_team == team
        # Not the first deal: no clubs-only first deal, no first_deal_two.
        suits = seat_suits_from(deal.jc_holder, options.trump_order)
        out.append(replace(game, deal=replace(deal, first=False), seat_suits=suits))
    return out[0], out[1]


@lru_cache(maxsize=8)
def _templates_cached(options: Options) -> tuple[GameState, GameState]:
    return _templates(options)


@lru_cache(maxsize=8)
def _table(options: Options) -> dict[State, float]:
    """Team 0's chance to win from each score, by the engine's own transitions."""
    templates = _templates(options)
    states = [(a, b, e) for a in range(TARGET) for b in range(TARGET) for e in (True, False)]
    # Higher totals first: a deal never lowers a score, and a 60:60 only sets eggs pending.
    states.sort(key=lambda s: (-(s[0] + s[1]), not s[2]))
    value: dict[State, float] = {}
    for state in states:
        a, b, eggs = state
        rest = 0.0
        stay = 0.0
        for template in templates:
            game = replace(template, score=(a, b), eggs_pending=eggs)
            trump_team = 0 if template is templates[0] else 1
            for trump_points, p in OUTCOMES:
                points0 = trump_points if trump_team == 0 else 120 - trump_points
                nxt = after_deal(game, points0, lambda g, s: _best_eggs(value, g, s))
                w = 0.5 * p
                if nxt.winner is not None:
                    rest += w if nxt.winner == 0 else 0.0
                elif nxt.games_won != game.games_won:
                    rest += w if nxt.games_won[0] > game.games_won[0] else 0.0
                else:
                    key = (min(nxt.score[0], 11), min(nxt.score[1], 11), nxt.eggs_pending)
                    if key == state:
                        stay += w
                    else:
                        rest += w * value[key]
        value[state] = rest / (1.0 - stay) if stay < 1.0 else 0.5
    return value


__all__ = [
    "OUTCOMES",
    "after_deal",
    "after_eggs",
    "after_redeal",
    "best_eggs",
    "deal_values",
    "fresh_deal_values",
    "point_value",
    "win_chance",
]
