"""``p2pbelka bench bots --game belot``: how long each Belot bot level takes a turn.

One bot of the level per deal (its seat rotating) plays 3-player Belot deals
against two ``heuristic`` bots, from its view, and every turn it takes is timed
(a call; or at a lead its declarations and its card or claim; else a card).
Figures per level: median, 99th percentile and maximum in milliseconds over all
turns, over the calls, and over the card turns with a real choice; beside them
the yardstick, one PyNaCl ed25519 noclamp scalar multiplication timed in the
same run (``yardstick_us``), and the strong level's median and 99th percentile
in yardsticks.  With ``--think N``, ``strong:N`` is timed too.
"""

from __future__ import annotations

import time

from p2pbelka.bench.timing import percentile
from p2pbelka.bots.belot.base import BelotBot, decide, make_belot_bot
from p2pbelka.bots.belot.solver import distinct_moves
from p2pbelka.bots.belot.tournament import deal_cards, play_deal
from p2pbelka.bots.registry import with_think
from p2pbelka.cards import CARDS
from p2pbelka.rules.belot.deal import Action, DealState
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.spec import GAME as GAME


def time_belot_level(level: str, deals: int, seed: int = 20261201) -> dict[str, object]:
    """Turn times of one Belot ``level`` seat against two heuristic seats, 3 players."""
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
        figures[f"belot_{level}{name}_ms_median"] = percentile(times, 0.5)
        figures[f"belot_{level}{name}_ms_p99"] = percentile(times, 0.99)
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

    def __call__(self, game: BelotGame, seat: int) -> list[Action]:
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


def _real_choice(deal: DealState, seat: int) -> bool:
    """Two or more cards that play differently (the others are answered without search)."""
    hand = deal.hands[seat] or 0
    blockers = ((1 << 32) - 1) & ~hand & ~deal.played
    assert deal.trump is not None
    return len(distinct_moves(deal.legal_mask(seat), int(deal.trump), blockers)) > 1


def run(quick: bool = False, think: int | None = None) -> dict[str, object]:
    """``think``: time ``strong:N`` (``--think N``) besides ``strong``."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    figures: dict[str, object] = {"yardstick_us": round(yardstick_us(200 if quick else 2000), 1)}
    figures.update(time_belot_level("heuristic", 3 if quick else 60))
    figures.update(time_belot_level("strong", 3 if quick else 60))
    slow = with_think("strong", think, GAME)
    if slow != "strong":
        figures.update(time_belot_level(slow, 1 if quick else 10))
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    unit_ms = max(float(figures["yardstick_us"]), 1e-3) / 1000  # type: ignore[arg-type]
    for key in ("ms_median", "ms_p99"):
        ms = float(figures[f"belot_strong_{key}"])  # type: ignore[arg-type]
        figures[f"belot_strong_{key[3:]}_yardsticks"] = round(ms / unit_ms)
    return figures
