"""Sparring partners for measuring the bots, written apart from them on purpose.

A bot measured only against the heuristic level may merely have learnt to read
the heuristic.  These two play otherwise, and the ``strong`` level never uses
them (not in its search, not in its model of the other seats):

- ``mc``: plain determinized Monte-Carlo.  Hidden cards dealt uniformly over
  the deals consistent with the voids shown (no reading of the play), every
  candidate card played on each deal by a greedy rollout of its own (win a
  trick cheaply when you can, else play your lowest card), an exact finish
  for the last three tricks, and the card with the most card points on
  average wins.  20 samples a decision (the ``strong`` level keeps 80).
- ``pimc``: the same player at the size of the plain PIMC players the strong
  level is measured against from outside: 96 uniform worlds a decision, and
  each world solved exactly by the double-dummy search to the end of the deal,
  from the first trick with the compiled solver (:mod:`p2pbelka.bots.belka.fastsolver`).
  Without it a whole deal costs seconds a world in Python (about 14 s for eight
  cards a hand), so there the exact search starts once its hand holds four
  cards or fewer (before that, the greedy rollout to three cards a hand and the
  exact finish).
- ``rules``: a rule-based player unlike the heuristic: aces first, trumps led
  from length, second hand low, third hand high, the last hand wins as cheaply
  as it can, a partner's trick gets nothing extra, ruffs with the lowest trump.

:func:`bench_bot` builds them, and every registered level, by name for the
``tournament`` command.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from p2pbelka.bots.belka import fastsolver
from p2pbelka.bots.belka.base import BELKA_BOT_LEVELS, BelkaBot, make_belka_bot
from p2pbelka.bots.belka.knowledge import Seen, low_card, seen_from, top_card
from p2pbelka.bots.belka.policy import legal
from p2pbelka.bots.belka.sampler import sample_hands
from p2pbelka.bots.belka.solver import TT, distinct_moves, playout, solve, step
from p2pbelka.cards import CARDS, Card, iter_bits
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.game import GAME as GAME
from p2pbelka.rules.belka.game import GameState

POINTS = core.POINTS
EFF = core.EFFECTIVE_SUIT_MASKS
ESUIT = core.EFFECTIVE_SUIT
POWER = core.POWER
TRUMPS = core.TRUMP_MASKS


def _beaters(s: Seen, options: int) -> list[int]:
    """The cards of ``options`` that would take the trick as it stands."""
    t = s.trump
    led = ESUIT[t][s.trick[0]]
    pw = POWER[t][led]
    best = pw[s.trick[core.trick_winner(s.trick, t)]]
    return [c for c in iter_bits(options) if pw[c] > best]


def _lowest(options: int, trump: int) -> int:
    """Fewest points, then weakest, plain cards before trumps."""
    return min(
        iter_bits(options),
        key=lambda c: (TRUMPS[trump] >> c & 1, POINTS[c], POWER[trump][ESUIT[trump][c]][c]),
    )


def _poor_hand(game: GameState, seat: int) -> bool:
    """The sparring partners' re-deal rule: ask with fewer than 10 card points."""
    deal = game.deal
    if deal is None or not deal.can_claim_redeal(seat):
        return False
    hand = deal.dealt[seat]
    return hand is not None and core.mask_points(hand) < 10


# -- the rule-based player --------------------------------------------------------------


def rules_choice(s: Seen) -> int:
    """The rule-based player's card."""
    options = legal(s)
    t = s.trump
    if not s.trick:
        return _rules_lead(s, options)
    winner = (s.leader + core.trick_winner(s.trick, t)) & 3
    position = len(s.trick)
    beaters = _beaters(s, options)
    cheapest_win = (
        min(beaters, key=lambda c: (POINTS[c], POWER[t][ESUIT[t][c]][c])) if beaters else -1
    )
    if winner == s.seat ^ 2:
        return _lowest(options, t)
    if position == 3 and beaters:
        return cheapest_win
    if position == 1:
        led = ESUIT[t][s.trick[0]]
        # Second hand low, unless it holds the suit's master.
        top = top_card(options & EFF[t][led], t, led)
        out = top_card(s.others & EFF[t][led], t, led)
        if top >= 0 and top in beaters and (out < 0 or POWER[t][led][top] > POWER[t][led][out]):
            return top
        if beaters and not options & EFF[t][led]:
            return (
                low_card(options & TRUMPS[t], t, t) if options & TRUMPS[t] else _lowest(options, t)
            )
        return _lowest(options, t)
    if beaters:
        # Third hand high.
        return max(beaters, key=lambda c: POWER[t][ESUIT[t][c]][c])
    return _lowest(options, t)


def _rules_lead(s: Seen, options: int) -> int:
    t = s.trump
    aces = options & core.ACES_MASK & ~TRUMPS[t]
    if aces:
        return min(iter_bits(aces))
    trumps = options & TRUMPS[t]
    if trumps.bit_count() >= 3:
        return top_card(trumps, t, t)
    plain = options & ~TRUMPS[t]
    if plain:
        longest = max(
            (u for u in range(4) if u != t and plain & EFF[t][u]),
            key=lambda u: (plain & EFF[t][u]).bit_count(),
        )
        return low_card(plain, t, longest)
    return low_card(options, t, t)


class RuleBot:
    """The rule-based sparring partner; re-deals with fewer than 10 card points."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def play(self, game: GameState, seat: int) -> Card:
        assert game.deal is not None
        return CARDS[rules_choice(seen_from(game.deal, seat))]

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return _poor_hand(game, seat)

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return "plus4"


# -- the plain Monte-Carlo player -------------------------------------------------------


def _greedy(s: Seen) -> int:
    """The rollout policy: take the trick as cheaply as possible, else play the lowest card."""
    options = legal(s)
    t = s.trump
    if s.trick:
        winner = (s.leader + core.trick_winner(s.trick, t)) & 3
        beaters = _beaters(s, options)
        if winner != s.seat ^ 2 and beaters:
            return min(beaters, key=lambda c: (POWER[t][ESUIT[t][c]][c], POINTS[c]))
        return _lowest(options, t)
    return max(iter_bits(options), key=lambda c: (POINTS[c], POWER[t][ESUIT[t][c]][c]))


class PlainMCBot:
    """Plain determinized Monte-Carlo (see the module text)."""

    def __init__(
        self, seed: int | None = None, samples: int = 20, solve_cards: int = 3, exact_cards: int = 0
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.solve_cards = solve_cards
        self.exact_cards = exact_cards
        """With this many cards in hand or fewer, each world is solved exactly to the end."""

    def play(self, game: GameState, seat: int) -> Card:
        assert game.deal is not None
        seen = seen_from(game.deal, seat)
        blockers = seen.others
        for c in seen.trick:
            blockers |= 1 << c
        moves = distinct_moves(legal(seen), blockers, seen.trump)
        if len(moves) == 1:
            return CARDS[moves[0]]
        team = seat & 1
        left = 120 - seen.points[0] - seen.points[1]
        scores = [0.0] * len(moves)
        tt: TT = {}
        stop = 8 if seen.hand.bit_count() <= self.exact_cards else self.solve_cards
        for _ in range(self.samples):
            hands = sample_hands(seen, self.rng)
            total: int | None = None  # team 0's points of the world's last move solved
            for i, card in enumerate(moves):
                h = list(hands)
                s = replace(
                    seen, trick=list(seen.trick), voids=list(seen.voids), led_by=list(seen.led_by)
                )
                got0 = step(h, s, card)
                if h[s.leader].bit_count() + (1 if s.trick else 0) > stop:
                    got0 += playout(h, s, stop, _greedy)
                if fastsolver.available():
                    guess = None if total is None else total - got0
                    got0 += fastsolver.solve(h, s.leader, s.trick, seen.trump, guess)
                    total = got0
                else:
                    got0 += solve(h, s.leader, s.trick, seen.trump, tt)
                scores[i] += got0 if team == 0 else left - got0
        return CARDS[moves[max(range(len(moves)), key=lambda i: scores[i])]]

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return _poor_hand(game, seat)

    def choose_eggs(self, game: GameState, seat: int) -> str:
        return "plus4"


def pimc_exact_cards() -> int:
    """``pimc`` solves each world exactly from this many cards in hand: the whole deal with
    the compiled solver, four cards without it (whole deals cost seconds a world in Python).
    Asked when a bot is made: asking imports numba, which importing this module need not."""
    return 8 if fastsolver.available() else 4


class PlainPIMCBot(PlainMCBot):
    """``pimc``: plain Monte-Carlo at 96 worlds, each solved exactly (see the module text)."""

    def __init__(
        self, seed: int | None = None, samples: int = 96, exact_cards: int | None = None
    ) -> None:
        exact = pimc_exact_cards() if exact_cards is None else exact_cards
        super().__init__(seed, samples=samples, exact_cards=exact)


SPARRING: Mapping[str, type] = {"mc": PlainMCBot, "pimc": PlainPIMCBot, "rules": RuleBot}
"""The sparring levels, by name."""


def bench_levels() -> list[str]:
    return [*BELKA_BOT_LEVELS, *SPARRING]


def bench_bot(level: str, seed: int | None = None) -> BelkaBot:
    """A registered level (``strong:N`` too) or a sparring partner, by name."""
    factory = SPARRING.get(level)
    if factory is None:
        return make_belka_bot(level, seed)
    bot: BelkaBot = factory(seed)
    return bot
