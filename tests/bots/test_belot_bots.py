"""Belot bots: only legal moves at every level, declarations that score, claims of 1001,
the strong level's exact endgame."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from p2pbelka.bots.belot.base import (
    BELOT_BOT_LEVELS,
    BelotBot,
    RandomBelotBot,
    decide,
    make_belot_bot,
)
from p2pbelka.bots.belot.heuristic import HeuristicBelotBot
from p2pbelka.bots.belot.knowledge import Known
from p2pbelka.bots.belot.policy import declaration_plan
from p2pbelka.bots.belot.search import Sim, step, utility
from p2pbelka.bots.belot.solver import solve
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.cards import CARDS, FULL_MASK, parse_cards, to_mask
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import Bid, Claim, DealState, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.belot.randomplay import random_deck
from p2pbelka.rules.common.play import Play
from tests.bots.belot_helpers import bot_deal


def quick_strong(seed: int) -> StrongBelotBot:
    return StrongBelotBot(seed, samples=3, bid_samples=3)


def mixed_bots(players: int, seed: int) -> list[BelotBot]:
    rng = random.Random(seed)
    bots: list[BelotBot] = []
    for s in range(players):
        level = rng.choice(("random", "heuristic", "strong"))
        bots.append(
            quick_strong(seed + s) if level == "strong" else make_belot_bot(level, seed + s)
        )
    return bots


def test_levels_are_registered() -> None:
    assert set(BELOT_BOT_LEVELS) == {"random", "heuristic", "strong"}
    with pytest.raises(ValueError, match="unknown Belot bot level"):
        make_belot_bot("grandmaster")


@pytest.mark.parametrize("players", [2, 3])
def test_every_level_only_makes_legal_moves(players: int) -> None:
    # decide() applies every action to the seat's view: an illegal one raises.
    deals = 0
    for seed in range(12):
        game, actions = bot_deal(mixed_bots(players, seed), seed)
        assert game.history[-1].deal.finished
        assert actions
        deals += not game.history[-1].void
    assert deals >= 6


@pytest.mark.parametrize("players", [2, 3])
def test_claims_are_made_when_true_and_only_then(players: int) -> None:
    claims = 0
    for seed in range(15):
        bots = mixed_bots(players, 100 + seed)
        scores = tuple(960 + 7 * s for s in range(players))
        game, actions = bot_deal(bots, seed, scores)
        made = [a for a in actions if isinstance(a, Claim)]
        claims += len(made)
        result = game.history[-1]
        if made:
            assert result.result == "claim" and game.winner == made[0].seat
        else:
            # Nobody could claim: every leader was asked, so no deal ends with a missed claim.
            assert result.result != "claim"
    assert claims >= 5


def test_every_level_claims_as_soon_as_true() -> None:
    for level in ("random", "heuristic", "strong"):
        for seed in range(40):
            bots: list[BelotBot] = [
                quick_strong(seed) if level == "strong" else make_belot_bot(level, seed),
                HeuristicBelotBot(seed + 1),
                HeuristicBelotBot(seed + 2),
            ]
            game = start_and_bid(bots, seed, (999, 0, 0))
            deal = game.deal
            assert deal is not None
            while not deal.finished:
                seat = deal.turn
                assert seat is not None
                could = deal.can_claim(seat)
                actions = decide(bots[seat], game, seat)
                if seat == 0 and could:
                    assert actions[-1] == Claim(0)
                    break
                for action in actions:
                    deal = deal.apply(action)
                game = replace(game, deal=deal)
            else:
                continue
            break
        else:
            pytest.fail(f"{level}: seat 0 never could claim")


def start_and_bid(bots: list[BelotBot], seed: int, scores: tuple[int, ...]) -> BelotGame:
    """A deal dealt, bid by the bots and given its three more cards (re-dealt while void)."""
    rng = random.Random(seed)
    while True:
        game = replace(BelotGame.new(players=3, first_dealer=2), score=scores)
        first, turned, extra = random_deck(rng, 3, 2)
        game = game.start_deal(first, CARDS[turned])
        while game.deal is not None and game.deal.phase == "bidding":
            seat = game.deal.turn
            assert seat is not None
            for action in decide(bots[seat], game, seat):
                game = game.apply(action)
        if game.deal is not None and game.deal.phase == "extra":
            return game.deal_extra(extra)


def _deal_at_first_lead(hands: list[str], turned: str, call: str = "play") -> BelotGame:
    """Seat 0 leads trick 0 (seat 2 dealt); seat 1 takes the trump with ``call``."""
    cards = [parse_cards(h) for h in hands]
    deal = DealState.start(belot_options(), 3, 2, [c[:6] for c in cards], parse_cards(turned)[0])
    deal = deal.apply(Bid(0, "pass")).apply(Bid(1, call))
    deal = deal.with_extra([c[6:] for c in cards])
    return replace(BelotGame.new(players=3, first_dealer=2), deal=deal)


def test_heuristic_declares_what_scores() -> None:
    # Seat 0: a berz of hearts and belle of spades (spades are trump).
    game = _deal_at_first_lead(
        ["7H 8H 9H TH KS QS JC JD 9C", "AS TS 9S 8S 7S AC TC KC QC", "AD TD KD QD 9D 8D 7D AH KH"],
        "JS",
    )
    actions = decide(HeuristicBelotBot(1), game, 0)
    declared = [to_mask(a.cards) for a in actions if isinstance(a, Declare)]
    assert to_mask(parse_cards("KS QS")) in declared  # belle always counts with a trick
    assert to_mask(parse_cards("7H 8H 9H TH")) in declared
    assert len(declared) == 2 and isinstance(actions[-1], Play)


def test_a_beaten_combination_is_not_shown() -> None:
    # Another seat's berz beats a terz: only belle is worth showing.
    declared = [(1, core.SEQUENCE, 50, 4 * 16 + 7 * 2, to_mask(parse_cards("TD JD QD KD")))]
    hand = to_mask(parse_cards("7H 8H 9H KS QS AC"))
    plan = declaration_plan(hand, 0, 3, belot_options().fours, declared)
    assert plan == [to_mask(parse_cards("KS QS"))]
    # Without the rival's berz the terz goes too.
    assert to_mask(parse_cards("7H 8H 9H")) in declaration_plan(
        hand, 0, 3, belot_options().fours, []
    )


def test_a_long_run_is_split_for_more_points() -> None:
    # Eight hearts: a quint and a terz (120) are worth more than the eight (100).
    hand = to_mask(parse_cards("7H 8H 9H TH JH QH KH AH AS"))
    plan = declaration_plan(hand, 0, 3, belot_options().fours, [])
    assert sorted(m.bit_count() for m in plan) == [3, 5]


def _endgame(seat1_score: int = 995) -> tuple[Known, dict[str, int]]:
    """Seat 0 leads trick 7 with JS (master trump) and 7H; a trick takes it to 1001."""
    hidden = {
        "seat1": to_mask(parse_cards("AH 8S")),
        "seat2": to_mask(parse_cards("TH KC")),
        "stock": to_mask(parse_cards("QD 9D 8D 7D")),
    }
    hand = to_mask(parse_cards("JS 7H"))
    turned = parse_cards("7S")[0].index
    played = FULL_MASK & ~hand & ~hidden["seat1"] & ~hidden["seat2"] & ~hidden["stock"]
    played &= ~(1 << turned)
    known = Known(
        seat=0,
        players=3,
        dealer=2,
        turned=turned,
        trump=3,
        declarer=2,
        hand=hand,
        played=played,
        trick=[],
        leader=0,
        tricks=7,
        excluded=[0, 0, 0],
        shown=[0, 0, 0],
        counts=[2, 2, 2],
        points=[0, 5, 100],
        took=0b111,
        declared=[],
        led=0b111,
        scores=(981, seat1_score, 0),
        hanging=0,
        fours=belot_options().fours,
        bids=("pass", "pass", "play"),
    )
    return known, hidden


def test_solver_sees_the_forced_win() -> None:
    known, hidden = _endgame()
    for card, expected in (("JS", True), ("7H", False)):
        sim = Sim(
            players=3,
            trump=3,
            turned=known.turned,
            declarer=2,
            hands=[known.hand, hidden["seat1"], hidden["seat2"]],
            trick=[],
            leader=0,
            tricks=7,
            played=known.played,
            points=[0, 5, 100],
            took=0b111,
            declared=[],
            led=0b111,
            scores=known.scores,
            hanging=0,
            fours=known.fours,
        )
        step(sim, parse_cards(card)[0].index)
        value = solve(sim, 0)
        assert (value >= 500) is expected, (card, value)


def test_strong_leads_the_forced_win() -> None:
    known, _ = _endgame()
    moves = [parse_cards("7H")[0].index, parse_cards("JS")[0].index]
    for seed in range(3):
        bot = StrongBelotBot(seed, samples=12)
        assert bot.choose(known, moves, hint=moves[0]) == moves[1]


def test_utility_counts_a_bait_as_nothing_written() -> None:
    known, _hidden = _endgame(seat1_score=0)
    sim = Sim(
        players=3,
        trump=3,
        turned=known.turned,
        declarer=0,
        hands=[0, 0, 0],
        trick=[],
        leader=0,
        tricks=9,
        played=FULL_MASK,
        points=[40, 90, 20],
        took=0b111,
        declared=[],
        led=0b111,
        scores=(0, 0, 0),
        hanging=0,
        fours=known.fours,
        last=2,
    )
    # Seat 0 declared and was out-scored: it writes 0, the others 90 and 30.
    assert utility(sim, 0) == -(90 + 30) / 2


def test_random_bot_is_reproducible() -> None:
    one = bot_deal([RandomBelotBot(5), RandomBelotBot(6), RandomBelotBot(7)], 3)[1]
    two = bot_deal([RandomBelotBot(5), RandomBelotBot(6), RandomBelotBot(7)], 3)[1]
    assert one == two


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_full_strength_levels_only_make_legal_moves_over_many_deals(players: int) -> None:
    for seed in range(150):
        rng = random.Random(seed)
        bots = [
            make_belot_bot(rng.choice(tuple(BELOT_BOT_LEVELS)), seed + s) for s in range(players)
        ]
        scores = tuple(rng.choice((0, 500, 900, 990)) for _ in range(players))
        game, _ = bot_deal(bots, seed, scores)
        assert game.history[-1].deal.finished
