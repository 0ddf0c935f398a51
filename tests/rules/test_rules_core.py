"""The fast core: card order, points, effective suits, legal masks, trick winners."""

from __future__ import annotations

import pytest

from p2pbelka.cards import FULL_MASK, Card, parse_cards, to_mask
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.core import legal_mask, mask_points, trick_winner, unled_aces

C, D, H, S = 0, 1, 2, 3


def m(text: str) -> int:
    return to_mask(parse_cards(text))


def idx(text: str) -> list[int]:
    return [c.index for c in parse_cards(text)]


def test_deck_holds_120_points() -> None:
    assert mask_points(FULL_MASK) == 120
    assert sum(core.POINTS) == 120
    assert mask_points(m("AC TC KC QC JC 9C 8C 7C")) == 30
    assert mask_points(0) == 0


def test_trump_order_jacks_on_top() -> None:
    order = "JC JS JH JD AD TD KD QD 9D 8D 7D"
    cards = idx(order)
    power = core.POWER[D][D]
    assert [power[c] for c in cards] == sorted((power[c] for c in cards), reverse=True)
    assert len(set(power[c] for c in cards)) == 11


def test_plain_order_ten_above_king() -> None:
    cards = idx("AH TH KH QH 9H 8H 7H")
    power = core.POWER[C][H]
    assert [power[c] for c in cards] == sorted((power[c] for c in cards), reverse=True)
    assert power[Card.parse("JH").index] > 100  # a jack is a trump, never a heart


def test_jacks_follow_the_trump_suit() -> None:
    assert core.TRUMP_MASKS[S] == m("7S 8S 9S TS JS QS KS AS JC JD JH")
    assert core.EFFECTIVE_SUIT_MASKS[S][H] == m("7H 8H 9H TH QH KH AH")
    assert core.EFFECTIVE_SUIT[S][Card.parse("JH").index] == S


def test_follow_suit_with_jacks_counted_as_trumps() -> None:
    hand = m("JH 7C AD 9D")
    # Clubs trumps, a club led: the jack of hearts is a club.
    assert legal_mask(hand, C, C) == m("JH 7C")
    # Hearts led, clubs trumps: the jack of hearts does not follow hearts.
    assert legal_mask(hand, H, C) == hand
    assert legal_mask(hand, D, C) == m("AD 9D")
    assert legal_mask(hand, -1, C) == hand


def test_no_duty_to_trump() -> None:
    hand = m("JC 7S AD")
    assert legal_mask(hand, H, D) == hand


def test_no_unled_ace_discard() -> None:
    banned = unled_aces(C, 0)
    assert banned == m("AD AH AS")
    hand = m("AH 7S 9C")
    # void in diamonds: the unled ace of hearts may not be thrown
    assert legal_mask(hand, D, C, banned) == m("7S 9C")
    # once hearts were led, it may
    assert legal_mask(hand, D, C, unled_aces(C, 1 << H)) == hand
    # only such aces and trumps left: anything goes
    assert legal_mask(m("AH AS 9C JD"), D, C, banned) == m("AH AS 9C JD")
    # following suit is never restricted
    assert legal_mask(m("AD 7D AH"), D, C, banned) == m("AD 7D")


def test_trick_winner() -> None:
    assert trick_winner(idx("7H AH KH TH"), C) == 1
    assert trick_winner(idx("7H AS KH 7C"), C) == 3  # the only trump
    assert trick_winner(idx("AC JD 7S JC"), S) == 3  # J♣ over J♦
    assert trick_winner(idx("JS JH 7S AS"), S) == 0  # jack led: trumps led
    assert trick_winner(idx("9D AS AH AC"), D) == 0  # nobody followed nor trumped


def test_redeal_hands() -> None:
    assert core.is_redeal_hand(m("QC 9C 8C 7C KD 9D 8D 7D"))  # 7 points
    assert core.is_redeal_hand(m("QC 9C 8C 7C KD 9D 8D QD"))  # 10 points
    assert not core.is_redeal_hand(m("QC QH QS 7C KD 9D 8D 7D"))  # 13 points
    thirteen = m("TC QH 7H 7C 7D 9D 8D 8C")  # 13 points
    assert mask_points(thirteen) == 13
    assert not core.is_redeal_hand(thirteen)
    twelve = m("TC JH 7H 7C 7D 9D 8D 8C")
    assert mask_points(twelve) == 12
    assert core.is_redeal_hand(twelve)
    nines = m("9C 9D 9H 9S AC AD AH AS")
    assert core.is_redeal_hand(nines)


def test_deal_pattern_two_at_a_time_from_after_dealer() -> None:
    pattern = core.deal_pattern(2)
    assert pattern[:8] == (3, 3, 0, 0, 1, 1, 2, 2)
    assert pattern == pattern[:8] * 4
    assert all(pattern.count(s) == 8 for s in range(4))


def test_random_deal_sums_to_120() -> None:
    import random

    rng = random.Random(1)
    for trump in range(4):
        hands = [m("7C 8C 9C TC JC QC KC AC"), m("7D 8D 9D TD JD QD KD AD")]
        hands += [m("7H 8H 9H TH JH QH KH AH"), m("7S 8S 9S TS JS QS KS AS")]
        points0, tricks0 = core.play_random_deal(hands, 1, trump, rng.getrandbits, True)
        assert 0 <= points0 <= 120 and 0 <= tricks0 <= 8
        assert hands == [0, 0, 0, 0]


def test_nth_card() -> None:
    mask = m("7C JC AS")
    assert [core.nth_card(mask, n) for n in range(3)] == idx("7C JC AS")
    with pytest.raises(ValueError):
        core.nth_card(mask, 3)
