"""Belot's inference from the bidding: the weights calls give the sampled worlds, and the
hard facts no weight overrides (a seat that showed a void never gets that suit)."""

from __future__ import annotations

import random
from dataclasses import replace

from p2pbelka.bots.belot.base import decide, make_belot_bot
from p2pbelka.bots.belot.inference import (
    FLOOR,
    UNDECLARED,
    calls_likelihood,
    declarations_likelihood,
    play_likelihood,
    take_chance,
    weighted_bidding,
    weighted_hands,
)
from p2pbelka.bots.belot.knowledge import Known, known_from
from p2pbelka.bots.belot.policy import BID_THRESHOLD
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.bots.belot.tournament import deal_cards
from p2pbelka.cards import CARDS, parse_cards, to_mask
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import Bid, DealState
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.common.play import Play
from tests.bots.belot_helpers import bot_deal

TURNED = "7H"
STRONG_HEARTS = "JH 9H AH AS KC 8D"
WEAK = "8C 7C 9D 8D QS 7S"
FOURS = tuple(belot_options().fours)


def _bidding(calls: list[str], seat1: str = STRONG_HEARTS) -> Known:
    """Three players, seat 2 dealt: seat 0 and then seat 1 have called; seat 2 to call."""
    hands = [parse_cards("TD JD QD KD AD 9S"), parse_cards(seat1), parse_cards("TC JC QC AC 9C TS")]
    deal = DealState.start(belot_options(), 3, 2, hands, parse_cards(TURNED)[0])
    for seat, call in enumerate(calls):
        deal = deal.apply(Bid(seat, call))
    game = replace(BelotGame.new(players=3, first_dealer=2), deal=deal.view(2))
    return known_from(game, 2)


def _world(known: Known, seat1: str) -> list[int]:
    """Six cards a seat: seat 1's given, seat 0 the rest of what seat 2 has not seen."""
    one = to_mask(parse_cards(seat1))
    rest = (1 << 32) - 1 & ~known.hand & ~one & ~(1 << known.turned)
    zero = 0
    for c in range(32):
        if rest >> c & 1 and zero.bit_count() < 6:
            zero |= 1 << c
    return [zero, one, known.hand]


def test_a_call_is_likelier_the_stronger_the_hand_and_never_ruled_out() -> None:
    turned = parse_cards(TURNED)[0].index
    strong = take_chance(to_mask(parse_cards(STRONG_HEARTS)), 2, turned, 3, BID_THRESHOLD[3], FOURS)
    weak = take_chance(to_mask(parse_cards(WEAK)), 2, turned, 3, BID_THRESHOLD[3], FOURS)
    assert FLOOR <= weak < 0.5 < strong <= 1 - FLOOR


def test_a_pass_weighs_a_strong_hand_in_the_turned_suit_down() -> None:
    known = _bidding(["pass", "pass"])
    strong = calls_likelihood(known, _world(known, STRONG_HEARTS))
    weak = calls_likelihood(known, _world(known, WEAK))
    assert strong < weak
    assert strong / weak < 0.2  # a strong heart hand that passed is the rare case


def test_taking_the_turned_suit_weighs_a_strong_hand_up() -> None:
    known = _bidding(["pass", "play"])
    assert calls_likelihood(known, _world(known, STRONG_HEARTS)) > 3 * calls_likelihood(
        known, _world(known, WEAK)
    )


def test_the_bots_own_call_is_not_read() -> None:
    known = _bidding(["pass", "pass"])
    as_seat1 = replace(known, seat=1)
    world = _world(known, STRONG_HEARTS)
    mine = calls_likelihood(as_seat1, world)
    world[1] = to_mask(parse_cards(WEAK))
    assert calls_likelihood(as_seat1, world) == mine


def test_the_kept_bidding_worlds_move_the_trumps_away_from_a_seat_that_passed() -> None:
    known = _bidding(["pass", "pass"])
    jack_nine = (1 << (2 * 8 + core.JACK)) | (1 << (2 * 8 + core.NINE))
    rng = random.Random(1)
    uniform = weighted_bidding(known, rng, 400, 400)
    weighted = weighted_bidding(known, rng, 400, 1600)

    def share(worlds: list[tuple[list[int], list[int]]]) -> float:
        held = sum(sum(first[s] & jack_nine == jack_nine for s in (0, 1)) for first, _ in worlds)
        return held / len(worlds)

    assert share(weighted) < 0.6 * share(uniform)


def _play_position(players: int, seed: int) -> tuple[BelotGame, int]:
    """A deal played by heuristic bots until some seat has shown a void, and the seat to play."""
    bots = [make_belot_bot("heuristic", seed + s) for s in range(players)]
    for k in range(40):
        game = BelotGame.new(players=players, first_dealer=k % players)
        first, turned, extra = deal_cards(seed, k, players, game.dealer)
        game = game.start_deal(first, CARDS[turned])
        while game.deal is not None and not game.deal.finished:
            deal = game.deal
            if deal.phase == "extra":
                game = game.deal_extra(extra)
                continue
            seat = deal.turn
            assert seat is not None
            if deal.phase == "play":
                known = known_from(replace(game, deal=deal.view(seat)), seat)
                shown = [s for s in range(players) if s != seat and known.excluded[s]]
                if shown and known.tricks >= 2:
                    return replace(game, deal=deal.view(seat)), seat
            for action in decide(bots[seat], game, seat):
                game = game.apply(action)
    raise AssertionError("no void shown in forty deals")


def test_a_seat_that_showed_a_void_never_gets_that_suit() -> None:
    rng = random.Random(5)
    for players in (2, 3):
        for seed in range(4):
            game, seat = _play_position(players, seed)
            known = known_from(game, seat)
            worlds = weighted_hands(known, rng, 24, 96)
            assert len(worlds) == 24
            for hands in worlds:
                assert hands[seat] == known.hand
                for s in range(players):
                    if s != seat:
                        assert hands[s] & known.excluded[s] == 0
                        assert hands[s].bit_count() == known.counts[s]
                assert play_likelihood(known, hands, rng) > 0


def test_the_strong_level_with_inference_plays_legal_whole_deals() -> None:
    for players in (2, 3):
        bots = [StrongBelotBot(s, samples=3, bid_samples=3, infer=True) for s in range(players)]
        game, actions = bot_deal(list(bots), players)
        assert actions and game.history


def _after_a_silent_lead() -> tuple[Known, list[int]]:
    """Three players, seat 2 dealt, seat 1 took hearts; seat 0 led AC declaring nothing
    (it holds no combination); seat 1 to play. Also every seat's real hand now."""
    cards = [
        parse_cards("AC TC 7D 9D JD AS 8S TH 8H"),
        parse_cards("KC QC AD KD QS KS AH 9H 7S"),
        parse_cards("7C 8C 9C JC TD QD JS 9S QH"),
    ]
    deal = DealState.start(belot_options(), 3, 2, [c[:6] for c in cards], parse_cards("7H")[0])
    deal = deal.apply(Bid(0, "pass")).apply(Bid(1, "play"))
    deal = deal.with_extra([c[6:] for c in cards])
    deal = deal.apply(Play(0, parse_cards("AC")[0]))
    hands = [h for h in deal.hands if h is not None]
    game = replace(BelotGame.new(players=3, first_dealer=2), deal=deal.view(1))
    return known_from(game, 1), hands


def test_a_combination_not_declared_at_a_lead_weighs_the_world_down() -> None:
    known, real = _after_a_silent_lead()
    assert known.led >> 0 & 1 and not known.led >> 2 & 1
    assert declarations_likelihood(known, real) == 1.0
    # The same deal with seat 0 holding the terz 7-8-9 of clubs, given for three cards of its
    # own: it would have held the terz at its lead, and did not declare it.
    terz, given = to_mask(parse_cards("7C 8C 9C")), to_mask(parse_cards("TC 7D 9D"))
    world = [real[0] & ~given | terz, real[1], real[2] & ~terz | given]
    assert declarations_likelihood(known, world) == UNDECLARED
    # Seat 2 has not had its lead: its terz says nothing yet.
    assert real[2] & terz == terz


def test_a_seat_that_declared_is_not_weighed_down_for_the_cards_it_declared() -> None:
    known, real = _after_a_silent_lead()
    terz, given = to_mask(parse_cards("7C 8C 9C")), to_mask(parse_cards("TC 7D 9D"))
    world = [real[0] & ~given | terz, real[1], real[2] & ~terz | given]
    declared = replace(known, declared=[(0, core.SEQUENCE, 20, 0, terz)])
    assert declarations_likelihood(declared, world) == 1.0
