"""Deal the hidden cards again, consistently with what one seat knows.

Input is a :class:`~p2pbelka.bots.knowledge.Seen` (built from the seat's view)
and nothing else: the cards no one has shown go to the other seats, as many as
each still holds, never into a suit the seat has shown void in, and the J♣ to
its announced holder.  Cards are placed most-constrained first, each to a seat
drawn in proportion to its free places, which keeps the draw close to uniform
over the consistent deals.  :func:`weighted_samples` then prefers the deals
that explain the cards the others chose to play.
"""

from __future__ import annotations

import random

from p2pbelka.bots.knowledge import Seen
from p2pbelka.bots.policy import choose
from p2pbelka.bots.solver import step
from p2pbelka.cards import iter_bits
from p2pbelka.rules import core

_TRIES = 40
POINTS = core.POINTS
SURPRISE = 4.0
"""How much less likely a deal is for each play in it a sound player would not make."""


def sample_hands(seen: Seen, rng: random.Random) -> list[int]:
    """Four hands: the seat's own, and a consistent guess for each other seat."""
    for _ in range(_TRIES):
        hands = _try(seen, rng, respect_voids=True)
        if hands is not None:
            return hands
    # Cannot happen with a consistent view; a guess ignoring voids still lets the bot play.
    hands = _try(seen, rng, respect_voids=False)
    assert hands is not None
    return hands


def _try(seen: Seen, rng: random.Random, respect_voids: bool) -> list[int] | None:
    esuit = core.EFFECTIVE_SUIT[seen.trump]
    seats = [s for s in range(4) if s != seen.seat]
    need = [0 if s == seen.seat else seen.counts[s] for s in range(4)]
    hands = [0, 0, 0, 0]
    hands[seen.seat] = seen.hand
    cards = list(iter_bits(seen.others))
    jc = core.JC_INDEX
    if jc in cards:
        cards.remove(jc)
        holder = seen.jc_holder
        if holder == seen.seat or need[holder] == 0:
            holder = max(seats, key=lambda s: need[s])
        hands[holder] |= 1 << jc
        need[holder] -= 1
    voids = seen.voids if respect_voids else [0, 0, 0, 0]
    rng.shuffle(cards)
    eligible = {c: [s for s in seats if not voids[s] >> esuit[c] & 1] for c in cards}
    cards.sort(key=lambda c: len(eligible[c]))
    for c in cards:
        places = [s for s in eligible[c] if need[s]]
        if not places:
            return None
        total = sum(need[s] for s in places)
        pick = rng.randrange(total)
        for s in places:
            pick -= need[s]
            if pick < 0:
                break
        hands[s] |= 1 << c
        need[s] -= 1
    return hands


def surprises(seen: Seen, hands: list[int]) -> int:
    """How many of the other seats' plays so far a sound player would not have made.

    The deal is replayed from the sampled hands as dealt, each seat shown only
    what it could see then.  Cards that play alike (small cards of one suit)
    count as the same choice.
    """
    esuit = core.EFFECTIVE_SUIT[seen.trump]
    start = list(hands)
    for seat, card in seen.history:
        start[seat] |= 1 << card
    scratch = Seen(
        seat=seen.seat,
        trump=seen.trump,
        jc_holder=seen.jc_holder,
        hand=0,
        played=0,
        trick=[],
        leader=seen.first_leader,
        voids=[0, 0, 0, 0],
        led_by=[0, 0, 0, 0],
        counts=[8, 8, 8, 8],
        led_suits=0,
        points=(0, 0),
        ace_rule=seen.ace_rule,
        history=[],
        first_leader=seen.first_leader,
    )
    surprises = 0
    for seat, card in seen.history:
        if seat != seen.seat:
            scratch.seat = seat
            scratch.hand = start[seat]
            guess = choose(scratch)
            if guess != card and not (
                esuit[guess] == esuit[card] and POINTS[guess] == POINTS[card] == 0
            ):
                surprises += 1
        step(start, scratch, card)
    return surprises


def weighted_samples(seen: Seen, rng: random.Random, n: int, pool: int) -> list[list[int]]:
    """``n`` deals out of ``pool`` consistent ones, favouring those that explain the play.

    A deal in which the others' cards so far are what a sound player holding
    those hands would have played is likelier than one where they are not:
    each surprise divides a deal's weight by :data:`SURPRISE`.  Drawn without
    replacement by weight (keys ``u ** (1 / w)``).
    """
    if not seen.history or pool <= n:
        return [sample_hands(seen, rng) for _ in range(n)]
    keyed: list[tuple[float, list[int]]] = []
    for _ in range(pool):
        hands = sample_hands(seen, rng)
        weight = SURPRISE ** -surprises(seen, hands)
        keyed.append((rng.random() ** (1.0 / weight), hands))
    keyed.sort(key=lambda kh: -kh[0])
    return [hands for _, hands in keyed[:n]]
