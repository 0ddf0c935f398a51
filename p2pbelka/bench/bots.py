"""``p2pbelka bench bots``: how long each bot level takes to choose a card, on one core.

The bots of one team play whole deals against the ``heuristic`` level from
their views, as at a table, and every decision is timed.  Figures per level:
median, 99th percentile and maximum in milliseconds, over all decisions and
over the decisions with a real choice (two or more cards that play
differently; the others are answered without search).  Levels: heuristic,
strong, and ``strong+`` -- or, with ``--think N``, ``strong:N``.

``--game belot``: one bot of the level per deal (its seat rotating) plays
3-player Belot deals against two ``heuristic`` bots, from its view, and every
turn it takes is timed (a call; or at a lead its declarations and its card or
claim; else a card).  Figures per level: median, 99th percentile and maximum
in milliseconds over all turns, over the calls, and over the card turns with
a real choice; beside them the yardstick, one PyNaCl ed25519 noclamp scalar
multiplication timed in the same run (``yardstick_us``), and the strong
level's median and 99th percentile in yardsticks.
"""

from __future__ import annotations

import random
import time

from p2pbelka.bots.base import Bot, make_bot, with_think
from p2pbelka.bots.belot.base import BelotBot
from p2pbelka.bots.knowledge import seen_from
from p2pbelka.bots.policy import legal
from p2pbelka.bots.solver import distinct_moves
from p2pbelka.cards import CARDS, Card
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_deal, random_hands
from p2pbelka.rules.belot.deal import Action as BelotAction
from p2pbelka.rules.belot.deal import DealState as BelotDeal
from p2pbelka.rules.belot.game import BelotGame


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

        def timed(view: GameState, seat: int, bots: list[Bot] = bots) -> Card:
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
        f"{level}_ms_median": _percentile(every, 0.5),
        f"{level}_ms_p99": _percentile(every, 0.99),
        f"{level}_ms_max": round(every[-1], 2) if every else 0.0,
        f"{level}_choice_decisions": len(choices),
        f"{level}_choice_ms_median": _percentile(choices, 0.5),
        f"{level}_choice_ms_p99": _percentile(choices, 0.99),
    }


def time_belot_level(level: str, deals: int, seed: int = 20261201) -> dict[str, object]:
    """Turn times of one Belot ``level`` seat against two heuristic seats, 3 players."""
    from p2pbelka.bots.belot.base import make_belot_bot
    from p2pbelka.bots.belot.tournament import deal_cards, play_deal

    every: list[float] = []
    calls: list[float] = []
    choices: list[float] = []
    for i in range(deals):
        timed = i % 3
        bots = [
            make_belot_bot(level if s == timed else "heuristic", seed + 3 * i + s) for s in range(3)
        ]
        game = BelotGame.new(players=3, first_dealer=(i // 3) % 3)
        first, turned, extra = deal_cards(seed, i, 3, game.dealer)
        game = game.start_deal(first, CARDS[turned])
        timer = _TurnTimer(bots, timed)
        play_deal(game, extra, timer)
        every += timer.every
        calls += timer.calls
        choices += timer.choices
    figures: dict[str, object] = {}
    for name, times in (("", every), ("_call", calls), ("_card_choice", choices)):
        times.sort()
        figures[f"belot_{level}{name}_turns"] = len(times)
        figures[f"belot_{level}{name}_ms_median"] = _percentile(times, 0.5)
        figures[f"belot_{level}{name}_ms_p99"] = _percentile(times, 0.99)
        figures[f"belot_{level}{name}_ms_max"] = round(times[-1], 2) if times else 0.0
    return figures


class _TurnTimer:
    """Asks the bots for each turn (through ``decide``), timing the turns of one seat."""

    def __init__(self, bots: list[BelotBot], timed: int) -> None:
        self.bots = bots
        self.timed = timed
        self.every: list[float] = []
        self.calls: list[float] = []
        self.choices: list[float] = []

    def __call__(self, game: BelotGame, seat: int) -> list[BelotAction]:
        from p2pbelka.bots.belot.base import decide

        deal = game.deal
        assert deal is not None
        start = time.perf_counter()
        actions = decide(self.bots[seat], game, seat)
        elapsed = (time.perf_counter() - start) * 1000
        if seat == self.timed:
            self.every.append(elapsed)
            if deal.phase == "bidding":
                self.calls.append(elapsed)
            elif _real_choice(deal, seat):
                self.choices.append(elapsed)
        return actions


def _real_choice(deal: BelotDeal, seat: int) -> bool:
    """Two or more cards that play differently (the others are answered without search)."""
    from p2pbelka.bots.belot.search import distinct_moves

    hand = deal.hands[seat] or 0
    blockers = ((1 << 32) - 1) & ~hand & ~deal.played
    assert deal.trump is not None
    return len(distinct_moves(deal.legal_mask(seat), int(deal.trump), blockers)) > 1


def run_belot(quick: bool) -> dict[str, object]:
    from p2pbelka.bench.deal_crypto import yardstick_us

    figures: dict[str, object] = {"yardstick_us": round(yardstick_us(200 if quick else 2000), 1)}
    figures.update(time_belot_level("heuristic", 3 if quick else 60))
    figures.update(time_belot_level("strong", 3 if quick else 60))
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for key in ("ms_median", "ms_p99"):
        ms = float(figures[f"belot_strong_{key}"])  # type: ignore[arg-type]
        figures[f"belot_strong_{key[3:]}_yardsticks"] = round(ms / unit_ms)
    return figures


def run(quick: bool = False, game: str = "belka", think: int | None = None) -> dict[str, object]:
    """``think``: time ``strong:N`` (``--think N``) in place of ``strong+``."""
    if game == "belot":
        return run_belot(quick)
    figures: dict[str, object] = {}
    figures.update(time_level("heuristic", 5 if quick else 100))
    figures.update(time_level("strong", 2 if quick else 60))
    slow = "strong+" if think is None else with_think("strong", think)
    if slow != "strong":
        figures.update(time_level(slow, 1 if quick else 10))
    return figures
