"""One deal: trump, turn order, legality, unknown hands, audit, views, re-deal claims."""

from __future__ import annotations

import pytest

from p2pbelka.cards import Card, Suit, parse_cards, to_mask
from p2pbelka.rules.belka import (
    DealState,
    Play,
    RedealClaim,
    RuleViolation,
    options_from,
    seat_suits_from,
)

CLASSIC = options_from()

# Seat 1 holds J♣.  Dealer 0, so seat 1 leads.
HANDS = [
    "AC TC KC 7D 8D AH 7S 8S",  # seat 0
    "JC JD QC 9D TD KH 9S TS",  # seat 1
    "9C 8C AD KD 7H 8H QS KS",  # seat 2
    "JH JS 7C QD 9H TH QH AS",  # seat 3
]


def masks(*texts: str) -> list[int]:
    return [to_mask(parse_cards(t)) for t in texts]


def hands() -> list[int]:
    return masks(*HANDS)


def card(text: str) -> Card:
    return Card.parse(text)


def play(deal: DealState, *texts: str) -> DealState:
    for text in texts:
        seat = deal.turn
        assert seat is not None
        deal = deal.apply(Play(seat, card(text)))
    return deal


def test_first_deal_clubs_and_jc_holder() -> None:
    deal = DealState.start(CLASSIC, 0, hands())
    assert deal.first and deal.trump is Suit.CLUBS
    assert deal.jc_holder == 1 and deal.trump_team == 1
    assert deal.leader == 1 and deal.turn == 1


def test_first_lead_option() -> None:
    before = options_from("classic", {"first_lead": "before_dealer"})
    assert DealState.start(before, 0, hands()).turn == 3
    assert DealState.start(CLASSIC, 3, hands()).turn == 0


def test_seat_suits_from_first_jc_holder() -> None:
    suits = seat_suits_from(1, "HSD")
    assert suits == (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
    assert seat_suits_from(3, "DSH") == (Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS, Suit.CLUBS)
    # later deals: the J♣ holder's seat suit
    deal = DealState.start(CLASSIC, 0, hands(), seat_suits=seat_suits_from(0, "HSD"))
    assert not deal.first and deal.trump is Suit.HEARTS


def test_jc_holder_needed_when_hands_unknown() -> None:
    with pytest.raises(RuleViolation) as info:
        DealState.start(CLASSIC, 0, None)
    assert info.value.rule == "jc_holder"
    deal = DealState.start(CLASSIC, 0, None, jc_holder=2)
    assert deal.trump_team == 0 and deal.hands == (None,) * 4
    mine = hands()[0]
    with pytest.raises(RuleViolation, match="no J♣"):
        DealState.start(CLASSIC, 0, [mine, None, None, None], jc_holder=0)
    with pytest.raises(RuleViolation, match="dealt to seat 1"):
        DealState.start(CLASSIC, 0, hands(), jc_holder=2)
    assert DealState.start(CLASSIC, 0, hands(), jc_holder=1).jc_holder == 1


def test_bad_hands() -> None:
    h = hands()
    with pytest.raises(RuleViolation, match="8 cards"):
        DealState.start(CLASSIC, 0, [h[0] | h[1], None, None, None], jc_holder=1)
    with pytest.raises(RuleViolation, match="dealt twice"):
        DealState.start(CLASSIC, 0, [h[0], h[0], None, None], jc_holder=2)
    with pytest.raises(RuleViolation, match="four hands"):
        DealState.start(CLASSIC, 0, h[:3])


def test_legal_cards_follow_suit_jacks_are_trumps() -> None:
    deal = DealState.start(CLASSIC, 0, hands())
    assert deal.legal_cards(0) == []  # not its turn
    deal = play(deal, "QC")  # seat 1 leads a trump
    assert deal.led_suit is Suit.CLUBS
    assert deal.legal_cards(2) == parse_cards("8C 9C")
    deal = play(deal, "9C")
    assert deal.legal_cards(3) == parse_cards("7C JH JS")  # jacks follow clubs


def test_strict_errors_name_seat_card_and_rule() -> None:
    deal = DealState.start(CLASSIC, 0, hands(), number=5)
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(0, card("AC")))
    err = info.value
    assert (err.rule, err.deal, err.trick, err.seat, err.card) == ("turn", 5, 0, 0, card("AC"))
    assert "deal 5, trick 1, seat 0, card AC" in err.message
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(1, card("AC")))
    assert info.value.rule == "not_in_hand"
    deal = play(deal, "9S")  # spades led
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(2, card("9C")))
    assert info.value.rule == "follow_suit" and info.value.seat == 2
    deal = play(deal, "QS", "AS", "7S")
    assert deal.tricks[0].winner == 3 and deal.card_points == (0, 14)
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(3, card("AS")))
    assert info.value.rule == "already_played" and info.value.trick == 1


def test_ace_rule_blocks_unled_ace() -> None:
    opts = options_from("classic", {"no_unled_ace_discard": "on"})
    h = masks(
        "AH 7S 8S 9S TS QS KS AS",
        "7D 8D 9D TD QD KD AD JC",
        "7C 8C 9C TC QC KC AC JD",
        "7H 8H 9H TH QH KH JH JS",
    )
    deal = DealState.start(opts, 0, h)
    deal = play(deal, "7D", "7C")  # seat 1 leads diamonds, seat 2 void: any non-ace
    deal = play(deal, "7H")
    assert deal.turn == 0
    assert card("AH") not in deal.legal_cards(0)
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(0, card("AH")))
    assert info.value.rule == "no_unled_ace_discard"
    plain = DealState.start(CLASSIC, 0, h)
    plain = play(plain, "7D", "7C", "7H")
    assert card("AH") in plain.legal_cards(0)


def test_unknown_hands_check_only_turn_and_freshness() -> None:
    h = hands()
    deal = DealState.start(CLASSIC, 0, [h[0], None, None, None], jc_holder=1)
    deal = deal.apply(Play(1, card("7H")))  # not seat 1's card, but nobody can tell yet
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(2, card("AC")))
    assert info.value.rule == "held_by_other"
    with pytest.raises(RuleViolation) as info:
        deal.apply(Play(2, card("7H")))
    assert info.value.rule == "already_played"
    with pytest.raises(RuleViolation) as info:
        deal.legal_cards(2)
    assert info.value.rule == "hand_unknown"


def test_view_hides_other_hands() -> None:
    deal = play(DealState.start(CLASSIC, 0, hands()), "QC")
    view = deal.view(2)
    assert view.hands[2] == deal.hands[2]
    assert view.hands[0] is None and view.hands[1] is None and view.hands[3] is None
    assert view.legal_cards(2) == deal.legal_cards(2)
    assert view.apply(Play(2, card("9C"))).apply(Play(3, card("JS"))).turn == 0


def test_audit_records_reneges() -> None:
    h = hands()
    blind = DealState.start(CLASSIC, 0, [None] * 4, jc_holder=1)
    blind = play(blind, "9S", "9C")  # seat 2 holds QS, KS: a renege
    audited = blind.audited(h)
    assert audited.audit and len(audited.offenses) == 1
    off = audited.offenses[0]
    assert (off.seat, off.trick, off.card, off.rule) == (2, 0, card("9C"), "follow_suit")
    with pytest.raises(RuleViolation) as info:
        play(blind, "AH").audited(h)  # AH is seat 0's card; seat 3 played it
    assert info.value.rule == "not_in_hand" and info.value.seat == 3


def test_with_hand_and_redeal_claim() -> None:
    weak = "QC 9C 8C 7C KD 9D 8D 7D"
    h = [to_mask(parse_cards(weak)), to_mask(parse_cards("JC JD QD TD KH 9S TS AS"))]
    h += [to_mask(parse_cards("TC KC AC AD 7H 8H QS KS"))]
    h += [to_mask(parse_cards("JH JS 9H TH QH AH 7S 8S"))]
    deal = DealState.start(CLASSIC, 0, [None] * 4, jc_holder=1)
    with pytest.raises(RuleViolation) as info:
        deal.apply(RedealClaim(0))
    assert info.value.rule == "hand_unknown"
    shown = deal.with_hand(0, h[0])
    assert shown.can_claim_redeal(0)
    claimed = shown.apply(RedealClaim(0))
    assert claimed.finished and claimed.redeal_claim == 0 and claimed.turn is None
    full = DealState.start(CLASSIC, 0, h)
    with pytest.raises(RuleViolation) as info:
        full.apply(RedealClaim(1))
    assert info.value.rule == "redeal_not_qualified"
    assert RedealClaim(0) in full.legal_actions(0)
    after = play(full, "9S")
    with pytest.raises(RuleViolation) as info:
        after.apply(RedealClaim(0))
    assert info.value.rule == "redeal_after_lead"
    with pytest.raises(RuleViolation):
        deal.with_hand(0, h[1])  # J♣ is announced for seat 1


def test_four_nines_may_ask_for_a_redeal() -> None:
    h = masks(
        "9C 9D 9H 9S AC AD AH AS",
        "JC JD QD TD KH TS QS KS",
        "TC KC QC 7D 7H 8H 7S 8S",
        "JH JS 7C 8C 8D KD TH QH",
    )
    deal = DealState.start(CLASSIC, 0, h)
    assert deal.can_claim_redeal(0)
    assert deal.apply(RedealClaim(0)).redeal_claim == 0


def test_str_shows_trick_and_known_hands() -> None:
    deal = play(DealState.start(CLASSIC, 0, hands()), "QC")
    text = str(deal.view(2))
    assert "trump C (J♣ seat 1)" in text and "led by seat 1: QC" in text
    assert "seat 0: ?" in text and "seat 2: 8C 9C KD AD 7H 8H QS KS <- to play" in text
