"""``p2pbelka bench bots``: how long each bot level takes to choose a card, on one core.

The bots of one team play whole deals against the ``heuristic`` level from
their views, as at a table, and every decision is timed.  Figures per level:
median, 99th percentile and maximum in milliseconds, over all decisions and
over the decisions with a real choice (two or more cards that play
differently; the others are answered without search).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from p2pbelka.bots.base import make_bot
from p2pbelka.bots.knowledge import seen_from
from p2pbelka.bots.policy import legal
from p2pbelka.bots.solver import distinct_moves
from p2pbelka.cards import CARDS
from p2pbelka.rules.deal import Play
from p2pbelka.rules.game import GameState
from p2pbelka.rules.options import options_from
from p2pbelka.rules.randomplay import random_hands


def _percentile(sorted_ms: list[float], q: float) -> float:
    if not sorted_ms:
        return 0.0
    return round(sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))], 2)


def time_level(level: str, deals: int, seed: int = 20261130) -> dict[str, object]:
    """Decision times of ``level`` (seats 0 and 2) over ``deals`` deals."""
    options = options_from("classic")
    rng = random.Random(seed)
    every: list[float] = []
    choices: list[float] = []
    for i in range(deals):
        bots = [make_bot(level if s % 2 == 0 else "heuristic", seed + 4 * i + s) for s in range(4)]
        game = GameState.new(options, first_dealer=i % 4).start_deal(random_hands(rng, i % 4))
        deal = game.deal
        assert deal is not None
        while not deal.finished:
            seat = deal.turn
            assert seat is not None
            view = replace(game, deal=deal.view(seat))
            start = time.perf_counter()
            card = bots[seat].play(view, seat)
            elapsed = (time.perf_counter() - start) * 1000
            if seat % 2 == 0:
                every.append(elapsed)
                seen = seen_from(deal, seat)
                blockers = seen.others | sum(1 << c for c in seen.trick)
                if len(distinct_moves(legal(seen), blockers, seen.trump)) > 1:
                    choices.append(elapsed)
            deal = deal.apply(Play(seat, CARDS[card.index]))
    every.sort()
    choices.sort()
    return {
        f"{level}_decisions": len(every),
        f"{level}_ms_median": _percentile(every, 0.5),
        f"{level}_ms_p99": _percentile(every, 0.99),
        f"{level}_ms_max": round(every[-1], 2) if every else 0.0,
        f"{level}_choice_decisions": len(choices),
        f"{level}_choice_ms_median": _percentile(choices, 0.5),
        f"{level}_choice_ms_p99": _percentile(choices, 0.99),
    }


def run(quick: bool = False) -> dict[str, object]:
    figures: dict[str, object] = {}
    figures.update(time_level("heuristic", 5 if quick else 100))
    figures.update(time_level("strong", 2 if quick else 60))
    figures.update(time_level("strong+", 1 if quick else 10))
    return figures
