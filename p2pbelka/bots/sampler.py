"""Deal the hidden cards again, consistently with what one seat knows.

Input is a :class:`~p2pbelka.bots.knowledge.Seen` (built from the seat's view)
and nothing else: the cards no one has shown go to the other seats, as many as
each still holds, never into a suit the seat has shown void in, and the J♣ to
its announced holder.  Cards are placed most-constrained first, each to a seat
drawn in proportion to its free places, which keeps the draw close to uniform
over the consistent deals.
"""

from __future__ import annotations

import random

from p2pbelka.bots.knowledge import Seen
from p2pbelka.cards import iter_bits
from p2pbelka.rules import core

_TRIES = 40


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
