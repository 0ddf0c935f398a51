"""The sparring partners of the benches, the ``strong+`` level, and long matches (slow)."""

from __future__ import annotations

import json

import pytest

from p2pbelka.bench.games.belka.model import measure
from p2pbelka.bench.games.belka.opponents import SPARRING, bench_bot, bench_levels, rules_choice
from p2pbelka.bots.belka.base import BELKA_BOT_LEVELS, BelkaBot, make_belka_bot
from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import choose, legal
from p2pbelka.bots.belka.strong import THINK, StrongBot
from p2pbelka.bots.belka.tournament import play_game, play_match, run_tournament
from p2pbelka.cli.main import main
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import random_hands


@pytest.mark.parametrize("level", sorted(SPARRING))
def test_sparring_partners_play_whole_games(level: str) -> None:
    bots: list[BelkaBot] = [bench_bot(level, s) for s in range(4)]
    if level in ("mc", "pimc"):
        bots = [SPARRING[level](s, samples=3) for s in range(4)]
    game = play_game(bots, options_from("classic"), lambda k: 77 + k)
    assert game.finished or len(game.history) == 80


def test_the_rule_based_player_is_not_the_heuristic() -> None:
    import random

    differ = 0
    rng = random.Random(4)
    for i in range(20):
        game = GameState.new(options_from("classic"), i % 4).start_deal(random_hands(rng, i % 4))
        assert game.deal is not None
        seat = game.deal.turn
        assert seat is not None
        seen = seen_from(game.deal, seat)
        card = rules_choice(seen)
        assert legal(seen) >> card & 1
        differ += card != choose(seen)
    assert differ >= 3


def test_levels_by_name() -> None:
    assert "strong+" in BELKA_BOT_LEVELS
    assert set(SPARRING) <= set(bench_levels())
    assert isinstance(make_belka_bot("strong+", 1), StrongBot)
    assert StrongBot.thinking(2).samples == THINK[2][0]
    with pytest.raises(ValueError, match="think level"):
        StrongBot.thinking(9)


def test_tournament_against_a_sparring_partner(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--a", "heuristic", "--b", "rules", "--games", "2", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["b"] == "rules"
    row = play_match("heuristic", "rules", seed=3, index=0, factory=bench_bot)
    assert row["games_a"] + row["games_b"] + row["draws"] == 2


def test_model_calibration_runs() -> None:
    figures = measure(2)
    assert 0.0 <= float(str(figures["model_agree_guessed_hand"])) <= 1.0
    assert figures["model_agree_true_hand_heuristic"] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "eyes"])
@pytest.mark.parametrize("opponent", ["heuristic", "mc", "rules"])
def test_strong_beats_every_opponent(preset: str, opponent: str) -> None:
    summary = run_tournament(
        "strong", opponent, matches=40, seed=2, preset=preset, factory=bench_bot
    )
    assert summary.win_rate_a_ci95[0] > 0.5
