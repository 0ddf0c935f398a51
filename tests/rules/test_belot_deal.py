"""One Belot deal through the clean API: bidding, extra cards, declarations, play, claims, views."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belot import Bid, Claim, DealState, Declare, Play, belot_options, core
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from tests.rules.belot_helpers import A_FIRST, A_STOCK, A_TURNED, cards, deal_a, m


def play(deal: DealState, *texts: str) -> DealState:
    for text in texts:
        assert deal.turn is not None
        deal = deal.apply(Play(deal.turn, Card.parse(text)))
    return deal


def broken(deal: DealState, action: Bid | Declare | Play | Claim) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        deal.apply(action)
    return info.value


# -- bidding --------------------------------------------------------------------------


def test_round_one_play_ends_bidding_on_the_turned_suit() -> None:
    deal = deal_a(())
    assert deal.phase == "bidding" and deal.turn == 1 and deal.legal_calls(1) == ["play", "pass"]
    assert deal.legal_calls(2) == []
    deal = deal.apply(Bid(1, "pass")).apply(Bid(2, "play"))
    assert deal.declarer == 2 and deal.trump == Suit.HEARTS and deal.phase == "extra"
    assert deal.turn is None and deal.legal_actions(0) == []


def test_round_two_names_another_suit() -> None:
    deal = deal_a(("pass", "pass", "pass"))
    assert deal.bidding_round == 2 and deal.turn == 1
    assert deal.legal_calls(1) == ["C", "D", "S", "pass"]  # not the turned hearts
    err = broken(deal, Bid(1, "H"))
    assert err.rule == E.BID and err.call == "H" and err.seat == 1 and "round 2" in str(err)
    err = broken(deal, Bid(1, "play"))
    assert err.rule == E.BID
    assert broken(deal, Bid(2, "C")).rule == E.TURN
    deal = deal.apply(Bid(1, "pass")).apply(Bid(2, "S"))
    assert deal.declarer == 2 and deal.trump == Suit.SPADES


def test_round_one_takes_no_suit() -> None:
    err = broken(deal_a(()), Bid(1, "C"))
    assert err.rule == E.BID and 'round 1: "play" or "pass"' in str(err)


def test_all_pass_twice_is_a_void_deal() -> None:
    deal = deal_a(("pass",) * 6)
    assert deal.void and deal.finished and deal.turn is None
    assert broken(deal, Bid(1, "pass")).rule == E.DEAL_OVER
    with pytest.raises(RuleViolation) as info:
        deal.with_extra(None)
    assert info.value.rule == E.NO_EXTRA


def test_bidding_then_extra_then_play() -> None:
    deal = deal_a(("pass", "play"), hanging_twice="together")
    with pytest.raises(RuleViolation):
        deal.apply(Bid(0, "pass"))
    deal = deal_a(("pass", "pass", "pass", "pass", "D"))
    assert deal.declarer == 2 and deal.trump == Suit.DIAMONDS
    assert deal.phase == "play" and deal.turn == 1 and deal.leader == 1
    assert all(h is not None and h.bit_count() == 9 for h in deal.hands)
    stopped = DealState.start(belot_options(), 3, 0, [m(h) for h in A_FIRST], Card.parse("JH"))
    assert broken(stopped, Play(1, Card.parse("JC"))).rule == E.BIDDING
    stopped = stopped.apply(Bid(1, "play"))
    assert broken(stopped, Play(1, Card.parse("JC"))).rule == E.EXTRA_PENDING
    assert broken(stopped, Bid(2, "pass")).rule == E.NOT_BIDDING
    with pytest.raises(RuleViolation) as info:
        stopped.with_extra([m("TH 8D 9D"), m("7C 8C AH"), m("QS 9S JH")])  # the turned card
    assert info.value.rule == E.BAD_HANDS


def test_the_stock_and_152_points() -> None:
    deal = deal_a()
    assert deal.stock == m(A_STOCK)
    assert deal.stock is not None and deal.stock.bit_count() == 5
    assert deal.view(0).stock is None
    deal2 = DealState.start(
        belot_options(), 2, 1, [m("7H 8H 9H AS KS 7D"), m("JC 9C AC TC KC QC")], Card.parse("JH")
    )
    deal2 = deal2.apply(Bid(0, "play")).with_extra([m("TH 8D 9D"), m("7C 8C AH")])
    assert deal2.stock is not None and deal2.stock.bit_count() == 14


# -- play -----------------------------------------------------------------------------


def test_a_whole_deal_all_tricks_eight_and_belle() -> None:
    deal = deal_a()  # seat 1 declares clubs, holds all eight of them
    deal = deal.apply(Declare(1, cards("7C 8C 9C TC JC QC KC AC")))
    deal = deal.apply(Declare(1, cards("KC QC")))
    for club in ("JC", "9C", "AC", "TC", "KC", "QC", "8C", "7C"):
        lead = deal.leader
        assert lead == 1
        deal = play(deal, club)
        for seat in (2, 0):
            deal = deal.apply(Play(seat, deal.legal_cards(seat)[0]))
    deal = play(deal, "AH")
    for seat in (2, 0):
        deal = deal.apply(Play(seat, deal.legal_cards(seat)[0]))
    assert deal.finished and deal.last_trick == 1 and deal.took_trick == 0b010
    assert deal.card_points == (0, 133, 0)
    assert sum(deal.card_points) + core.mask_points(m(A_STOCK), int(Suit.CLUBS)) == 152
    assert deal.scored_combinations() == (0, 120, 0)
    assert deal.totals() == (0, 263, 0)
    assert broken(deal, Play(2, Card.parse("9S"))).rule == E.DEAL_OVER


def test_follow_and_beat_a_led_trump() -> None:
    deal = deal_a(("play",))  # seat 1 plays hearts: trump J 9 A T K Q 8 7
    deal = play(deal, "AH")  # seat 2 has no heart: anything
    assert deal.legal_mask(2) == deal.hands[2]
    deal = play(deal, "JS")
    assert deal.legal_cards(0) == [Card.parse("9H")]  # only the nine beats the ace
    err = broken(deal, Play(0, Card.parse("TH")))
    assert err.rule == E.BEAT_TRUMP and err.trick == 0 and err.seat == 0 and "AH" in str(err)
    assert broken(deal, Play(0, Card.parse("AS"))).rule == E.FOLLOW_SUIT
    assert broken(deal, Play(0, Card.parse("JD"))).rule == E.NOT_IN_HAND
    assert broken(deal, Play(1, Card.parse("JC"))).rule == E.TURN
    deal = play(deal, "9H")
    assert deal.tricks[0].winner == 0 and deal.card_points == (11 + 14 + 2, 0, 0)
    assert broken(deal, Play(0, Card.parse("9H"))).rule == E.ALREADY_PLAYED


def test_no_duty_to_trump() -> None:
    deal = play(deal_a(("play",)), "JC")  # clubs led, hearts trump
    assert deal.legal_mask(2) == deal.hands[2]  # void in clubs: any card
    deal = play(deal, "JD")
    assert deal.legal_mask(0) == deal.hands[0]  # void in clubs too: trump or not


# -- declarations ---------------------------------------------------------------------


def test_declare_only_at_ones_own_lead() -> None:
    deal = deal_a(("play",))  # hearts trump; seat 0 holds 7H 8H 9H TH
    err = broken(deal, Declare(0, cards("7H 8H 9H TH")))
    assert err.rule == E.DECLARE_MOMENT and err.seat == 0 and err.trick == 0
    deal = deal.apply(Declare(1, cards("7C 8C 9C")))
    deal = play(deal, "AH")
    err = broken(deal, Declare(1, cards("TC JC QC")))
    assert err.rule == E.DECLARE_MOMENT  # a card of the trick is down
    deal = play(deal, "JS", "9H")  # seat 0 wins: it may declare before leading the second trick
    deal = deal.apply(Declare(0, cards("7D 8D 9D")))
    assert [(d.seat, d.trick, d.name) for d in deal.declarations] == [
        (1, 0, "terz"),
        (0, 1, "terz"),
    ]
    # 9H was played: the hearts run is gone from the hand.
    assert broken(deal, Declare(0, cards("7H 8H 9H"))).rule == E.NOT_IN_HAND


def test_several_declarations_and_their_refusals() -> None:
    deal = deal_a()
    assert broken(deal, Declare(1, cards("AH"))).rule == E.NOT_A_COMBINATION
    assert broken(deal, Declare(1, cards("KH QH"))).rule == E.NOT_IN_HAND
    assert broken(deal, Declare(1, cards("7C 8C TC"))).rule == E.NOT_A_COMBINATION
    assert broken(deal, Declare(1, cards("7C 8C 9C 9C"))).rule == E.NOT_A_COMBINATION
    assert broken(deal, Declare(1, ())).rule == E.NOT_A_COMBINATION
    deal = deal.apply(Declare(1, cards("7C 8C 9C")))
    err = broken(deal, Declare(1, cards("9C TC JC")))
    assert err.rule == E.SEQUENCE_OVERLAP and err.card == Card.parse("9C")
    deal = deal.apply(Declare(1, cards("TC JC QC KC AC")))  # a quint beside the terz
    deal = deal.apply(Declare(1, cards("KC QC")))  # belle may share with a sequence
    assert broken(deal, Declare(1, cards("KC QC"))).rule == E.DECLARED_TWICE
    assert [d.value for d in deal.declarations] == [20, 100, 20]
    assert deal.scored_combinations() == (0, 0, 0)  # nobody took a trick yet
    legal = deal.legal_declarations(1)
    assert cards("KC QC") not in legal and cards("8C 9C TC") not in legal


# -- claims ---------------------------------------------------------------------------


def test_claims_true_and_false() -> None:
    deal = replace(deal_a(), scores=(0, 860, 0))
    assert broken(deal, Claim(1)).rule == E.CLAIM_MOMENT  # no trick taken yet
    deal = deal.apply(Declare(1, cards("7C 8C 9C TC JC QC KC AC")))
    deal = play(deal, "JC", "8S", "7D")
    assert deal.card_points[1] == 20 and deal.scored_combinations()[1] == 100
    assert deal.claim_total(1) == 980 and not deal.can_claim(1)
    err = broken(deal, Claim(1))
    assert err.rule == E.FALSE_CLAIM and err.seat == 1 and err.trick == 1 and "980" in str(err)
    assert broken(deal, Claim(0)).rule == E.CLAIM_MOMENT
    deal = deal.apply(Declare(1, cards("KC QC")))  # belle before the claim counts too
    assert deal.claim_total(1) == 1000
    deal = play(deal, "9C", "9S", "8D")  # + 14
    assert deal.can_claim(1) and Claim(1) in deal.legal_actions(1)
    deal = deal.apply(Claim(1))
    assert deal.finished and deal.claim == 1 and deal.turn is None
    assert broken(deal, Play(1, Card.parse("AC"))).rule == E.DEAL_OVER


def test_no_claim_after_the_last_trick_nor_mid_trick() -> None:
    deal = replace(deal_a(), scores=(0, 2000, 0))
    deal = play(deal, "JC")
    assert broken(deal, Claim(1)).rule == E.CLAIM_MOMENT
    deal = play(deal, "8S", "7D")
    assert deal.can_claim(1)
    for club in ("9C", "AC", "TC", "KC", "QC", "8C", "7C", "AH"):
        deal = play(deal, club)
        for seat in (2, 0):
            deal = deal.apply(Play(seat, deal.legal_cards(seat)[0]))
    assert deal.finished and not deal.can_claim(1)
    assert broken(deal, Claim(1)).rule == E.DEAL_OVER


# -- views ----------------------------------------------------------------------------


def test_view_hides_the_others_and_the_stock_but_can_follow_the_game() -> None:
    full = deal_a(())
    view = full.view(2)
    assert view.hands[2] == full.hands[2] and view.hands[0] is None and view.hands[1] is None
    assert view.stock is None and view.turned == Card.parse(A_TURNED)
    for call in ("pass", "pass", "pass", "C"):
        assert view.turn is not None
        view = view.apply(Bid(view.turn, call))
    view = view.with_extra([None, None, m("QS 9S 8S")])
    assert view.hands[2] is not None and view.hands[2].bit_count() == 9
    # Another seat's actions are checked on what is public.
    view = view.apply(Declare(1, cards("KC QC")))
    assert broken(view, Declare(1, cards("QS KS AS"))).rule == E.NOT_IN_HAND  # seat 2 holds QS
    assert broken(view, Play(1, Card.parse("JH"))).rule == E.TURNED_CARD
    assert broken(view, Play(1, Card.parse("JD"))).rule == E.HELD_BY_OTHER
    view = view.apply(Play(1, Card.parse("JC")))
    assert view.legal_cards(2) == sorted(
        Card.parse(c) for c in "JD QD KD AD TD JS QS 9S 8S".split()
    )
    with pytest.raises(RuleViolation):
        view.legal_mask(0)
