"""The Belot rules of thumb on plain ints: bids, declarations and cards.

Shared by the ``heuristic`` level (fed from one seat's :class:`Known`) and by
the ``strong`` level's playouts (fed from a sampled deal), so both play alike.
Nothing here reads a hand the seat could not see: the card choice takes the
seat's hand, the trick, and ``outside`` -- the cards that may still be in
another hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Final

from p2pbelka.cards import SUIT_MASKS, iter_bits
from p2pbelka.rules.belot import core

TRUMP_POINTS: Final = core.POINTS

ABOVE_PLAIN: Final[tuple[int, ...]] = tuple(
    sum(1 << ((c >> 3) * 8 + r) for r in range(8) if core.PLAIN_ORDER[r] > core.PLAIN_ORDER[c & 7])
    for c in range(32)
)
"""``[card]``: the cards of its suit that beat it in a plain suit."""


def above(card: int, trump: int) -> int:
    """The cards of ``card``'s suit that beat it."""
    return core.ABOVE_TRUMP[card] if card >> 3 == trump else ABOVE_PLAIN[card]


def strength(card: int, trump: int) -> int:
    """Rank of a card within its suit (0 = weakest); trumps above every plain card."""
    if card >> 3 == trump:
        return 8 + core.TRUMP_ORDER[card & 7]
    return core.PLAIN_ORDER[card & 7]


# -- bidding ------------------------------------------------------------------------

_TRUMP_VALUE: Final = (0.45, 0.45, 2.2, 1.1, 3.0, 0.6, 0.6, 1.4)
"""Trick-taking worth of a trump by rank index 7 8 9 T J Q K A."""
BID_THRESHOLD: Final[Mapping[int, float]] = {2: 4.0, 3: 4.6}
"""Hand strength (six cards) from which a seat takes the trump, by number of players."""


def suit_strength(hand: int, trump: int, gone: int, fours: Sequence[int]) -> float:
    """How well the six-card ``hand`` would play with ``trump``; ``gone``: cards out of play
    (the turned card).  Trumps by rank (a nine is worth more when the jack is out or
    held), side aces and guarded tens, belle and combinations held already."""
    trumps = hand & SUIT_MASKS[trump]
    total = 0.0
    for c in iter_bits(trumps):
        total += _TRUMP_VALUE[c & 7]
    jack = 1 << (trump * 8 + core.JACK)
    nine = 1 << (trump * 8 + core.NINE)
    if trumps & nine and (trumps | gone) & jack:
        total += 0.8
    count = trumps.bit_count()
    total += 0.5 * max(0, count - 2)
    for suit in range(4):
        if suit == trump:
            continue
        byte = hand >> (8 * suit) & 255
        if byte >> core.ACE & 1:
            total += 1.3
            if byte >> core.TEN & 1:
                total += 0.6
        elif byte >> core.TEN & 1 and byte.bit_count() >= 2:
            total += 0.3
        if byte == 0 and count:
            total += 0.4  # a void to trump into
    for mask in core.combinations_in(hand, trump, fours):
        found = core.combination(mask, trump, fours)
        if found is not None:
            total += found[1] / 40
    return total


def choose_bid(
    hand: int,
    turned: int,
    calls: Sequence[str],
    players: int,
    fours: Sequence[int],
    margin: float = 0.0,
) -> str:
    """A call: take the turned suit (round 1) or the best other suit (round 2) when the
    hand is strong enough; ``margin`` raises the bar (a risky moment) or lowers it."""
    gone = 1 << turned
    bar = BID_THRESHOLD[players] + margin
    if "play" in calls:
        return "play" if suit_strength(hand, turned >> 3, gone, fours) >= bar else "pass"
    best, best_call = bar, "pass"
    for call in calls:
        if call == "pass":
            continue
        s = suit_strength(hand, "CDHS".index(call), gone, fours)
        if s >= best:
            best, best_call = s, call
    return best_call


# -- declarations -------------------------------------------------------------------


@cache
def _run_splits(low: int, high: int, suit: int) -> tuple[tuple[int, ...], ...]:
    """Ways to declare ranks ``low..high-1`` of a run as sequences sharing no card."""
    if high - low < 3:
        return ((),)
    ways = list(_run_splits(low + 1, high, suit))
    for size in range(3, high - low + 1):
        mask = ((1 << size) - 1) << (suit * 8 + low)
        ways.extend((mask, *rest) for rest in _run_splits(low + size, high, suit))
    return tuple(ways)


def declaration_plan(
    hand: int,
    seat: int,
    trump: int,
    fours: Sequence[int],
    declared: Sequence[tuple[int, int, int, int, int]],
) -> list[int]:
    """The masks to declare now, best first: belle whenever held, and the set of
    sequences and fours worth most -- only when its best one beats every other
    seat's declared combination (only the best combination's owner scores)."""
    mine = [(k, m) for s, k, _v, _key, m in declared if s == seat]
    rival = max(
        (key for s, k, _v, key, _m in declared if s != seat and k != core.BELLE), default=-1
    )
    plan: list[int] = []
    belle = (1 << (trump * 8 + core.KING)) | (1 << (trump * 8 + core.QUEEN))
    if hand & belle == belle and (core.BELLE, belle) not in mine:
        plan.append(belle)
    my_seqs = 0
    for k, m in mine:
        if k == core.SEQUENCE:
            my_seqs |= m
    fours_found = [
        r
        for r in range(8)
        if fours[r] > 0
        and hand & core.RANK_MASKS[r] == core.RANK_MASKS[r]
        and (core.FOUR, core.RANK_MASKS[r]) not in mine
    ]
    earlier = max(
        (key for s, k, _v, key, _m in declared if s == seat and k != core.BELLE), default=-1
    )
    best_key, best_value = -1, 0
    best_set: tuple[int, ...] = ()
    options: list[tuple[int, ...]] = [()]
    for suit in range(4):
        byte = (hand & ~my_seqs) >> (8 * suit) & 255
        for start, length in core.RUNS[byte]:
            splits = _run_splits(start, start + length, suit)
            options = [o + w for o in options for w in splits]
    for seqs in options:
        value = sum(core.SEQUENCE_VALUES[m.bit_count()] for m in seqs)
        value += sum(fours[r] for r in fours_found)
        keys = [core.combination(m, trump, fours) for m in seqs]
        key = max((f[2] for f in keys if f is not None), default=-1)
        if fours_found:
            key = max(key, max(1000 + core.FOUR_ORDER[r] for r in fours_found))
        if (value, key) > (best_value, best_key):
            best_key, best_value, best_set = key, value, seqs
    if best_value > 0 and max(best_key, earlier) > rival:
        plan.extend(core.RANK_MASKS[r] for r in fours_found)
        plan.extend(best_set)
    return plan


# -- cards --------------------------------------------------------------------------


def _cheapest(mask: int, trump: int) -> int:
    """The card of ``mask`` that costs least to give away: fewest points, then weakest."""
    pts = TRUMP_POINTS[trump]
    return min(iter_bits(mask), key=lambda c: (pts[c], c >> 3 == trump, strength(c, trump)))


def _weakest(mask: int, trump: int) -> int:
    return min(iter_bits(mask), key=lambda c: strength(c, trump))


def choose_card(
    hand: int,
    legal: int,
    trick: Sequence[int],
    players: int,
    trump: int,
    outside: int,
    tricks_left: int,
    keep: int = 0,
) -> int:
    """A card of ``legal`` by the rules of thumb.

    ``outside``: cards another seat may hold; ``tricks_left``: tricks still to
    finish, this one included; ``keep``: cards worth keeping (an undeclared
    combination), given away last.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not trick:
        return _lead(hand, trump, outside, keep)
    pts = TRUMP_POINTS[trump]
    power = core.POWER[trump][trick[0] >> 3]
    best = max(power[c] for c in trick)
    on_table = sum(pts[c] for c in trick)
    winners = [c for c in iter_bits(legal) if power[c] > best]
    last = len(trick) == players - 1
    if winners:
        if last or tricks_left == 1:
            plain = [c for c in winners if c >> 3 != trump]
            if plain:
                return max(plain, key=lambda c: (pts[c], -strength(c, trump)))
            low = min(winners, key=lambda c: strength(c, trump))
            losers = legal & ~sum(1 << c for c in winners)
            if on_table + pts[low] < 10 and strength(low, trump) >= 8 + 4 and losers:
                return _cheapest(losers & ~keep or losers, trump)
            return low
        # Someone still plays after us: win only with a card nobody can beat.
        safe = [c for c in winners if not above(c, trump) & outside]
        led = trick[0] >> 3
        if safe and (
            led == trump or not outside & SUIT_MASKS[trump] or any(c >> 3 == trump for c in safe)
        ):
            return max(safe, key=lambda c: pts[c] if c >> 3 != trump else -strength(c, trump))
        if safe and on_table >= 10:
            return max(safe, key=lambda c: pts[c])
        if led == trump:
            return min(winners, key=lambda c: strength(c, trump))
    losers = legal & ~sum(1 << c for c in winners)
    if not losers:
        return min(winners, key=lambda c: strength(c, trump))
    return _cheapest(losers & ~keep or losers, trump)


def _lead(hand: int, trump: int, outside: int, keep: int) -> int:
    pts = TRUMP_POINTS[trump]
    trumps = hand & SUIT_MASKS[trump]
    trumps_out = outside & SUIT_MASKS[trump]
    if trumps and trumps_out:
        top = max(iter_bits(trumps), key=lambda c: strength(c, trump))
        if not above(top, trump) & outside and trumps.bit_count() >= 2:
            return top
    masters = [
        c
        for c in iter_bits(hand & ~SUIT_MASKS[trump])
        if not ABOVE_PLAIN[c] & outside and outside & SUIT_MASKS[c >> 3]
    ]
    if masters:
        return max(masters, key=lambda c: pts[c])
    plain = hand & ~SUIT_MASKS[trump]
    if plain:
        # Small from a long suit, not a ten or king that an outstanding ace would catch.
        def cost(c: int) -> tuple[int, int, int]:
            length = (hand & SUIT_MASKS[c >> 3]).bit_count()
            return (pts[c] + (20 if keep >> c & 1 else 0), -length, strength(c, trump))

        return min(iter_bits(plain), key=cost)
    return _weakest(trumps, trump)
