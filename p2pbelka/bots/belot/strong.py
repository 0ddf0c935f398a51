"""The ``strong`` Belot level: determinized search over the hidden cards.

Cards: for each decision the bot deals the cards it has not seen again many
times, consistently with what its seat knows (:func:`search.sample_hands`),
and scores every distinct legal card on every such deal: the rules of thumb
play the deal on for every seat (declaring at their leads, claiming 1001 when
true) until few cards are left, and an exact search finishes it
(:func:`solver.solve`).  A card's score is the mean :func:`search.utility`:
the bot's written points less the others' mean -- so a declarer's bait
(nothing written), a hanging bait, hanging points paid to the top seat, and
the 1001 race (a claim or a win on the scores) all weigh as at the table.

Bids: the same, one level up: for each call, deals of the hidden six-card
hands, the three more cards of every seat and the stock are sampled, the
other seats call by the rules of thumb, and the deal is played out; the call
with the best mean utility is made (ties to the rules of thumb).

Declarations and claims follow the rules of thumb: declare what can score,
claim 1001 as soon as it is true.  Seeded: the same seed makes the same moves.

With ``infer`` (not yet the level's default: being measured), the sampled
worlds are weighed by the calls they explain (:mod:`p2pbelka.bots.belot.inference`).

``strong:N`` (:meth:`StrongBelotBot.thinking`, ``--think N``) samples N times as
many deals for each card and each call: N times as long, and closer to the
search's best.
"""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.bots.belot.fastsolver import solve
from p2pbelka.bots.belot.heuristic import HeuristicBelotBot, bid_margin, heuristic_card
from p2pbelka.bots.belot.inference import weighted_bidding, weighted_hands
from p2pbelka.bots.belot.knowledge import Known, known_from
from p2pbelka.bots.belot.policy import choose_bid
from p2pbelka.bots.belot.search import (
    bid_out,
    playout,
    sample_bidding,
    sample_hands,
    sim_from,
    step,
    utility,
)
from p2pbelka.bots.belot.solver import Table, distinct_moves
from p2pbelka.bots.common.budget import UNLIMITED, Budget
from p2pbelka.cards import CARDS, FULL_MASK, Card
from p2pbelka.rules.belot.game import BelotGame

SAMPLES = 48
"""Deals sampled per card decision."""
BID_SAMPLES = 64
"""Deals sampled per call."""
SOLVE_CARDS: Mapping[int, int] = {2: 4, 3: 3}
"""By the number of players: cards a hand at most when the exact search
(:func:`solver.solve`) takes over from the rules of thumb -- where a world costs
about a millisecond on a quiet machine."""
POOL = 4
"""With inference (``infer``): consistent worlds drawn per world kept."""
MAX_THINK = 8
"""The highest think level (``strong:N``): N times the sampled deals of each decision."""


class StrongBelotBot(HeuristicBelotBot):
    """Determinized search (see the module text); ``samples`` and ``solve_cards`` buy strength."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = SAMPLES,
        bid_samples: int = BID_SAMPLES,
        solve_cards: int | None = None,
        infer: bool = True,
        pool: int = POOL,
        budget: Budget = UNLIMITED,
    ) -> None:
        super().__init__(seed)
        self.budget = budget
        """The time a call or a card may take (worlds stop being added once it is spent)."""
        self.samples = samples
        self.bid_samples = bid_samples
        self.solve_cards = solve_cards
        """Cards a hand when the exact search starts (None: :data:`SOLVE_CARDS`)."""
        self.infer = infer
        """Weigh the sampled worlds by the calls they explain (:mod:`.inference`)."""
        self.pool = pool
        """With ``infer``: worlds drawn per world kept."""

    @classmethod
    def thinking(cls, think: int, seed: int | None = None) -> StrongBelotBot:
        """The bot at think level ``think`` (1 to :data:`MAX_THINK`): ``think`` times the
        deals sampled for each card and each call, so about as many times as long."""
        if not 1 <= think <= MAX_THINK:
            raise ValueError(f"think level {think} (expected 1 to {MAX_THINK})")
        return cls(seed, samples=SAMPLES * think, bid_samples=BID_SAMPLES * think)

    # -- bidding --------------------------------------------------------------------

    def bid(self, game: BelotGame, seat: int) -> str:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        calls = deal.legal_calls(seat)
        hint = super().bid(game, seat)
        values = [0.0] * len(calls)
        if self.infer:
            worlds = weighted_bidding(
                known, self.rng, self.bid_samples, self.pool * self.bid_samples
            )
        else:
            worlds = [sample_bidding(known, self.rng) for _ in range(self.bid_samples)]
        spent = self.budget.start()
        for k, (first, extra) in enumerate(worlds):
            if spent(k):
                break
            for i, call in enumerate(calls):
                values[i] += call_value(known, first, extra, call)
        best = max(range(len(calls)), key=lambda i: (values[i], calls[i] == hint))
        return calls[best]

    # -- cards ----------------------------------------------------------------------

    def play(self, game: BelotGame, seat: int) -> Card:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        legal = deal.legal_mask(seat)
        trick_mask = sum(1 << c for c in known.trick)
        blockers = (FULL_MASK & ~known.hand & ~known.played) | trick_mask
        moves = distinct_moves(legal, known.trump, blockers)
        if len(moves) == 1:
            return CARDS[moves[0]]
        return CARDS[self.choose(known, moves, heuristic_card(known, legal))]

    def choose(self, known: Known, moves: list[int], hint: int) -> int:
        """The move of ``moves`` with the best mean utility over sampled deals."""
        scores = [0.0] * len(moves)
        if self.infer:
            worlds = weighted_hands(known, self.rng, self.samples, self.pool * self.samples)
        else:
            worlds = [sample_hands(known, self.rng) for _ in range(self.samples)]
        stop = self.solve_cards
        if stop is None:
            stop = SOLVE_CARDS[known.players]
        spent = self.budget.start()
        for k, hands in enumerate(worlds):
            if spent(k):
                break
            for i, value in enumerate(world_values(known, hands, moves, stop)):
                scores[i] += value
        best = max(range(len(moves)), key=lambda i: (scores[i], moves[i] == hint))
        return moves[best]


def world_values(known: Known, hands: list[int], moves: list[int], stop: int) -> list[float]:
    """The seat's utility of each of ``moves`` in one world (``hands``): the rules of thumb
    play on for every seat until ``stop`` cards a hand are left, the exact search finishes."""
    base = sim_from(known, hands)
    tt: Table = {}  # the moves' lines meet again in this world
    values: list[float] = []
    for card in moves:
        sim = base.copy()
        step(sim, card)
        playout(sim, stop)
        values.append(utility(sim, known.seat) if sim.over else solve(sim, known.seat, tt))
    return values


def call_value(known: Known, first: list[int], extra: list[int], call: str) -> float:
    """The bot's utility of one sampled deal when it makes ``call`` and the others call
    and play by the rules of thumb (0 for a deal all pass twice)."""

    def bid_of(seat: int, calls: list[str]) -> str:
        return choose_bid(
            first[seat],
            known.turned,
            calls,
            known.players,
            known.fours,
            bid_margin(known.scores, seat),
        )

    sim = bid_out(known, first, extra, call, bid_of)
    if sim is None:
        return 0.0
    playout(sim)
    return utility(sim, known.seat)
