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


def test_pimc_rolls_out_only_until_the_compiled_search_can_take_the_world() -> None:
    from p2pbelka.bench.games.belot.opponents import rollout_to_exact
    from p2pbelka.bots.belot import fastsolver
    from tests.bots.test_belot_solver import endgame

    for seed in range(20):
        sim = endgame(seed, 2 + seed % 2, 5)
        if sim.over:
            continue
        sim.led = (1 << sim.players) - 1  # nothing left to declare
        played = sim.played
        rollout_to_exact(sim, 9, 3)
        assert sim.played == played  # taken at once: no card played out
        rollout_to_exact(sim, 0, 3)  # never exact: played out to three cards a hand
        assert sim.over or (not sim.trick and sim.hands[sim.leader].bit_count() <= 3)
    # A seat still to lead holding a combination may declare it: played on until it has
    # led or holds none any more.
    for seed in range(40):
        sim = endgame(seed, 3, 6)
        unled = [s for s in range(3) if not sim.led >> s & 1]
        if sim.over or not unled or fastsolver.frozen(sim):
            continue
        rollout_to_exact(sim, 9, 0)
        assert sim.over or fastsolver.frozen(sim)


def test_pimc_solves_from_the_first_trick_when_compiled() -> None:
    from p2pbelka.bench.games.belka.opponents import PlainPIMCBot, pimc_exact_cards
    from p2pbelka.bench.games.belot.opponents import EXACT_CARDS
    from p2pbelka.bots.belka import fastsolver as belka_fast
    from p2pbelka.bots.belot import fastsolver as belot_fast

    assert PlainPIMCBot().exact_cards == (8 if belka_fast.available() else 4)
    assert pimc_exact_cards() == PlainPIMCBot().exact_cards
    assert EXACT_CARDS[2] == 9 and EXACT_CARDS[3] >= 6
    assert PlainPIMCBelotBot(1).exact_cards is None  # the defaults above when compiled
    assert belot_fast.available() == belka_fast.available()
