"""A Belot game: made, bait, hanging baits and their payment, dealers, claims, 1001."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.cards import Card
from p2pbelka.rules.belot import BelotGame, Bid, Claim, Declare, Play, belot_options
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from tests.rules.belot_helpers import A_EXTRA, A_FIRST, A_TURNED, cards, finish, m, void

TOGETHER = belot_options()
ONE_EACH = belot_options({"hanging_twice": "one_each"})


def new(players: int = 3, options: object = TOGETHER, dealer: int = 0) -> BelotGame:
    assert options is TOGETHER or options is ONE_EACH
    return BelotGame.new(options, players, dealer)


def test_made_everyone_writes_their_total() -> None:
    game = finish(new(), declarer=1, totals=(40, 90, 32))
    r = game.history[-1]
    assert r.result == "made" and r.written == (40, 90, 32) and game.score == (40, 90, 32)
    assert game.dealer == 1 and r.hanging == 0


def test_bait_the_declarer_writes_nothing() -> None:
    game = finish(new(), declarer=1, totals=(90, 40, 32))
    r = game.history[-1]
    assert r.result == "bait" and r.written == (90, 0, 32) and game.dealer == 1


def test_hanging_the_declarer_deals_next_and_the_top_seat_takes_the_points() -> None:
    game = finish(new(dealer=2), declarer=1, totals=(70, 70, 22), last=0)
    r = game.history[-1]
    assert r.result == "hanging" and r.written == (70, 0, 22) and r.hanging == 70
    assert game.dealer == 1  # the declarer deals after a hanging bait
    # A tie for the most in the next played deal keeps the points hanging.
    game = finish(game, declarer=0, totals=(30, 66, 66), last=1)
    assert game.history[-1].result == "bait" and game.history[-1].hanging == 70
    assert game.dealer == 2
    game = finish(game, declarer=2, totals=(30, 50, 82))
    r = game.history[-1]
    assert r.result == "made" and r.written == (30, 50, 152) and r.hanging == 0
    assert r.paid == 70 and r.paid_to == 2
    assert game.score == (70 + 0 + 30, 66 + 50, 22 + 66 + 152)  # seat 0 baited once


def test_the_top_seat_of_a_bait_takes_the_hanging_points() -> None:
    game = finish(new(), declarer=0, totals=(60, 60, 42), last=1)
    game = finish(game, declarer=0, totals=(20, 100, 42))
    r = game.history[-1]
    assert r.result == "bait" and r.written == (0, 160, 42)


def test_after_a_void_deal_the_next_seat_deals_even_after_a_hanging() -> None:
    game = finish(new(dealer=0), declarer=2, totals=(50, 40, 50), last=0)
    assert game.dealer == 2
    game = void(game)
    r = game.history[-1]
    assert r.void and r.result is None and game.dealer == 0 and game.hanging == (50,)
    assert game.score == (50, 40, 0)
    game = finish(game, declarer=0, totals=(90, 40, 32))
    assert game.history[-1].written == (140, 40, 32) and game.hanging == ()


@pytest.mark.parametrize("options", [TOGETHER, ONE_EACH])
def test_two_hangings_in_a_row(options: object) -> None:
    game = finish(new(options=options), declarer=1, totals=(60, 60, 42), last=0)
    assert game.dealer == 1
    game = finish(game, declarer=2, totals=(30, 66, 66), last=1)
    assert game.history[-1].result == "hanging" and game.hanging == (60, 66)
    assert game.history[-1].hanging == 126 and game.dealer == 2
    game = finish(game, declarer=0, totals=(100, 40, 22))
    r = game.history[-1]
    if options is TOGETHER:
        assert r.written == (226, 40, 22) and r.hanging == 0 and game.hanging == ()
    else:
        assert r.written == (160, 40, 22) and r.hanging == 66 and game.hanging == (66,)
        game = finish(game, declarer=0, totals=(20, 100, 42))
        r = game.history[-1]
        assert r.written == (0, 166, 42) and r.hanging == 0


def test_one_seat_at_1001_wins() -> None:
    game = replace(new(), score=(900, 500, 980))
    game = finish(game, declarer=0, totals=(101, 20, 41))
    assert game.score == (1001, 520, 1021) and game.winner == 0  # seat 0 took the last trick
    game = replace(new(), score=(900, 500, 800))
    game = finish(game, declarer=0, totals=(101, 20, 41))
    assert game.winner == 0 and game.finished
    with pytest.raises(RuleViolation) as info:
        game.start_deal(None, Card.parse("7C"))
    assert info.value.rule == E.GAME_OVER


def test_two_seats_over_1001_at_once() -> None:
    start = replace(new(dealer=0), score=(950, 990, 0))
    # The last trick's taker wins when it is one of them...
    game = finish(start, declarer=0, totals=(100, 30, 32), last=1)
    assert game.score == (1050, 1020, 32) and game.winner == 1
    # ...otherwise the highest score...
    game = finish(start, declarer=0, totals=(100, 30, 32), last=2)
    assert game.winner == 0
    # ...and on equal scores the first in play order from the seat after the dealer.
    start = replace(new(dealer=0), score=(990, 990, 0))
    game = finish(start, declarer=2, totals=(50, 50, 62), last=2)
    assert game.score == (1040, 1040, 62) and game.winner == 1
    start = replace(new(dealer=1), score=(990, 990, 0))
    game = finish(start, declarer=2, totals=(50, 50, 62), last=2)
    assert game.winner == 0


def test_two_players() -> None:
    game = finish(new(players=2), declarer=0, totals=(60, 60), last=1)
    assert game.history[-1].result == "hanging" and game.dealer == 0
    game = finish(game, declarer=1, totals=(50, 80))
    assert game.history[-1].written == (50, 140) and game.dealer == 1


def test_a_claim_ends_the_game() -> None:
    game = replace(new(dealer=0), score=(0, 900, 500))
    game = game.start_deal([m(h) for h in A_FIRST], Card.parse(A_TURNED))
    for call in ("pass", "pass", "pass", "C"):
        deal = game.deal
        assert deal is not None and deal.turn is not None
        game = game.apply(Bid(deal.turn, call))
    with pytest.raises(RuleViolation) as info:
        game.apply(Play(1, Card.parse("JC")))
    assert info.value.rule == E.EXTRA_PENDING
    game = game.deal_extra([m(h) for h in A_EXTRA])
    game = game.apply(Declare(1, cards("7C 8C 9C TC JC QC KC AC")))
    for card in ("JC", "8S", "7D"):
        deal = game.deal
        assert deal is not None and deal.turn is not None
        game = game.apply(Play(deal.turn, Card.parse(card)))
    with pytest.raises(RuleViolation) as info:
        game.finish_deal()
    assert info.value.rule == E.DEAL_NOT_FINISHED
    game = game.apply(Claim(1)).finish_deal()
    r = game.history[-1]
    assert r.result == "claim" and r.totals == (0, 120, 0) and r.written == (0, 120, 0)
    assert game.score == (0, 1020, 500) and game.winner == 1
