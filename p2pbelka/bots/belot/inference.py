"""Worlds weighted by what the other seats called: inference from Belot's bidding.

The sampler (:func:`search.sample_hands`, :func:`search.sample_bidding`) deals
the hidden cards uniformly over the deals the hard facts allow (voids, a trump
not beaten when it had to be, declared cards, the turned card in the stock).
Here each such world is weighed by how likely the other seats' calls were,
had they held the world's hands (importance sampling, as Kermit weighs Skat
worlds by the bidding):

- a call is read as a soft threshold on the six cards' strength for the suit
  (:func:`~p2pbelka.bots.belot.policy.suit_strength`, the bar
  :data:`~p2pbelka.bots.belot.policy.BID_THRESHOLD` moved by the score as
  :func:`~p2pbelka.bots.belot.heuristic.bid_margin` says): the chance a seat
  takes a suit is a logistic curve of its strength less the bar, of width
  :data:`BID_SPREAD`, kept within :data:`FLOOR` and ``1 - FLOOR`` (players
  differ; no call rules a hand out);
- a ``play`` in the first round multiplies the world's weight by that chance
  for the turned suit, a pass by one less it; a suit named in the second round
  by its chance, a pass there by one less the chance for every suit it could
  have named;
- in the play the six cards a seat called on are not known: its nine (held
  and played) less three of them, drawn :data:`SUBSETS` times at random, the
  weight the mean over the draws (the three more cards are random, so every
  choice of three is as likely);
- a seat that has had its lead (its moment to declare) and held there, in the
  world, a combination sharing no card with what it declared (a sequence, a
  declarable four, belle) is weighed by :data:`UNDECLARED`: players mostly
  declare what they hold, though not always (a combination beaten by one
  already declared scores nothing).

:func:`weighted_hands` and :func:`weighted_bidding` draw ``pool`` worlds and
keep ``n`` of them by weight, without replacement (keys ``u ** (1 / w)``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from p2pbelka.bots.belot.heuristic import bid_margin
from p2pbelka.bots.belot.knowledge import Known
from p2pbelka.bots.belot.policy import BID_THRESHOLD, suit_strength
from p2pbelka.bots.belot.search import sample_bidding, sample_hands
from p2pbelka.cards import iter_bits
from p2pbelka.rules.belot.core import combinations_in

BID_SPREAD: Final = 0.8
"""Width of the logistic curve of a call's chance, in hand strength (about a side ace)."""
FLOOR: Final = 0.05
"""The least chance any call has, whatever the hand."""
SUBSETS: Final = 3
"""Draws of the three more cards per world in the play (the six called on unknown)."""
SUITS: Final = "CDHS"
UNDECLARED: Final = 0.3
"""Weight of a world in which a seat held, at its lead, a combination it did not declare."""


def declarations_likelihood(known: Known, hands: Sequence[int]) -> float:
    """How likely the other seats' declarations (and silences) at their leads are, had they
    held the world's ``hands`` (every seat's cards now): :data:`UNDECLARED` for each seat
    that held at its lead a combination disjoint from what it declared."""
    if known.trump < 0 or not known.played_by or not known.before_lead:
        return 1.0
    weight = 1.0
    for s in range(known.players):
        if s == known.seat or not known.led >> s & 1:
            continue
        at_lead = (hands[s] | known.played_by[s]) & ~known.before_lead[s]
        declared = 0
        for seat, _kind, _value, _key, mask in known.declared:
            if seat == s:
                declared |= mask
        for mask in combinations_in(at_lead, known.trump, known.fours):
            if not mask & declared:
                weight *= UNDECLARED
                break
    return weight


@lru_cache(maxsize=1 << 16)
def take_chance(
    hand: int, suit: int, turned: int, players: int, bar: float, fours: tuple[int, ...]
) -> float:
    """The chance a seat holding the six cards ``hand`` takes ``suit`` as trump."""
    strength = suit_strength(hand, suit, 1 << turned, fours)
    p = 1.0 / (1.0 + math.exp(-(strength - bar) / BID_SPREAD))
    return FLOOR + (1.0 - 2.0 * FLOOR) * p


def calls_likelihood(known: Known, first: Sequence[int]) -> float:
    """How likely the other seats' calls so far are, had they held the six cards ``first``
    (per seat; the bot's own is not read)."""
    n = known.players
    turned_suit = known.turned >> 3
    weight = 1.0
    fours = tuple(known.fours)
    for k, call in enumerate(known.bids):
        seat = (known.dealer + 1 + k) % n
        if seat == known.seat:
            continue
        bar = BID_THRESHOLD[n] + bid_margin(known.scores, seat)

        def chance(suit: int, seat: int = seat, bar: float = bar) -> float:
            return take_chance(first[seat], suit, known.turned, n, bar, fours)

        if k < n:
            p = chance(turned_suit)
            weight *= p if call == "play" else 1.0 - p
        elif call == "pass":
            for suit in range(4):
                if suit != turned_suit:
                    weight *= 1.0 - chance(suit)
        else:
            weight *= chance(SUITS.index(call))
    return weight


def _without_three(cards: int, rng: random.Random) -> int:
    """``cards`` (nine) less three of them drawn at random: the six called on."""
    bits = list(iter_bits(cards))
    for c in rng.sample(bits, min(3, len(bits))):
        cards &= ~(1 << c)
    return cards


def play_likelihood(known: Known, hands: Sequence[int], rng: random.Random) -> float:
    """The weight of a play-phase world (every seat's hand now): :func:`calls_likelihood`
    of each other seat's nine cards (held and played) less three at random, averaged over
    :data:`SUBSETS` draws, times :func:`declarations_likelihood`."""
    declarations = declarations_likelihood(known, hands)
    if not known.bids:
        return declarations
    played_by = known.played_by or (0,) * known.players
    nine = [hands[s] | played_by[s] for s in range(known.players)]
    total = 0.0
    for _ in range(SUBSETS):
        first = [
            nine[s] if s == known.seat else _without_three(nine[s], rng)
            for s in range(known.players)
        ]
        total += calls_likelihood(known, first)
    return declarations * total / SUBSETS


def _keep(keyed: list[tuple[float, int]], n: int) -> list[int]:
    keyed.sort(key=lambda kw: -kw[0])
    return [i for _, i in keyed[:n]]


def weighted_hands(known: Known, rng: random.Random, n: int, pool: int) -> list[list[int]]:
    """``n`` play-phase worlds out of ``pool`` consistent ones, kept by the weight of the
    calls they explain."""
    worlds = [sample_hands(known, rng) for _ in range(max(n, pool))]
    if pool <= n:
        return worlds
    keyed = [
        (rng.random() ** (1.0 / play_likelihood(known, hands, rng)), i)
        for i, hands in enumerate(worlds)
    ]
    return [worlds[i] for i in _keep(keyed, n)]


def weighted_bidding(
    known: Known, rng: random.Random, n: int, pool: int
) -> list[tuple[list[int], list[int]]]:
    """``n`` bidding worlds (six cards and three more per seat) out of ``pool``, kept by the
    weight of the calls made before the bot's."""
    worlds = [sample_bidding(known, rng) for _ in range(max(n, pool))]
    if pool <= n or not known.bids:
        return worlds[:n]
    keyed = [
        (rng.random() ** (1.0 / calls_likelihood(known, first)), i)
        for i, (first, _extra) in enumerate(worlds)
    ]
    return [worlds[i] for i in _keep(keyed, n)]
