"""Belot's sparring partners (``rules``, ``pimc``): whole deals for 2 and 3 players, the
rule-based count, and the duplicate tournament against them with points per deal."""

from __future__ import annotations

import json
import random

import pytest

from p2pbelka.bench.games.belot.opponents import (
    SPARRING,
    PlainPIMCBelotBot,
    RulesBelotBot,
    bench_bot,
    bench_levels,
    count_bid,
    hand_count,
    rules_card,
)
from p2pbelka.bots.belot.base import BELOT_BOT_LEVELS, BelotBot
from p2pbelka.bots.belot.heuristic import heuristic_card
from p2pbelka.bots.belot.knowledge import known_from
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.bots.belot.tournament import play_match, summarize
from p2pbelka.cards import CARDS, Card
from p2pbelka.cli.main import main
from tests.bots.belot_helpers import bot_deal


def _cards(*names: str) -> int:
    by_name = {str(card): card.index for card in CARDS}
    return sum(1 << by_name[name] for name in names)


def _small(level: str, seed: int) -> BelotBot:
    """``level`` with a few worlds a decision, for speed."""
    if level == "pimc":
        return PlainPIMCBelotBot(seed, samples=3, bid_samples=3)
    if level.startswith("strong-"):
        return StrongBelotBot(seed, samples=3, bid_samples=3, solve_cards=3, infer=True)
    return bench_bot(level, seed)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("level", sorted(SPARRING))
def test_sparring_partners_play_whole_deals(level: str, players: int) -> None:
    # bot_deal asks every turn through decide, which checks each action with the engine.
    for seed in range(3):
        bots: list[BelotBot] = [_small(level, s) for s in range(players)]
        game, actions = bot_deal(bots, seed)
        assert actions and game.history


def test_levels_by_name() -> None:
    assert set(SPARRING) == {"pimc", "rules", "strong-before"}
    assert set(bench_levels()) == {*BELOT_BOT_LEVELS, *SPARRING}
    assert isinstance(bench_bot("rules", 1), RulesBelotBot)
    assert isinstance(bench_bot("pimc", 1), PlainPIMCBelotBot)
    assert bench_bot("pimc", 1).samples == 96  # type: ignore[attr-defined]


def test_the_count_takes_a_strong_trump_and_passes_a_weak_hand() -> None:
    turned = _cards("7H").bit_length() - 1
    strong = _cards("JH", "9H", "AH", "AS", "7C", "8D")
    weak = _cards("7H", "8H", "7C", "8C", "9D", "QS")
    assert hand_count(strong, 2) == 3 + 2 + 1.5 + 1
    for players in (2, 3):
        assert count_bid(strong, turned, ["play", "pass"], players) == "play"
        assert count_bid(weak, turned, ["play", "pass"], players) == "pass"
    # The second round: its best other suit, once strong enough.
    spades = _cards("JS", "9S", "AS", "TS", "7C", "8D")
    assert count_bid(spades, turned, ["C", "D", "S", "pass"], 3) == "S"
    assert count_bid(weak, turned, ["C", "D", "S", "pass"], 3) == "pass"


class _Recorder(RulesBelotBot):
    """The rule-based player, noting where its card differs from the heuristic's."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.plays = 0
        self.differ = 0

    def play(self, game: object, seat: int) -> Card:
        from p2pbelka.rules.belot.game import BelotGame

        assert isinstance(game, BelotGame) and game.deal is not None
        known = known_from(game, seat)
        legal = game.deal.legal_mask(seat)
        card = rules_card(known, legal)
        assert legal >> card & 1
        self.plays += 1
        self.differ += card != heuristic_card(known, legal)
        return CARDS[card]


def test_the_rule_based_player_is_not_the_heuristic() -> None:
    bots = [_Recorder(s) for s in range(3)]
    for seed in range(6):
        bot_deal(list(bots), seed)
    plays = sum(b.plays for b in bots)
    assert plays > 0 and sum(b.differ for b in bots) >= plays // 10


def test_a_sparring_match_rotates_the_a_seat_and_scores_points_per_deal() -> None:
    row = play_match("heuristic", "rules", 3, seed=1, index=0, factory=bench_bot)
    assert row["games"] == 3 and row["wins_a"] + row["wins_b"] + row["draws"] == 3
    summary = summarize("heuristic", "rules", 3, [row, row], seed=1)
    net = (row["score_a"] - row["score_b"] / 2) / row["deals"]
    assert summary.net_points_per_deal_a == round(net, 2)
    assert summary.net_points_per_deal_a_ci95 == (round(net, 2), round(net, 2))
    assert any("written points per deal" in line for line in summary.lines())


@pytest.mark.parametrize("players", ["2", "3"])
def test_tournament_command_against_a_belot_sparring_partner(
    players: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "--game", "belot", "--players", players, "--a", "heuristic"]
    code = main([*args, "--b", "rules", "--games", players, "--json", "--quiet", "--workers", "1"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["b"] == "rules" and out["games"] == int(players)
    low, high = out["net_points_per_deal_a_ci95"]
    assert low <= out["net_points_per_deal_a"] <= high


def test_random_is_reproducible_for_the_rule_based_player() -> None:
    rng = random.Random(3)
    seed = rng.randrange(1000)
    first = bot_deal([bench_bot("rules", seed + s) for s in range(3)], seed)[1]
    again = bot_deal([bench_bot("rules", seed + s) for s in range(3)], seed)[1]
    assert first == again
