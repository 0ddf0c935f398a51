"""The fast core: Belka rules on plain ints, for the engine, benchmarks and bots.

Cards are indices ``0..31`` (``suit * 8 + rank``, as in :mod:`p2pbelka.cards`),
sets of cards are 32-bit masks, suits and trumps are ints ``0..3`` (C D H S).
Nothing here allocates objects per card, so a bot can search millions of
positions.  The clean API in :mod:`p2pbelka.rules.belka.deal` is built on these.

Jacks always belong to the trump suit: the *effective suit* of a jack is the
trump, and ``EFFECTIVE_SUIT_MASKS[trump][suit]`` is the set of cards that
follow ``suit`` (jacks moved into the trump suit).

Main functions:

- :func:`legal_mask` -- the cards a hand may play to a trick;
- :func:`trick_winner` -- the offset (0..3 from the leader) of a trick's winner;
- :func:`mask_points` -- card points of a set of cards;
- :func:`nth_card` -- pick a card of a mask (uniform random choice);
- :func:`play_random_deal` -- a whole deal played with random legal cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from p2pbelka.cards import SUIT_MASKS

JACK: Final = 4
ACE: Final = 7
NINE: Final = 2

JACKS_MASK: Final = sum(1 << (s * 8 + JACK) for s in range(4))
NINES_MASK: Final = sum(1 << (s * 8 + NINE) for s in range(4))
ACES_MASK: Final = sum(1 << (s * 8 + ACE) for s in range(4))
JC_INDEX: Final = 0 * 8 + JACK
"""Index of the jack of clubs, the card that decides trump and the trump team."""

RANK_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[i & 7] for i in range(32))
"""Card points by card index: A 11, T 10, K 4, Q 3, J 2, 9 8 7 nothing (120 in the deck)."""

# Order inside a plain suit by rank index 7 8 9 T J Q K A: A > T > K > Q > 9 > 8 > 7.
_PLAIN_ORDER: Final = (0, 1, 2, 5, -1, 3, 4, 6)
# Jacks above every other trump: J♣ > J♠ > J♥ > J♦, by suit C D H S.
_JACK_ORDER: Final = (10, 7, 8, 9)


def _effective_suit_masks(trump: int) -> tuple[int, int, int, int]:
    masks = [SUIT_MASKS[s] & ~JACKS_MASK for s in range(4)]
    masks[trump] |= JACKS_MASK
    return (masks[0], masks[1], masks[2], masks[3])


EFFECTIVE_SUIT_MASKS: Final[tuple[tuple[int, int, int, int], ...]] = tuple(
    _effective_suit_masks(t) for t in range(4)
)
"""``[trump][suit]``: the cards that count as ``suit`` (jacks only in the trump suit)."""

TRUMP_MASKS: Final[tuple[int, ...]] = tuple(EFFECTIVE_SUIT_MASKS[t][t] for t in range(4))
"""``[trump]``: the 11 trumps (the trump suit and the four jacks)."""

EFFECTIVE_SUIT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(t if i & 7 == JACK else i >> 3 for i in range(32)) for t in range(4)
)
"""``[trump][card]``: the suit a card follows."""


def _power(trump: int, led: int, card: int) -> int:
    if card & 7 == JACK:
        return 100 + _JACK_ORDER[card >> 3]
    if card >> 3 == trump:
        return 100 + _PLAIN_ORDER[card & 7]
    if card >> 3 == led:
        return _PLAIN_ORDER[card & 7]
    return -1


POWER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(_power(t, led, c) for c in range(32)) for led in range(4)) for t in range(4)
)
"""``[trump][led suit][card]``: strength in a trick; the highest wins, -1 never wins."""

_BYTE_POINTS: Final[tuple[int, ...]] = tuple(
    sum(RANK_POINTS[r] for r in range(8) if b >> r & 1) for b in range(256)
)


def mask_points(mask: int) -> int:
    """Card points of the cards in ``mask``."""
    return (
        _BYTE_POINTS[mask & 255]
        + _BYTE_POINTS[mask >> 8 & 255]
        + _BYTE_POINTS[mask >> 16 & 255]
        + _BYTE_POINTS[mask >> 24 & 255]
    )


def unled_aces(trump: int, led_suits: int) -> int:
    """The plain-suit aces of suits not yet led (``led_suits``: bit ``s`` set once ``s`` led)."""
    mask = 0
    for s in range(4):
        if s != trump and not led_suits >> s & 1:
            mask |= 1 << (s * 8 + ACE)
    return mask


def legal_mask(hand: int, led: int, trump: int, banned_aces: int = 0) -> int:
    """The cards of ``hand`` that may be played.

    ``led`` is the effective suit of the trick's first card, or -1 when leading.
    Follow the led suit if possible; otherwise any card, but with the option
    ``no_unled_ace_discard`` pass ``banned_aces = unled_aces(trump, led_suits)``:
    those aces may then be thrown only when every card of the hand is such an
    ace or a trump.
    """
    if led < 0:
        return hand
    follow = hand & EFFECTIVE_SUIT_MASKS[trump][led]
    if follow:
        return follow
    banned = hand & banned_aces
    if banned and hand & ~banned & ~TRUMP_MASKS[trump]:
        return hand & ~banned
    return hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Offset (0 = the leader) of the card that wins a trick of card indices."""
    power = POWER[trump][EFFECTIVE_SUIT[trump][cards[0]]]
    best = 0
    best_power = power[cards[0]]
    for offset in range(1, len(cards)):
        p = power[cards[offset]]
        if p > best_power:
            best, best_power = offset, p
    return best


def nth_card(mask: int, n: int) -> int:
    """Index of the ``n``-th card (0-based, lowest index first) of ``mask``.

    A uniform random legal card: ``nth_card(legal, randbelow(legal.bit_count()))``.
    """
    for _ in range(n):
        mask &= mask - 1
    if not mask:
        raise ValueError("mask has too few cards")
    return (mask & -mask).bit_length() - 1


def is_redeal_hand(hand: int) -> bool:
    """A hand that may ask for a re-deal: fewer than 13 card points, or all four nines."""
    return mask_points(hand) < 13 or hand & NINES_MASK == NINES_MASK


def deal_pattern(dealer: int) -> tuple[int, ...]:
    """The seat that receives each of the 32 cards, in dealing order.

    Two cards at a time, starting with the seat after the dealer, four rounds.
    """
    return tuple((dealer + 1 + k // 2) % 4 for _ in range(4) for k in range(8))


def play_random_deal(
    hands: list[int],
    leader: int,
    trump: int,
    getrandbits: Callable[[int], int],
    ace_rule: bool = False,
) -> tuple[int, int]:
    """Play a deal to the end with random legal cards; ``hands`` is consumed.

    Returns (card points of team 0, tricks taken by team 0).  Each card is the
    lowest of a random subset of the legal ones: random, not uniform.  This is
    the speed reference (``p2pbelka bench rules``) and a rollout for bots.
    """
    eff = EFFECTIVE_SUIT_MASKS[trump]
    esuit = EFFECTIVE_SUIT[trump]
    power = POWER[trump]
    points = POINTS
    points0 = 0
    tricks0 = 0
    led_suits = 0
    for _ in range(8):
        hand = hands[leader]
        m = hand & getrandbits(32) or hand
        bit = m & -m
        hands[leader] = hand ^ bit
        card = bit.bit_length() - 1
        led = esuit[card]
        pw = power[led]
        follow = eff[led]
        best = pw[card]
        winner = leader
        total = points[card]
        banned = unled_aces(trump, led_suits) if ace_rule else 0
        for offset in (1, 2, 3):
            seat = (leader + offset) & 3
            hand = hands[seat]
            legal = hand & follow
            if not legal:
                legal = legal_mask(hand, led, trump, banned) if banned else hand
            m = legal & getrandbits(32) or legal
            bit = m & -m
            hands[seat] = hand ^ bit
            card = bit.bit_length() - 1
            p = pw[card]
            if p > best:
                best = p
                winner = seat
            total += points[card]
        led_suits |= 1 << led
        if not winner & 1:
            points0 += total
            tricks0 += 1
        leader = winner
    return points0, tricks0
