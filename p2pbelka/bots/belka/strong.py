"""The ``strong`` level: determinized search over the hidden cards.

For each decision the bot deals the hidden cards again many times, each time
consistently with what its seat knows (:mod:`p2pbelka.bots.belka.sampler`), and
scores every distinct legal card on every such deal: the heuristic policy plays
the deal on (each seat seeing only its own cards) until few cards are left, and
an exact double-dummy search (:func:`p2pbelka.bots.belka.solver.solve`) finishes it.
With five cards or fewer in hand the exact search starts at once.  A card's
score is the mean, over the deals, of what the deal's result is worth to the
bot's team in the game as it stands (:func:`p2pbelka.bots.belka.utility.deal_values`,
scored by the rules engine: the 12-point goal, goli and the eggs bonus weigh
as they do at the table).  Re-deal claims and the eggs choice are valued the
same way.  Seeded: the same seed plays the same cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from p2pbelka.bots.belka import fastsolver
from p2pbelka.bots.belka.knowledge import Seen, seen_from
from p2pbelka.bots.belka.policy import choose, legal
from p2pbelka.bots.belka.reading import Reading
from p2pbelka.bots.belka.sampler import Shares, sample_hands, weighted_samples
from p2pbelka.bots.belka.solver import TT, distinct_moves, playout, solve, step
from p2pbelka.bots.belka.utility import (
    after_deal,
    after_redeal,
    best_eggs,
    deal_values,
    fresh_deal_values,
    win_chance,
)
from p2pbelka.bots.common.budget import UNLIMITED, Budget
from p2pbelka.cards import CARDS, Card
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import Options

SAMPLES = 80
"""Deals sampled per decision."""
POOL = 4
"""Consistent deals drawn per sample kept: the sampler keeps those that best explain the play."""
SOLVE_CARDS = 3
"""Cards a hand at most when the exact search takes over from the playout."""
EXACT_CARDS = 5
"""Cards in the bot's hand at most for the whole rest of the deal to be searched exactly:
a heuristic trick before the exact finish misjudges cashing a master (leading 9♠
instead of the master A♦ with four cards left).  Five since the search got about
three times cheaper, at the same decision budget as four was."""
EXACT_SAMPLES = 20
"""Deals sampled when the search is exact to the end: no playout noise, so fewer suffice."""
REDEAL_SAMPLES = 48
"""Deals played out (heuristic playouts) to value keeping a hand that may ask for a re-deal."""

THINK: Mapping[int, tuple[int, int, int, int]] = {
    1: (SAMPLES, SOLVE_CARDS, POOL, EXACT_CARDS),
    2: (120, 3, 4, 5),
    3: (200, 3, 4, 5),
}
"""``--think`` levels: (samples, solve_cards, pool, exact_cards); 1 is the ``strong`` budget.
Levels above 3 keep level 3's exact search and add 40 deals a level."""
MAX_THINK = 8
"""The highest think level: 640 deals a decision, seconds each."""


def think_budget(think: int) -> tuple[int, int, int, int]:
    """(samples, solve_cards, pool, exact_cards) at ``--think`` level ``think``."""
    if not 1 <= think <= MAX_THINK:
        raise ValueError(f"think level {think} (expected 1 to {MAX_THINK})")
    if think in THINK:
        return THINK[think]
    _, solve_cards, pool, exact = THINK[max(THINK)]
    return (SAMPLES * think, solve_cards, pool, exact)


def points_after(
    seen: Seen, hands: list[int], card: int, stop: int, tt: TT, near: int | None = None
) -> int:
    """Card points team 0 takes from now to the end of the deal in one world (``hands``)
    when the seat plays ``card``: the heuristic plays on for every seat until ``stop``
    cards a hand are left, the exact search finishes the deal.  ``near``: a total the
    answer is likely close to (another card's in the same world), a start for the
    compiled search."""
    h = list(hands)
    s = seen.copy()
    got0 = step(h, s, card)
    if h[s.leader].bit_count() + (1 if s.trick else 0) > stop:
        got0 += playout(h, s, stop)
    if fastsolver.available():
        # The same values compiled (numba): the same choices, sooner.
        guess = None if near is None else near - got0
        return got0 + fastsolver.solve(h, s.leader, s.trick, seen.trump, guess)
    return got0 + solve(h, s.leader, s.trick, seen.trump, tt)


class StrongBot:
    """Determinized search (see the module text); ``samples`` and ``solve_cards`` buy strength."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = SAMPLES,
        solve_cards: int = SOLVE_CARDS,
        pool: int = POOL,
        exact_cards: int = EXACT_CARDS,
        budget: Budget = UNLIMITED,
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        """The time a card decision may take (worlds stop being added once it is spent)."""
        self.samples = samples
        self.solve_cards = solve_cards
        self.pool = pool
        self.exact_cards = exact_cards
        self._values: tuple[object, Callable[[int], float]] | None = None
        self._readings: dict[int, Reading] = {}

    @classmethod
    def thinking(cls, think: int, seed: int | None = None) -> StrongBot:
        """The bot at ``--think`` level ``think`` (1 to :data:`MAX_THINK`): slower, stronger."""
        samples, solve_cards, pool, exact = think_budget(think)
        return cls(seed, samples=samples, solve_cards=solve_cards, pool=pool, exact_cards=exact)

    def play(self, game: GameState, seat: int) -> Card:
        deal = game.deal
        if deal is None:
            raise ValueError("no deal in progress")
        seen = seen_from(deal, seat)
        reading = self._readings.setdefault(seat, Reading(seat))
        reading.update(game)
        value = self._deal_values(game, seat & 1)
        return CARDS[self.choose(seen, game.options, value, reading.shares())]

    def _deal_values(self, game: GameState, team: int) -> Callable[[int], float]:
        """The game-aware value of each result of this deal, kept for the deal's decisions."""
        key = (game.deal_number, game.score, game.eggs_pending, game.games_won, team)
        if self._values is None or self._values[0] != key:
            self._values = (key, deal_values(game, team))
        return self._values[1]

    def choose(
        self,
        seen: Seen,
        options: Options,
        value: Callable[[int], float] | None = None,
        shares: list[Shares] | None = None,
    ) -> int:
        """The card to play, from the seat's knowledge only.

        ``value``: game-point equivalents of the team's card points at the end of
        the deal (:func:`~p2pbelka.bots.belka.utility.deal_values`); without one, as
        at 0:0 (:func:`~p2pbelka.bots.belka.utility.fresh_deal_values`).  ``shares``:
        per seat, the player types read in the game's earlier deals
        (:class:`~p2pbelka.bots.belka.reading.Reading`); without them, the prior.
        """
        trump = seen.trump
        blockers = seen.others
        for c in seen.trick:
            blockers |= 1 << c
        moves = distinct_moves(legal(seen), blockers, trump)
        if len(moves) == 1:
            return moves[0]
        hint = choose(seen)
        team = seen.seat & 1
        if value is None:
            value = fresh_deal_values(options, team, seen.trump_team)
        left = 120 - seen.points[0] - seen.points[1]
        taken = seen.points[team]
        scores = [0.0] * len(moves)
        tt: TT = {}
        samples, stop = self.samples, self.solve_cards
        if seen.hand.bit_count() <= self.exact_cards:
            samples, stop = min(samples, max(EXACT_SAMPLES, samples // 4)), 8
        spent = self.budget.start()
        worlds = weighted_samples(seen, self.rng, samples, self.pool * samples, shares)
        for k, hands in enumerate(worlds):
            if spent(k):
                break
            total: int | None = None  # team 0's points of the world's last move solved
            for i, card in enumerate(moves):
                # The world's moves often end alike: each starts from the last one's total.
                got0 = points_after(seen, hands, card, stop, tt, total)
                total = got0
                mine = got0 if team == 0 else left - got0
                scores[i] += value(taken + mine)
        # Ties (common when the outcome is settled) go to the rule-of-thumb card.
        best = max(range(len(moves)), key=lambda i: (scores[i], moves[i] == hint))
        return moves[best]

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        """Ask when the game after a re-deal (as the engine scores it) beats playing the hand."""
        deal = game.deal
        if deal is None or not deal.can_claim_redeal(seat):
            return False
        team = seat & 1
        redeal = win_chance(after_redeal(game, seat), team)
        return redeal > self.keep_chance(game, seat)

    def keep_chance(self, game: GameState, seat: int) -> float:
        """The team's chance to win the game if the hand is played: heuristic playouts."""
        deal = game.deal
        assert deal is not None
        seen = seen_from(deal, seat)
        team = seat & 1
        total = 0.0
        cache: dict[int, float] = {}
        for _ in range(REDEAL_SAMPLES):
            hands = sample_hands(seen, self.rng)
            points0 = playout(hands, seen.copy())
            if points0 not in cache:
                cache[points0] = win_chance(after_deal(game, points0), team)
            total += cache[points0]
        return total / REDEAL_SAMPLES

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return best_eggs(game, seat)


class StrongPlusBot(StrongBot):
    """The ``strong+`` level: ``strong`` thinking longer (``--think 3``)."""

    def __init__(self, seed: int | None = None) -> None:
        samples, solve_cards, pool, exact = THINK[3]
        super().__init__(
            seed, samples=samples, solve_cards=solve_cards, pool=pool, exact_cards=exact
        )
