"""``p2pbelka bench bots``: how long each Belka bot level takes to choose a card, on one
core.

The bots of one team play whole deals against the ``heuristic`` level from
their views, as at a table, and every decision is timed.  Figures per level:
median, 99th percentile and maximum in milliseconds, over all decisions and
over the decisions with a real choice (two or more cards that play
differently; the others are answered without search).  Levels: heuristic,
strong, and ``strong+`` -- or, with ``--think N``, ``strong:N``.  Beside them
the yardstick, one PyNaCl ed25519 noclamp scalar multiplication timed before and
after in the same run (``yardstick_us``), and the strong level's median and 99th
percentile in yardsticks, so figures from busy and quiet machines compare.
"""

from __future__ import annotations

import random
import time

from p2pbelka.bench.timing import percentile
from p2pbelka.bots.belka.base import BelkaBot, make_belka_bot
from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import legal
from p2pbelka.bots.belka.solver import distinct_moves
from p2pbelka.bots.registry import with_think
from p2pbelka.cards import Card
from p2pbelka.rules.belka.game import GAME as GAME
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_deal, random_hands


def time_level(level: str, deals: int, seed: int = 20261130) -> dict[str, object]:
    """Decision times of ``level`` (seats 0 and 2) over ``deals`` deals."""
    options = options_from("classic")
    rng = random.Random(seed)
    every: list[float] = []
    choices: list[float] = []
    for i in range(deals):
        bots = [
            make_belka_bot(level if s % 2 == 0 else "heuristic", seed + 4 * i + s) for s in range(4)
        ]
        game = GameState.new(options, first_dealer=i % 4).start_deal(random_hands(rng, i % 4))

        def timed(view: GameState, seat: int, bots: list[BelkaBot] = bots) -> Card:
            start = time.perf_counter()
            card = bots[seat].play(view, seat)
            elapsed = (time.perf_counter() - start) * 1000
            if seat % 2 == 0:
                every.append(elapsed)
                assert view.deal is not None
                seen = seen_from(view.deal, seat)  # public facts and its own hand
                blockers = seen.others | sum(1 << c for c in seen.trick)
                if len(distinct_moves(legal(seen), blockers, seen.trump)) > 1:
                    choices.append(elapsed)
            return card

        play_deal(game, timed)
    every.sort()
    choices.sort()
    return {
        f"{level}_decisions": len(every),
        f"{level}_ms_median": percentile(every, 0.5),
        f"{level}_ms_p99": percentile(every, 0.99),
        f"{level}_ms_max": round(every[-1], 2) if every else 0.0,
        f"{level}_choice_decisions": len(choices),
        f"{level}_choice_ms_median": percentile(choices, 0.5),
        f"{level}_choice_ms_p99": percentile(choices, 0.99),
    }


def run(quick: bool = False, think: int | None = None) -> dict[str, object]:
    """``think``: time ``strong:N`` (``--think N``) in place of ``strong+``."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    figures: dict[str, object] = {"yardstick_us": round(yardstick_us(200 if quick else 2000), 1)}
    figures.update(time_level("heuristic", 5 if quick else 100))
    figures.update(time_level("strong", 2 if quick else 60))
    slow = "strong+" if think is None else with_think("strong", think, GAME)
    if slow != "strong":
        figures.update(time_level(slow, 1 if quick else 10))
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for key in ("ms_median", "ms_p99", "choice_ms_median", "choice_ms_p99"):
        ms = float(figures[f"strong_{key}"])  # type: ignore[arg-type]
        figures[f"strong_{key.replace('ms_', '')}_yardsticks"] = round(ms / unit_ms)
    return figures
