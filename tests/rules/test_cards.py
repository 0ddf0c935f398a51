"""Card notation: every card round-trips, anything else is refused."""

from __future__ import annotations

import pytest

from p2pbelka.cards import (
    CARDS,
    FULL_MASK,
    SUIT_MASKS,
    Card,
    CardParseError,
    Rank,
    Suit,
    format_cards,
    from_mask,
    iter_bits,
    parse_cards,
    to_mask,
)


def test_every_card_round_trips() -> None:
    assert len({str(c) for c in CARDS}) == 32
    for index, card in enumerate(CARDS):
        assert card.index == index
        assert Card.parse(str(card)) is card
        assert Card.from_index(index) is card
        assert Card(card.suit, card.rank) is card
        assert card.bit == 1 << index


def test_notation_and_indices() -> None:
    assert str(Card(Suit.CLUBS, Rank.TEN)) == "TC"
    assert Card.parse("JC").index == 4
    assert Card.parse("7D").index == 8
    assert Card.parse("AS").index == 31
    assert Card.parse("AH").pretty() == "A♥"
    assert repr(Card.parse("9S")) == "Card('9S')"


@pytest.mark.parametrize("text", ["10C", "tc", "Tc", "T C", "XX", "", "TCX", "1C", "JZ", " TC"])
def test_bad_text_is_refused(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_non_strings_and_bad_indices_are_refused() -> None:
    with pytest.raises(CardParseError):
        Card.parse(10)  # type: ignore[arg-type]
    with pytest.raises(CardParseError):
        Card.from_index(32)
    with pytest.raises(CardParseError):
        Card.from_index(-1)


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        CARDS[0]._index = 3  # type: ignore[misc]


def test_lists_and_masks() -> None:
    cards = parse_cards("TC, JC 7D")
    assert format_cards(cards) == "TC JC 7D"
    mask = to_mask(cards)
    assert from_mask(mask) == sorted(cards)
    assert list(iter_bits(mask)) == sorted(c.index for c in cards)
    assert to_mask(CARDS) == FULL_MASK
    assert sum(SUIT_MASKS) == FULL_MASK
    assert Suit.parse("H") is Suit.HEARTS
    with pytest.raises(CardParseError):
        Suit.parse("X")
    with pytest.raises(CardParseError):
        Rank.parse("1")
