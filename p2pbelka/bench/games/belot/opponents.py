"""Belot sparring partners for measuring the bots, written apart from them on purpose.

A bot measured only against its own heuristic may merely have learnt to read
it.  These two play otherwise, and the ``strong`` level never uses them:

- ``rules``: a rule-based club player.  Bids by a count of its six cards (trump
  J 3, 9 2, A 1.5, any other trump 1, a side ace 1, a guarded side ten 0.5):
  takes the turned suit, or in the second round its best other suit, at 6 or
  more with three players and 5 or more with two.  Declares everything it may,
  largest first.  Plays side aces first, leads its top trump as declarer with
  three trumps or more, else low from its longest side suit; second hand low
  unless it holds the suit's master; the last hand takes the trick as cheaply as
  it can; void, it ruffs a trick worth ten or more with its lowest trump that
  wins, else throws its cheapest card.
- ``pimc``: plain determinized Monte-Carlo (perfect-information Monte Carlo).
  Worlds dealt uniformly over the deals consistent with the facts the rules
  make public (voids shown, a trump not beaten when it had to be, declared
  cards), no reading of calls or plays; each world solved exactly by the
  double-dummy search, with the compiled search from the first position where
  nothing can be declared any more and at most nine cards a hand with two
  players (the whole deal), six with three (:data:`EXACT_CARDS`); until then,
  and without the compiled search down to three cards a hand with three
  players (four with two), a greedy rollout of its own (take the trick as
  cheaply as possible, else the cheapest card; lead the card worth most); the card
  with the best mean written-point utility (the deal's score as the rules give
  it, the 1001 race included) is played.  96 worlds a card decision; a call is
  chosen the same way, over 40 deals with every later call made by the
  ``rules`` player's count and the deal played out by the greedy rollout.
  Declarations as the rules of thumb say what scores; claims 1001 when true.

:func:`bench_bot` builds them, and every registered Belot level, by name for the
``tournament`` command (``tournament --game belot --b pimc``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from p2pbelka.bots.belot import fastsolver
from p2pbelka.bots.belot.base import BELOT_BOT_LEVELS, BelotBot, make_belot_bot
from p2pbelka.bots.belot.fastsolver import solve
from p2pbelka.bots.belot.knowledge import Known, known_from
from p2pbelka.bots.belot.policy import declaration_plan
from p2pbelka.bots.belot.search import (
    Sim,
    at_lead,
    bid_out,
    sample_bidding,
    sample_hands,
    sim_from,
    step,
    utility,
)
from p2pbelka.bots.belot.solver import Table, distinct_moves
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.cards import CARDS, FULL_MASK, SUIT_MASKS, Card, from_mask, iter_bits
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import Declare
from p2pbelka.rules.belot.game import BelotGame

POWER = core.POWER
POINTS = core.POINTS
SUITS = "CDHS"


def _power(card: int, trump: int, led: int) -> int:
    return POWER[trump][led][card]


def _cheapest(options: int, trump: int) -> int:
    """Fewest points, then weakest; plain cards before trumps."""
    return min(
        iter_bits(options),
        key=lambda c: (c >> 3 == trump, POINTS[trump][c], _power(c, trump, c >> 3)),
    )


def _beaters(options: int, trick: list[int], trump: int) -> list[int]:
    """The cards of ``options`` that would take ``trick`` as it stands."""
    led = trick[0] >> 3
    best = max(_power(c, trump, led) for c in trick)
    return [c for c in iter_bits(options) if _power(c, trump, led) > best]


# -- bidding by count --------------------------------------------------------------------


def hand_count(hand: int, trump: int) -> float:
    """The ``rules`` player's count of a hand with ``trump`` as trump (see the module text)."""
    total = 0.0
    for c in iter_bits(hand):
        suit, rank = c >> 3, c & 7
        if suit == trump:
            total += {core.JACK: 3.0, core.NINE: 2.0, core.ACE: 1.5}.get(rank, 1.0)
        elif rank == core.ACE:
            total += 1.0
        elif rank == core.TEN and (hand & SUIT_MASKS[suit]).bit_count() >= 2:
            total += 0.5
    return total


def count_bid(hand: int, turned: int, calls: list[str], players: int) -> str:
    """The ``rules`` player's call among ``calls``."""
    bar = 6.0 if players == 3 else 5.0
    if "play" in calls:
        return "play" if hand_count(hand, turned >> 3) >= bar else "pass"
    suits = [s for s in calls if s != "pass"]
    if not suits:
        return "pass"
    best = max(suits, key=lambda s: hand_count(hand, SUITS.index(s)))
    return best if hand_count(hand, SUITS.index(best)) >= bar else "pass"


# -- the rule-based player ---------------------------------------------------------------


def rules_card(known: Known, legal: int) -> int:
    """The ``rules`` player's card."""
    trump, trick = known.trump, known.trick
    if not trick:
        return _rules_lead(known, legal)
    n = known.players
    led = trick[0] >> 3
    position = len(trick)
    beaters = _beaters(legal, trick, trump)
    cheapest_win = (
        min(beaters, key=lambda c: (POINTS[trump][c], _power(c, trump, led))) if beaters else -1
    )
    if position == n - 1:
        return cheapest_win if beaters else _cheapest(legal, trump)
    if legal & SUIT_MASKS[led]:
        # Second hand low, unless it holds the suit's master.
        outside = known.outside & SUIT_MASKS[led]
        top = max(iter_bits(legal & SUIT_MASKS[led]), key=lambda c: _power(c, trump, led))
        master = all(_power(c, trump, led) < _power(top, trump, led) for c in iter_bits(outside))
        if top in beaters and master:
            return top
        return _cheapest(legal, trump)
    worth = sum(POINTS[trump][c] for c in trick)
    trumps = [c for c in beaters if c >> 3 == trump]
    if trumps and worth >= 10:
        return min(trumps, key=lambda c: _power(c, trump, led))
    return _cheapest(legal & ~SUIT_MASKS[trump] or legal, trump)


def _rules_lead(known: Known, legal: int) -> int:
    trump = known.trump
    aces = [c for c in iter_bits(legal) if c & 7 == core.ACE and c >> 3 != trump]
    if aces:
        return aces[0]
    trumps = legal & SUIT_MASKS[trump]
    if known.declarer == known.seat and trumps.bit_count() >= 3:
        return max(iter_bits(trumps), key=lambda c: _power(c, trump, trump))
    plain = legal & ~SUIT_MASKS[trump]
    if plain:
        longest = max(
            (s for s in range(4) if plain & SUIT_MASKS[s]),
            key=lambda s: (plain & SUIT_MASKS[s]).bit_count(),
        )
        return min(iter_bits(plain & SUIT_MASKS[longest]), key=lambda c: _power(c, trump, longest))
    return min(iter_bits(legal), key=lambda c: _power(c, trump, c >> 3))


class RulesBelotBot:
    """The rule-based sparring partner (see the module text)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def bid(self, game: BelotGame, seat: int) -> str:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        return count_bid(known.hand, known.turned, deal.legal_calls(seat), known.players)

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        deal = game.deal
        assert deal is not None
        chosen: list[tuple[Card, ...]] = []
        for _ in range(8):
            legal = deal.legal_declarations(seat)
            if not legal:
                break
            pick = max(legal, key=len)
            chosen.append(pick)
            deal = deal.apply(Declare(seat, pick))
        return chosen

    def claim(self, game: BelotGame, seat: int) -> bool:
        return game.deal is not None and game.deal.can_claim(seat)

    def play(self, game: BelotGame, seat: int) -> Card:
        deal = game.deal
        assert deal is not None
        return CARDS[rules_card(known_from(game, seat), deal.legal_mask(seat))]


# -- the plain Monte-Carlo player --------------------------------------------------------


def greedy_card(sim: Sim) -> int:
    """The rollout policy: take the trick as cheaply as possible, else the cheapest card;
    lead the card worth most."""
    seat = sim.turn
    legal = sim.legal(seat)
    trump = sim.trump
    if not sim.trick:
        return max(iter_bits(legal), key=lambda c: (POINTS[trump][c], _power(c, trump, c >> 3)))
    beaters = _beaters(legal, sim.trick, trump)
    if beaters:
        led = sim.trick[0] >> 3
        return min(beaters, key=lambda c: (_power(c, trump, led), POINTS[trump][c]))
    return _cheapest(legal, trump)


def greedy_playout(sim: Sim, stop: int = 0) -> None:
    """Play on with :func:`greedy_card` for every seat until the deal ends or the hands
    hold ``stop`` cards (at each lead, the leader declares and claims as the search does)."""
    while not sim.over:
        if not sim.trick:
            if sim.hands[sim.leader].bit_count() <= stop:
                return
            at_lead(sim)
            if sim.over:
                return
        step(sim, greedy_card(sim))


EXACT_CARDS: Mapping[int, int] = {2: 9, 3: 6}
"""By the number of players: ``pimc`` solves a world exactly from this many cards a hand
(the whole deal with two; about a millisecond a world with three at six cards) once no
seat can declare any more, with the compiled search."""


def rollout_to_exact(sim: Sim, exact: int, stop: int) -> None:
    """Play the greedy rollout on until the compiled search can take the position: at
    most ``exact`` cards a hand and nothing left to declare (a seat still to lead may
    declare only at its lead), or else until ``stop`` cards a hand, a trick start."""
    while not sim.over:
        cards = max(hand.bit_count() for hand in sim.hands)
        if cards <= exact and fastsolver.frozen(sim):
            return
        if not sim.trick:
            if cards <= stop:
                return
            at_lead(sim)
            if sim.over:
                return
        step(sim, greedy_card(sim))


class PlainPIMCBelotBot(RulesBelotBot):
    """Plain determinized Monte-Carlo (see the module text)."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 96,
        bid_samples: int = 40,
        solve_cards: int | None = None,
        exact_cards: int | None = None,
    ) -> None:
        super().__init__(seed)
        self.samples = samples
        self.bid_samples = bid_samples
        self.solve_cards = solve_cards
        """Cards a hand when the exact search takes over at the latest."""
        self.exact_cards = exact_cards
        """Cards a hand from which the compiled search takes over as soon as nothing is left
        to declare (None: :data:`EXACT_CARDS`, or never without the compiled search)."""

    def bid(self, game: BelotGame, seat: int) -> str:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        calls = deal.legal_calls(seat)
        values = [0.0] * len(calls)
        for _ in range(self.bid_samples):
            first, extra = sample_bidding(known, self.rng)
            for i, call in enumerate(calls):
                values[i] += _call_value(known, first, extra, call)
        return calls[max(range(len(calls)), key=lambda i: values[i])]

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        known = known_from(game, seat)
        plan = declaration_plan(known.hand, seat, known.trump, known.fours, known.declared)
        return [tuple(from_mask(mask)) for mask in plan]

    def play(self, game: BelotGame, seat: int) -> Card:
        deal = game.deal
        assert deal is not None
        known = known_from(game, seat)
        trick_mask = sum(1 << c for c in known.trick)
        blockers = (FULL_MASK & ~known.hand & ~known.played) | trick_mask
        moves = distinct_moves(deal.legal_mask(seat), known.trump, blockers)
        if len(moves) == 1:
            return CARDS[moves[0]]
        stop = self.solve_cards
        if stop is None:
            stop = 3 if known.players == 3 else 4
        exact = self.exact_cards
        if exact is None:
            exact = EXACT_CARDS[known.players] if fastsolver.available() else 0
        scores = [0.0] * len(moves)
        for _ in range(self.samples):
            base = sim_from(known, sample_hands(known, self.rng))
            tt: Table = {}  # the moves' lines meet again in this world
            for i, card in enumerate(moves):
                sim = base.copy()
                step(sim, card)
                rollout_to_exact(sim, exact, stop)
                scores[i] += utility(sim, seat) if sim.over else solve(sim, seat, tt)
        return CARDS[moves[max(range(len(moves)), key=lambda i: scores[i])]]


def _call_value(known: Known, first: list[int], extra: list[int], call: str) -> float:
    """The utility of one sampled deal when the bot makes ``call``, the later seats call by
    count and every seat plays by the greedy rollout (0 for a deal all pass twice)."""

    def bid_of(seat: int, calls: list[str]) -> str:
        return count_bid(first[seat], known.turned, calls, known.players)

    sim = bid_out(known, first, extra, call, bid_of)
    if sim is None:
        return 0.0
    greedy_playout(sim)
    return utility(sim, known.seat)


class StrongBeforeBot(StrongBelotBot):
    """``strong-before``: the ``strong`` level as it was before inference and the deeper
    exact search became its defaults (uniform worlds, 24 a card and 40 a call, the exact
    search from two cards a hand): kept to measure the level against, not a sparring
    partner."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, samples=24, bid_samples=40, solve_cards=2, infer=False)


SPARRING: Mapping[str, type] = {
    "pimc": PlainPIMCBelotBot,
    "rules": RulesBelotBot,
    "strong-before": StrongBeforeBot,
}
"""The sparring levels (and the strong level's experiments), by name."""


def bench_levels() -> list[str]:
    return [*BELOT_BOT_LEVELS, *SPARRING]


def bench_bot(level: str, seed: int | None = None) -> BelotBot:
    """A registered Belot level (``strong:N`` too) or a sparring partner, by name."""
    factory = SPARRING.get(level)
    if factory is None:
        return make_belot_bot(level, seed)
    bot: BelotBot = factory(seed)
    return bot
