"""Determinized Belot deals for the ``strong`` level: sampling, playouts, exact endgames.

- :func:`sample_hands` deals the cards one seat has not seen to the other
  hands and the stock, consistently with what the seat knows (:class:`Known`):
  as many cards as each seat holds, none it cannot hold (voids shown,
  trumps it did not beat a trump with), declared cards to their owner, the
  turned card to no one.  During bidding it also deals the three more cards
  of every seat, the bot's own included: nobody knows them yet.
- :class:`Sim` is one such deal with every hand known, played on by
  :func:`step`; at each lead the leader declares by the rules of thumb and
  claims 1001 when it is true (:func:`at_lead`).
- :func:`playout` plays on with the rules of thumb for every seat;
  :func:`solver.solve` searches the last cards exactly, the bot maximizing
  and the others minimizing its :func:`utility` (a paranoid search: the
  others together against the bot, which is what a forced win must survive).
- :func:`utility` is what the deal's end is worth to the bot: its written
  points less the mean of the others', bait and hanging bait included, and
  :data:`WIN` for winning the game at 1001 (by a claim or on the scores).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from p2pbelka.bots.belot.knowledge import Known
from p2pbelka.bots.belot.policy import choose_card, declaration_plan
from p2pbelka.cards import FULL_MASK, iter_bits
from p2pbelka.rules.belot import core

WIN: Final = 500.0
"""Utility of winning the game (minus for another seat winning it), in written points."""
_TRIES: Final = 30
BidOf = Callable[[int, list[str]], str]
"""A later seat's call in a simulated bidding: ``(seat, calls it may make) -> call``."""


@dataclass(slots=True)
class Sim:
    """A deal in progress with every hand known (scratch: :meth:`copy` before playing on)."""

    players: int
    trump: int
    turned: int
    declarer: int
    hands: list[int]
    trick: list[int]
    leader: int
    tricks: int
    played: int
    points: list[int]
    took: int
    declared: list[tuple[int, int, int, int, int]]
    led: int
    scores: tuple[int, ...]
    hanging: int
    fours: tuple[int, ...]
    claimer: int = -1
    last: int = -1

    def copy(self) -> Sim:
        return Sim(
            self.players,
            self.trump,
            self.turned,
            self.declarer,
            list(self.hands),
            list(self.trick),
            self.leader,
            self.tricks,
            self.played,
            list(self.points),
            self.took,
            list(self.declared),
            self.led,
            self.scores,
            self.hanging,
            self.fours,
            self.claimer,
            self.last,
        )

    @property
    def over(self) -> bool:
        return self.claimer >= 0 or self.tricks == 9

    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led = self.trick[0] >> 3
        top = core.top_trump(self.trick, self.trump) if led == self.trump else -1
        return core.legal_mask(hand, led, self.trump, top)

    def outside(self, seat: int) -> int:
        """Cards another seat may hold, as ``seat`` would reckon them (the stock's too)."""
        return FULL_MASK & ~self.played & ~self.hands[seat] & ~(1 << self.turned)


def sim_start(
    players: int,
    trump: int,
    turned: int,
    declarer: int,
    hands: list[int],
    leader: int,
    scores: tuple[int, ...],
    hanging: int,
    fours: tuple[int, ...],
) -> Sim:
    """A deal at its first lead, every hand of nine known: nothing played or declared."""
    return Sim(
        players=players,
        trump=trump,
        turned=turned,
        declarer=declarer,
        hands=hands,
        trick=[],
        leader=leader,
        tricks=0,
        played=0,
        points=[0] * players,
        took=0,
        declared=[],
        led=0,
        scores=scores,
        hanging=hanging,
        fours=fours,
    )


def bid_out(
    known: Known, first: list[int], extra: list[int], call: str, bid_of: BidOf
) -> Sim | None:
    """The sampled deal at its first lead after the bot's ``call``, the later seats calling
    by ``bid_of(seat, calls)``; None when every seat passes twice (a void deal)."""
    n = known.players
    bids = [*known.bids, call]
    suit = known.turned >> 3
    while bids[-1] == "pass":
        if len(bids) == 2 * n:
            return None
        seat = (known.dealer + 1 + len(bids)) % n
        if len(bids) < n:
            calls = ["play", "pass"]
        else:
            calls = [s for i, s in enumerate("CDHS") if i != suit] + ["pass"]
        bids.append(bid_of(seat, calls))
    last = bids[-1]
    return sim_start(
        n,
        suit if last == "play" else "CDHS".index(last),
        known.turned,
        (known.dealer + len(bids)) % n,
        [first[s] | extra[s] for s in range(n)],
        (known.dealer + 1) % n,
        known.scores,
        known.hanging,
        known.fours,
    )


def sim_from(known: Known, hands: list[int]) -> Sim:
    """The deal of ``known`` with the sampled ``hands`` (a play-phase position)."""
    return Sim(
        players=known.players,
        trump=known.trump,
        turned=known.turned,
        declarer=known.declarer,
        hands=hands,
        trick=list(known.trick),
        leader=known.leader,
        tricks=known.tricks,
        played=known.played,
        points=list(known.points),
        took=known.took,
        declared=list(known.declared),
        led=known.led,
        scores=known.scores,
        hanging=known.hanging,
        fours=known.fours,
    )


# -- sampling -----------------------------------------------------------------------


def sample_hands(known: Known, rng: random.Random) -> list[int]:
    """Every seat's hand now: the bot's own, and a consistent guess for the others."""
    for _ in range(_TRIES):
        hands = _try(known, rng, respect=True)
        if hands is not None:
            return hands
    # Only an inconsistent view gets here; a guess ignoring the inferences still plays.
    hands = _try(known, rng, respect=False)
    assert hands is not None
    return hands


def _try(known: Known, rng: random.Random, respect: bool) -> list[int] | None:
    n = known.players
    stock = n  # the stock is the last "seat"
    need = [0] * (n + 1)
    hands = [0] * (n + 1)
    for s in range(n):
        if s == known.seat:
            hands[s] = known.hand
        else:
            hands[s] = known.shown[s]
            need[s] = known.counts[s] - known.shown[s].bit_count()
    need[stock] = known.unseen.bit_count() - sum(need[:n])
    cards = list(iter_bits(known.unseen))
    rng.shuffle(cards)
    places = [s for s in range(n + 1) if need[s] > 0]
    excluded = known.excluded if respect else [0] * n
    eligible = {c: [s for s in places if s == stock or not excluded[s] >> c & 1] for c in cards}
    cards.sort(key=lambda c: len(eligible[c]))
    for c in cards:
        open_places = [s for s in eligible[c] if need[s]]
        if not open_places:
            return None
        pick = rng.randrange(sum(need[s] for s in open_places))
        for s in open_places:
            pick -= need[s]
            if pick < 0:
                break
        hands[s] |= 1 << c
        need[s] -= 1
    return hands[:n]


def sample_bidding(known: Known, rng: random.Random) -> tuple[list[int], list[int]]:
    """During bidding: (every seat's six cards, every seat's three more), consistently
    with the bot's own six and the turned card."""
    n = known.players
    pool = list(iter_bits(FULL_MASK & ~known.hand & ~(1 << known.turned)))
    rng.shuffle(pool)
    first = [0] * n
    extra = [0] * n
    k = 0
    for s in range(n):
        if s == known.seat:
            first[s] = known.hand
            continue
        for c in pool[k : k + 6]:
            first[s] |= 1 << c
        k += 6
    for s in range(n):
        for c in pool[k : k + 3]:
            extra[s] |= 1 << c
        k += 3
    return first, extra


# -- playing on ---------------------------------------------------------------------


def step(sim: Sim, card: int) -> None:
    """The seat to play plays ``card``; a full trick goes to its winner."""
    n = sim.players
    seat = (sim.leader + len(sim.trick)) % n
    bit = 1 << card
    sim.hands[seat] &= ~bit
    sim.played |= bit
    sim.trick.append(card)
    if len(sim.trick) < n:
        return
    trump = sim.trump
    winner = (sim.leader + core.trick_winner(sim.trick, trump)) % n
    pts = core.POINTS[trump]
    sim.points[winner] += sum(pts[c] for c in sim.trick)
    sim.took |= 1 << winner
    sim.tricks += 1
    sim.trick = []
    sim.leader = winner
    sim.last = winner


def _scored(sim: Sim) -> list[int]:
    declared = [(s, k, v, key) for s, k, v, key, _m in sim.declared]
    return core.scored_combinations(declared, sim.took, sim.players)


Declared = tuple[int, int, int, int, int]
"""``(seat, kind, value, key, mask)``: a combination declared."""


def declare_at_lead(
    hand: int, seat: int, trump: int, fours: tuple[int, ...], declared: list[Declared]
) -> list[Declared]:
    """What ``seat`` declares at its first lead holding ``hand``, by the rules of thumb."""
    out: list[Declared] = []
    for mask in declaration_plan(hand, seat, trump, fours, declared):
        found = core.combination(mask, trump, fours)
        if found is not None:
            out.append((seat, *found, mask))
    return out


def at_lead(sim: Sim) -> None:
    """The leader's moment: declare by the rules of thumb (once a deal), claim if true."""
    seat = sim.leader
    if not sim.led >> seat & 1:
        sim.led |= 1 << seat
        sim.declared += declare_at_lead(sim.hands[seat], seat, sim.trump, sim.fours, sim.declared)
    if 1 <= sim.tricks <= 8:
        base = sim.scores[seat] + sim.points[seat]
        if base + sum(d[2] for d in sim.declared if d[0] == seat) >= core.TARGET:
            if base + _scored(sim)[seat] >= core.TARGET:
                sim.claimer = seat


def playout(sim: Sim, stop: int = 0) -> None:
    """Play on by the rules of thumb until the deal ends or the hands hold ``stop`` cards."""
    n = sim.players
    while not sim.over:
        if not sim.trick:
            if sim.hands[sim.leader].bit_count() <= stop:
                return
            at_lead(sim)
            if sim.over:
                return
        seat = (sim.leader + len(sim.trick)) % n
        card = choose_card(
            sim.hands[seat],
            sim.legal(seat),
            sim.trick,
            n,
            sim.trump,
            sim.outside(seat),
            9 - sim.tricks,
        )
        step(sim, card)


def utility(sim: Sim, me: int) -> float:
    """What the finished deal (or the claim) is worth to seat ``me``."""
    n = sim.players
    if sim.claimer >= 0:
        return WIN if sim.claimer == me else -WIN
    scored = _scored(sim)
    totals = [
        sim.points[s] + scored[s] + (core.LAST_TRICK if s == sim.last else 0) for s in range(n)
    ]
    return deal_value(totals, me, sim.declarer, sim.hanging, sim.scores, sim.last)


def deal_value(
    totals: list[int], me: int, declarer: int, hanging: int, scores: tuple[int, ...], last: int
) -> float:
    """What a deal ending with ``totals`` (card and combination points, the last trick's
    ten included) is worth to ``me``: written points, bait and hanging, the 1001 race."""
    n = len(totals)
    written = list(totals)
    result = core.deal_result(totals, declarer)
    if result != core.MADE:
        written[declarer] = 0
    if result != core.HANGING and hanging:
        top = core.top_seat(totals)
        if top >= 0:
            written[top] += hanging
    score = [scores[s] + written[s] for s in range(n)]
    over = [s for s in range(n) if score[s] >= core.TARGET]
    value = written[me] - sum(written[s] for s in range(n) if s != me) / (n - 1)
    if over:
        winner = last if last in over else max(over, key=lambda s: score[s])
        value += WIN if winner == me else -WIN
    return value
