"""Properties of Belot over random deals and games (hypothesis), and the fast core against
the clean API."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.cards import CARDS, from_mask
from p2pbelka.rules.belot import BelotGame, Bid, DealState, Declare, Play, belot_options, core
from p2pbelka.rules.belot.options import BelotOptions
from p2pbelka.rules.belot.randomplay import choose, play_random_game, random_deck
from p2pbelka.rules.belot.records import game_to_record, parse_record, replay_record, report
from tests.rules.belot_naive import referee as naive_referee

SETTINGS = settings(max_examples=25, deadline=None)
SLOW = settings(max_examples=400, deadline=None)

option_sets = st.builds(
    lambda together, eights, sevens: belot_options(
        {
            "hanging_twice": "together" if together else "one_each",
            "four_eights": str(eights),
            "four_sevens": str(sevens),
        }
    ),
    st.booleans(),
    st.sampled_from([0, 10, 200]),
    st.sampled_from([0, 50]),
)


def random_deal(options: BelotOptions, players: int, dealer: int, rng: random.Random) -> DealState:
    """A deal to its end with random legal actions, checking a legal action at every turn."""
    first, turned, extra = random_deck(rng, players, dealer)
    deal = DealState.start(options, players, dealer, first, CARDS[turned])
    while not deal.finished:
        if deal.phase == "extra":
            assert deal.turn is None
            deal = deal.with_extra(extra)
            continue
        seat = deal.turn
        assert seat is not None
        assert deal.legal_actions(seat), f"seat {seat} has no legal action\n{deal}"
        for other in range(players):
            if other != seat:
                assert deal.legal_actions(other) == []
        deal = deal.apply(choose(deal, rng))
    return deal


@SETTINGS
@given(
    options=option_sets,
    players=st.sampled_from([2, 3]),
    dealer=st.integers(0, 2),
    seed=st.integers(0, 2**32),
)
def test_card_points_and_stock_make_152_and_every_turn_has_an_action(
    options: BelotOptions, players: int, dealer: int, seed: int
) -> None:
    dealer %= players
    deal = random_deal(options, players, dealer, random.Random(seed))
    stock = deal.stock
    assert stock is not None
    if deal.void:  # nobody got the three more: they are still in the stock
        assert deal.plays == () and deal.extra is None and stock.bit_count() == 32 - 6 * players
        return
    assert stock.bit_count() == (5 if players == 3 else 14)
    assert deal.trump is not None
    stock_points = core.mask_points(stock, int(deal.trump))
    assert sum(deal.card_points) + stock_points == 152
    totals = deal.totals()
    scored = deal.scored_combinations()
    assert sum(totals) == sum(deal.card_points) + 10 + sum(scored)
    assert all(h == 0 for h in deal.hands)


def check_game(game: BelotGame) -> None:
    assert game.finished and game.winner is not None
    over = [s for s, points in enumerate(game.score) if points >= core.TARGET]
    assert game.winner in over
    rec = game_to_record(game)
    replayed = replay_record(parse_record(rec))
    out = report(replayed)
    assert out["score"] == list(game.score) and out["winner"] == game.winner
    assert len(out["deals"]) == len(game.history)
    for entry, result in zip(out["deals"], game.history, strict=True):
        if result.void:
            assert entry == {"dealer": result.dealer, "void": True}
            assert "extra" not in rec["deals"][result.number]
        else:
            assert entry["score"] == list(result.score)
            assert entry["written"] == list(result.written)
    if game.history[-1].result == "claim":
        last = rec["deals"][-1]
        assert len(last["plays"]) == (last["claim"]["trick"] + 1) * game.players


@SETTINGS
@given(
    options=option_sets,
    players=st.sampled_from([2, 3]),
    seed=st.integers(0, 2**32),
    claims=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_random_games_end_with_one_winner_and_their_records_replay(
    options: BelotOptions, players: int, seed: int, claims: float
) -> None:
    rng = random.Random(seed)
    game = play_random_game(options, rng, players, rng.randrange(players), claim_rate=claims)
    check_game(game)


@pytest.mark.slow
@SLOW
@given(options=option_sets, players=st.sampled_from([2, 3]), seed=st.integers(0, 2**32))
def test_random_games_slow(options: BelotOptions, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = play_random_game(options, rng, players, rng.randrange(players))
    check_game(game)
    rec = game_to_record(game)
    assert report(replay_record(parse_record(rec))) == naive_referee(rec)


def replay_trace(
    deck: list[int], players: int, dealer: int, trace: core.DealTrace, options: BelotOptions
) -> DealState:
    first = [0] * players
    extra = [0] * players
    for k, seat in enumerate(core.deal_pattern(players, dealer)):
        if seat >= 0:
            (first if k < 6 * players else extra)[seat] |= 1 << deck[k]
    deal = DealState.start(options, players, dealer, first, CARDS[deck[6 * players]])
    for call in trace.calls:
        assert deal.turn is not None
        deal = deal.apply(Bid(deal.turn, call))
    if deal.void:
        return deal
    deal = deal.with_extra(extra)
    pending = list(trace.declarations)
    for card in trace.plays:
        while pending and deal.at_lead and pending[0][1] == len(deal.tricks):
            seat, _trick, mask = pending.pop(0)
            deal = deal.apply(Declare(seat, tuple(from_mask(mask))))
        assert deal.turn is not None
        deal = deal.apply(Play(deal.turn, CARDS[card]))
    assert not pending
    return deal


@SETTINGS
@given(
    deck=st.permutations(list(range(32))),
    players=st.sampled_from([2, 3]),
    dealer=st.integers(0, 2),
    seed=st.integers(0, 2**32),
    options=option_sets,
)
def test_the_fast_core_agrees_with_the_clean_api(
    deck: list[int], players: int, dealer: int, seed: int, options: BelotOptions
) -> None:
    dealer %= players
    trace = core.DealTrace()
    rng = random.Random(seed)
    fast = core.play_random_deal(deck, players, dealer, rng.getrandbits, options.fours, trace)
    deal = replay_trace(deck, players, dealer, trace, options)
    if fast is None:
        assert deal.void
        return
    totals, declarer, result = fast
    assert deal.finished and deal.declarer == declarer
    assert list(deal.totals()) == totals
    assert core.deal_result(deal.totals(), declarer) == result


@SETTINGS
@given(
    options=option_sets,
    players=st.sampled_from([2, 3]),
    seed=st.integers(0, 2**32),
    claims=st.sampled_from([0.0, 0.5]),
)
def test_the_referee_agrees_with_a_naive_one_field_by_field(
    options: BelotOptions, players: int, seed: int, claims: float
) -> None:
    rng = random.Random(seed)
    game = play_random_game(options, rng, players, rng.randrange(players), claim_rate=claims)
    rec = game_to_record(game)
    assert report(replay_record(parse_record(rec))) == naive_referee(rec)
