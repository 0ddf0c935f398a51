"""Cards of the 32-card deck: immutable values, the text notation, and bit masks.

Notation (shared RULES.md): rank ``7 8 9 T J Q K A`` then suit ``C D H S``,
so ``TC`` is the ten of clubs.  Every card also has an index ``0..31``
(``suit * 8 + rank``) and a bit ``1 << index``; hands are sets of cards,
kept as 32-bit masks where speed matters.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final


class CardParseError(ValueError):
    """Text that is not a card in the project's notation."""


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(SUIT_LETTERS.index(text))
        except ValueError:
            raise CardParseError(
                f"not a suit: {text!r} (expected one of {', '.join(SUIT_LETTERS)})"
            ) from None


class Rank(IntEnum):
    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        try:
            return cls(RANK_LETTERS.index(text))
        except ValueError:
            raise CardParseError(
                f"not a rank: {text!r} (expected one of {' '.join(RANK_LETTERS)})"
            ) from None


SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "789TJQKA"


class Card:
    """One card.  Immutable; there is exactly one object per card (``Card.from_index``)."""

    __slots__ = ("_index",)
    _index: int

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        return CARDS[int(suit) * 8 + int(rank)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "_index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self._index,))

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 32:
            raise CardParseError(f"card index out of range: {index} (expected 0..31)")
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"TC"``; anything else (lower case, ``10C``, spaces) is an error."""
        if not isinstance(text, str) or len(text) != 2:
            raise CardParseError(f"not a card: {text!r} (expected two letters like 'TC')")
        return CARDS[int(Suit.parse(text[1])) * 8 + int(Rank.parse(text[0]))]

    @property
    def index(self) -> int:
        return self._index

    @property
    def bit(self) -> int:
        return 1 << self._index

    @property
    def suit(self) -> Suit:
        return Suit(self._index >> 3)

    @property
    def rank(self) -> Rank:
        return Rank(self._index & 7)

    def __str__(self) -> str:
        return RANK_LETTERS[self._index & 7] + SUIT_LETTERS[self._index >> 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def pretty(self) -> str:
        """Rank and suit symbol, for screens: ``T♣``."""
        return RANK_LETTERS[self._index & 7] + "♣♦♥♠"[self._index >> 3]

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._index < other._index

    def __hash__(self) -> int:
        return self._index


CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(32))
"""All 32 cards, by index: clubs 7..A, diamonds 7..A, hearts 7..A, spades 7..A."""

FULL_MASK: Final = (1 << 32) - 1
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0xFF << (8 * s) for s in range(4))


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by white space or commas: ``"TC JC 7D"``."""
    return [Card.parse(word) for word in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def to_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def from_mask(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first."""
    return [CARDS[i] for i in iter_bits(mask)]


def iter_bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
