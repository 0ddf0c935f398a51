"""Tournaments: duplicate matches, resumable results, the command line, long runs (slow)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pbelka.bots.belka.base import BelkaBot, RandomBot
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belka.tournament import play_game, play_match, run_tournament
from p2pbelka.cli.main import main
from p2pbelka.rules.belka.options import options_from


def test_a_match_is_two_games_on_the_same_cards() -> None:
    row = play_match("heuristic", "random", seed=4, index=0)
    assert row["games_a"] + row["games_b"] + row["draws"] == 2
    assert row["deals_a"] + row["deals_b"] <= row["deals"]
    assert play_match("heuristic", "random", seed=4, index=0) == row


def test_tournament_resumes_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "results.jsonl"
    first = run_tournament("heuristic", "random", matches=2, seed=9, workers=1, state=str(state))
    assert len(state.read_text().splitlines()) == 2
    # A cut-off last line (a stop mid-write) is ignored and that match played again.
    with state.open("a") as f:
        f.write('{"match": 2, "ga')
    again = run_tournament("heuristic", "random", matches=3, seed=9, workers=2, state=str(state))
    lines = state.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[3])["match"] == 2
    assert again.matches == 3 and again.games == 6
    assert first.games_a <= again.games_a


def test_tournament_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--a", "heuristic", "--b", "random", "--games", "4", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and out["a"] == "heuristic"
    assert 0.0 <= out["win_rate_a"] <= 1.0
    assert len(out["win_rate_a_ci95"]) == 2


def test_strong_plays_a_whole_game() -> None:
    bots: list[BelkaBot] = [
        StrongBot(s, samples=6) if s % 2 == 0 else RandomBot(s) for s in range(4)
    ]
    game = play_game(bots, options_from("eyes"), lambda k: 1000 + k)
    assert game.finished and game.winner == 0


@pytest.mark.slow
def test_heuristic_beats_random_in_nine_games_of_ten() -> None:
    summary = run_tournament("heuristic", "random", matches=100, seed=1)
    assert summary.games_a >= 0.9 * summary.games


@pytest.mark.slow
def test_strong_beats_heuristic() -> None:
    summary = run_tournament("strong", "heuristic", matches=50, seed=1)
    assert summary.win_rate_a_ci95[0] > 0.5


def test_a_win_rate_interval_stays_within_zero_and_one() -> None:
    from p2pbelka.bots.common.tournament import share_ci

    mean, low, high = share_ci([1.0, 1.0, 0.5])
    assert 0.0 <= low <= mean <= high == 1.0
    assert share_ci([0.0, 0.0, 0.5])[1] == 0.0
