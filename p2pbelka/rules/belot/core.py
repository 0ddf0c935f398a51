"""The fast core of Belot: the rules on plain ints, for the engine, benchmarks and bots.

Cards are indices ``0..31`` (``suit * 8 + rank``, ranks ``7 8 9 T J Q K A`` =
``0..7``, as in :mod:`p2pbelka.cards`), sets of cards are 32-bit masks, suits
are ints ``0..3`` (C D H S).  Unlike Belka, a jack is a card of its own suit;
the trump suit only reorders its cards and changes their points.

Main pieces:

- :data:`POINTS`, :func:`mask_points` -- card points (152 in the deck);
- :func:`legal_mask`, :func:`trick_winner` -- following, beating a led trump;
- :func:`combination` -- what a set of declared cards is (sequence, four, belle),
  its value and its comparison key; :func:`combinations_in` -- all a hand may
  declare; :func:`scored_combinations` -- who scores what at the end;
- :func:`deal_result` -- made, bait or hanging;
- :func:`play_random_deal` -- a whole deal (bidding, extra cards, declarations,
  play, totals) with random legal actions: the speed reference and a rollout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from p2pbelka.cards import SUIT_MASKS

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)

DECK_POINTS: Final = 152
"""Card points of all 32 cards: three plain suits of 30 and the trump suit's 62."""
LAST_TRICK: Final = 10
TARGET: Final = 1001

PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
"""Points by rank index ``7 8 9 T J Q K A``."""

PLAIN_ORDER: Final = (0, 1, 2, 6, 3, 4, 5, 7)
TRUMP_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)
"""Strength by rank index: plain A T K Q J 9 8 7, trump J 9 A T K Q 8 7 (high to low)."""

FOUR_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)
"""Rank of fours by rank index: 7 < 8 < Q < K < T < A < 9 < J (the trump order)."""

FOUR_VALUES: Final = (0, 0, 140, 50, 200, 100, 50, 110)
"""Four of a kind by rank index; 8 and 7 come from the options (0: not declarable)."""

SEQUENCE_VALUES: Final = (0, 0, 0, 20, 50, 100, 100, 100, 100)
"""Sequence value by length: terz 20, berz 50, quint and longer 100."""

BELLE_VALUE: Final = 20

RANK_MASKS: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 8 + r) for s in range(4)) for r in range(8)
)
"""``[rank]``: the four cards of one rank."""

SEQUENCE, FOUR, BELLE = 0, 1, 2
KIND_NAMES: Final = ("sequence", "four", "belle")

POINTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((TRUMP_POINTS if c >> 3 == t else PLAIN_POINTS)[c & 7] for c in range(32))
    for t in range(4)
)
"""``[trump][card]``: card points."""

_BYTE_PLAIN: Final = tuple(sum(PLAIN_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))
_BYTE_TRUMP: Final = tuple(sum(TRUMP_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))


def mask_points(mask: int, trump: int) -> int:
    """Card points of the cards in ``mask`` with ``trump`` as trump suit."""
    total = 0
    for s in range(4):
        total += (_BYTE_TRUMP if s == trump else _BYTE_PLAIN)[mask >> (8 * s) & 255]
    return total


def _power(trump: int, led: int, card: int) -> int:
    if card >> 3 == trump:
        return 100 + TRUMP_ORDER[card & 7]
    if card >> 3 == led:
        return PLAIN_ORDER[card & 7]
    return -1


POWER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(_power(t, led, c) for c in range(32)) for led in range(4)) for t in range(4)
)
"""``[trump][led suit][card]``: strength in a trick; the highest wins, -1 never wins."""

ABOVE_TRUMP: Final[tuple[int, ...]] = tuple(
    sum(1 << ((c >> 3) * 8 + r) for r in range(8) if TRUMP_ORDER[r] > TRUMP_ORDER[c & 7])
    for c in range(32)
)
"""``[card]``: the cards of its suit that beat it when that suit is trump."""


def legal_mask(hand: int, led: int, trump: int, top_trump: int = -1) -> int:
    """The cards of ``hand`` that may be played.

    ``led``: suit of the trick's first card, or -1 when leading.  ``top_trump``:
    the highest trump on the table (-1 if none).  Follow the led suit; when
    trumps are led, beat ``top_trump`` if possible.  Void: any card.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    if not follow:
        return hand
    if led == trump and top_trump >= 0:
        over = follow & ABOVE_TRUMP[top_trump]
        if over:
            return over
    return follow


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Offset (0 = the leader) of the card that wins a trick of card indices."""
    power = POWER[trump][cards[0] >> 3]
    best = 0
    best_power = power[cards[0]]
    for offset in range(1, len(cards)):
        p = power[cards[offset]]
        if p > best_power:
            best, best_power = offset, p
    return best


def top_trump(cards: Sequence[int], trump: int) -> int:
    """The strongest trump among ``cards`` (indices), or -1."""
    best = -1
    for card in cards:
        if card >> 3 == trump and (best < 0 or TRUMP_ORDER[card & 7] > TRUMP_ORDER[best & 7]):
            best = card
    return best


# -- combinations -------------------------------------------------------------------


def four_values(four_eights: int, four_sevens: int) -> tuple[int, ...]:
    """The values of fours by rank index with the options' eights and sevens."""
    return (four_sevens, four_eights, *FOUR_VALUES[2:])


def _is_run(byte: int) -> bool:
    low = byte & -byte
    return byte != 0 and (byte + low) & byte == 0


def combination(mask: int, trump: int, fours: Sequence[int]) -> tuple[int, int, int] | None:
    """``(kind, value, key)`` of the declared cards ``mask``, or None if not a combination.

    ``key`` orders combinations for the best one (belle: 0, never compared):
    any four above any sequence, then the four's rank; sequences by length,
    top card, then trump above plain.  Equal keys: the first declared wins.
    """
    count = mask.bit_count()
    if count == 2:
        if mask == (1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN)):
            return (BELLE, BELLE_VALUE, 0)
        return None
    if count == 4:
        for rank in range(8):
            if mask == RANK_MASKS[rank]:
                value = fours[rank]
                return (FOUR, value, 1000 + FOUR_ORDER[rank]) if value > 0 else None
    if count < 3:
        return None
    suit = (mask & -mask).bit_length() - 1 >> 3
    byte = mask >> (8 * suit)
    if byte > 255 or not _is_run(byte):
        return None
    top = byte.bit_length() - 1
    return (SEQUENCE, SEQUENCE_VALUES[count], count * 16 + top * 2 + (suit == trump))


def _runs(byte: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of 3 or more set bits: (lowest bit, length)."""
    runs = []
    r = 0
    while r < 8:
        if byte >> r & 1:
            start = r
            while r < 8 and byte >> r & 1:
                r += 1
            if r - start >= 3:
                runs.append((start, r - start))
        else:
            r += 1
    return tuple(runs)


RUNS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(_runs(b) for b in range(256))
"""``[byte of one suit]``: its maximal runs of 3+ cards, as (lowest rank, length)."""


def combinations_in(hand: int, trump: int, fours: Sequence[int]) -> list[int]:
    """Every mask the hand could declare: every run of 3+ (parts of longer ones too),
    every declarable four, belle."""
    found: list[int] = []
    for suit in range(4):
        for start, length in RUNS[hand >> (8 * suit) & 255]:
            for size in range(3, length + 1):
                for low in range(start, start + length - size + 1):
                    found.append(((1 << size) - 1) << (suit * 8 + low))
    for rank in range(8):
        if fours[rank] > 0 and hand & RANK_MASKS[rank] == RANK_MASKS[rank]:
            found.append(RANK_MASKS[rank])
    belle = (1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN))
    if hand & belle == belle:
        found.append(belle)
    return found


def may_add(declared: Sequence[tuple[int, int, int]], seat: int, mask: int, kind: int) -> bool:
    """Whether ``seat`` may declare ``mask`` after ``declared`` (``(seat, kind, mask)``):
    a four or belle only once, a sequence sharing no card with the seat's sequences."""
    for s, k, m in declared:
        if s != seat or k != kind:
            continue
        if m & mask if kind == SEQUENCE else m == mask:
            return False
    return True


def scored_combinations(
    declared: Sequence[tuple[int, int, int, int]], took_trick: int, players: int
) -> list[int]:
    """Combination points per seat: ``declared`` is ``(seat, kind, value, key)`` in the
    order declared; ``took_trick`` has bit ``s`` set when seat ``s`` took a trick.

    Only the owner of the best counting combination (belle aside) scores its
    combinations, all of them; belle scores for every owner who took a trick.
    """
    scored = [0] * players
    best_seat = -1
    best_key = -1
    for seat, kind, _value, key in declared:
        if kind != BELLE and took_trick >> seat & 1 and key > best_key:
            best_seat, best_key = seat, key
    for seat, kind, value, _key in declared:
        if kind == BELLE:
            if took_trick >> seat & 1:
                scored[seat] += value
        elif seat == best_seat:
            scored[seat] += value
    return scored


# -- the deal's result --------------------------------------------------------------

MADE, BAIT, HANGING = 0, 1, 2
RESULT_NAMES: Final = ("made", "bait", "hanging")


def deal_result(totals: Sequence[int], declarer: int) -> int:
    """MADE when the declarer has strictly the most, BAIT when someone has more, else HANGING."""
    mine = totals[declarer]
    best_other = max(t for s, t in enumerate(totals) if s != declarer)
    if mine > best_other:
        return MADE
    return BAIT if best_other > mine else HANGING


def top_seat(totals: Sequence[int]) -> int:
    """The seat with strictly the most points, or -1 on a tie for the most."""
    best = max(totals)
    seats = [s for s, t in enumerate(totals) if t == best]
    return seats[0] if len(seats) == 1 else -1


def deal_pattern(players: int, dealer: int) -> tuple[int, ...]:
    """Who receives each card of a shuffled deck, in order; -1 for the turned card, -2 stock.

    Six each, three at a time from the seat after the dealer; the turned card;
    then three more each (they come after bidding, from the top of the stock).
    """
    first = tuple((dealer + 1 + k // 3) % players for _ in range(2) for k in range(3 * players))
    extra = tuple((dealer + 1 + k // 3) % players for k in range(3 * players))
    rest = 32 - 9 * players - 1
    return (*first, -1, *extra, *(-2,) * rest)


# -- a whole random deal ------------------------------------------------------------


@dataclass
class DealTrace:
    """What :func:`play_random_deal` did: calls, declarations (seat, trick, mask), cards."""

    calls: list[str] = field(default_factory=list)
    declarations: list[tuple[int, int, int]] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)


def play_random_deal(
    deck: Sequence[int],
    players: int,
    dealer: int,
    getrandbits: Callable[[int], int],
    fours: Sequence[int] = FOUR_VALUES,
    trace: DealTrace | None = None,
) -> tuple[list[int], int, int] | None:
    """A deal from a shuffled deck with random legal actions, on ints only.

    Random calls in both bidding rounds, every combination found at each lead
    declared with probability 1/2 (overlaps skipped), random legal cards.
    Returns (totals per seat, declarer, MADE/BAIT/HANGING), or None for a void
    deal.  The speed reference (``p2pbelka bench rules``) and a rollout for bots.
    ``trace``, if given, receives every call, declaration and card (for tests).
    """
    n = players
    hands = [0] * n
    for k in range(6 * n):
        seat = (dealer + 1 + (k % (3 * n)) // 3) % n
        hands[seat] |= 1 << deck[k]
    turned = deck[6 * n]
    declarer = -1
    trump = turned >> 3
    calls = []
    for k in range(n):
        if getrandbits(2) == 0:
            declarer = (dealer + 1 + k) % n
            calls.append("play")
            break
        calls.append("pass")
    if declarer < 0:
        for k in range(n):
            call = getrandbits(3)
            if call < 4 and call != trump:
                declarer = (dealer + 1 + k) % n
                trump = call
                calls.append("CDHS"[call])
                break
            calls.append("pass")
    if trace is not None:
        trace.calls.extend(calls)
    if declarer < 0:
        return None
    for k in range(3 * n):
        hands[(dealer + 1 + k // 3) % n] |= 1 << deck[6 * n + 1 + k]
    power_t = POWER[trump]
    points = POINTS[trump]
    card_points = [0] * n
    declared: list[tuple[int, int, int, int]] = []
    masks: list[tuple[int, int, int]] = []
    took = 0
    leader = (dealer + 1) % n
    winner = leader
    for trick_no in range(9):
        hand = hands[leader]
        if hand.bit_count() >= 2:
            for mask in combinations_in(hand, trump, fours):
                found = combination(mask, trump, fours)
                if found is not None and getrandbits(1) and may_add(masks, leader, mask, found[0]):
                    masks.append((leader, found[0], mask))
                    declared.append((leader, *found))
                    if trace is not None:
                        trace.declarations.append((leader, trick_no, mask))
        m = hand & getrandbits(32) or hand
        bit = m & -m
        hands[leader] = hand ^ bit
        card = bit.bit_length() - 1
        if trace is not None:
            trace.plays.append(card)
        led = card >> 3
        pw = power_t[led]
        follow = SUIT_MASKS[led]
        best = pw[card]
        top = card if led == trump else -1
        winner = leader
        total = points[card]
        for offset in range(1, n):
            seat = (leader + offset) % n
            hand = hands[seat]
            legal = hand & follow
            if not legal:
                legal = hand
            elif top >= 0:
                legal = legal & ABOVE_TRUMP[top] or legal
            m = legal & getrandbits(32) or legal
            bit = m & -m
            hands[seat] = hand ^ bit
            card = bit.bit_length() - 1
            if trace is not None:
                trace.plays.append(card)
            p = pw[card]
            if p > best:
                best = p
                winner = seat
                if top >= 0:  # trumps led: only a higher trump beats
                    top = card
            total += points[card]
        card_points[winner] += total
        took |= 1 << winner
        leader = winner
    card_points[winner] += LAST_TRICK
    scored = scored_combinations(declared, took, n)
    totals = [card_points[s] + scored[s] for s in range(n)]
    return totals, declarer, deal_result(totals, declarer)
