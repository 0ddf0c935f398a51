"""Belot tournaments: hands rotated over the seats, reproducible by seed, the command line,
and the levels' targets over 300 games (slow)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pbelka.bots.belot.base import BelotBot, RandomBelotBot
from p2pbelka.bots.belot.tournament import (
    deal_cards,
    match_base,
    play_game,
    play_match,
    run_tournament,
    seating,
)
from p2pbelka.cards import Card
from p2pbelka.cli.main import main
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import belot_options


class FirstHand(RandomBelotBot):
    """A random bot that notes the six cards it was dealt in the first deal."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.first: int | None = None

    def note(self, game: BelotGame, seat: int) -> None:
        assert game.deal is not None
        if self.first is None and game.deal.number == 0:
            self.first = game.deal.dealt[seat]

    def bid(self, game: BelotGame, seat: int) -> str:
        self.note(game, seat)
        return super().bid(game, seat)

    def play(self, game: BelotGame, seat: int) -> Card:
        self.note(game, seat)
        return super().play(game, seat)


@pytest.mark.parametrize("players", [2, 3])
def test_the_a_seat_holds_every_hand_of_a_deal_over_a_match(players: int) -> None:
    base = match_base(seed=5, index=0)
    first, _turned, _extra = deal_cards(base, 0, players, dealer=0)
    held = []
    for game in range(players):
        a_seat = seating("A", "B", players, game).index("A")
        assert a_seat == game
        bots = [FirstHand(10 * game + s) for s in range(players)]
        as_bots: list[BelotBot] = list(bots)
        play_game(as_bots, belot_options(), base, first_dealer=0, max_deals=1)
        held.append(bots[a_seat].first)
    assert sorted(h or 0 for h in held) == sorted(first)


def test_a_match_is_reproducible_by_seed() -> None:
    row = play_match("heuristic", "random", 3, seed=4, index=1)
    assert row["games"] == 3 and row["wins_a"] + row["wins_b"] + row["draws"] == 3
    assert play_match("heuristic", "random", 3, seed=4, index=1) == row
    assert play_match("heuristic", "random", 3, seed=5, index=1) != row


def test_tournament_resumes_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "belot.jsonl"
    first = run_tournament("heuristic", "random", 2, seed=3, players=2, workers=1, state=str(state))
    again = run_tournament("heuristic", "random", 3, seed=3, players=2, workers=1, state=str(state))
    assert len(state.read_text().splitlines()) == 3
    assert first.games == 4 and again.games == 6
    assert again.wins_a >= first.wins_a


@pytest.mark.parametrize("players", ["2", "3"])
def test_tournament_command_for_belot(players: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--game", "belot", "--players", players, "--a", "heuristic"]
    code = main([*args, "--b", "random", "--games", players, "--json", "--quiet"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "belot" and out["games"] == int(players)
    assert out["even_share"] == round(1 / int(players), 4)
    low, high = out["win_rate_a_ci95"]
    assert 0.0 <= low <= out["win_rate_a"] <= high <= 1.0


def test_tournament_command_refuses_a_bad_belot_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--game", "belot", "--players", "4", "--quiet"]) == 2
    assert main(["tournament", "--game", "belot", "--a", "nobody", "--quiet"]) == 2
    assert "unknown Belot level" in capsys.readouterr().err


@pytest.mark.slow
def test_heuristic_beats_two_random_seats_in_nine_games_of_ten() -> None:
    summary = run_tournament("heuristic", "random", matches=100, seed=1, players=3)
    assert summary.win_rate_a >= 0.9


@pytest.mark.slow
def test_strong_beats_two_heuristic_seats() -> None:
    summary = run_tournament("strong", "heuristic", matches=100, seed=2026, players=3)
    assert summary.win_rate_a >= 0.55
