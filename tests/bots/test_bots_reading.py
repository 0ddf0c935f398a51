"""The strong level's reading of the other seats across a game's deals, and ``--think``."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from p2pbelka.bench.games.belka.opponents import RuleBot
from p2pbelka.bots import BotLevel, is_level, make_bot, parse_level, with_think
from p2pbelka.bots.belka.base import BelkaBot, make_belka_bot
from p2pbelka.bots.belka.reading import FLOOR, Reading, deal_evidence, posterior
from p2pbelka.bots.belka.sampler import PRIOR, likelihood
from p2pbelka.bots.belka.strong import MAX_THINK, SAMPLES, THINK, StrongBot
from p2pbelka.bots.belka.tournament import seat_view
from p2pbelka.cards import CARDS
from p2pbelka.cli import play_cmd
from p2pbelka.cli.main import main
from p2pbelka.rules.belka.deal import RedealClaim
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import random_hands
from p2pbelka.rules.common.play import Play

HEURISTIC = 0
"""Index of the heuristic-like type in the shares."""


def play_deals(bots: list[BelkaBot], deals: int, seed: int) -> GameState:
    """``deals`` played deals of one game (no re-deals asked), every seat from its view."""
    rng = random.Random(seed)
    game = GameState.new(options_from("classic"), first_dealer=seed % 4)
    for _ in range(deals):
        game = game.start_deal(random_hands(rng, game.dealer))
        while game.deal is not None and not game.deal.finished:
            seat = game.deal.turn
            assert seat is not None
            card = bots[seat].play(seat_view(game, seat), seat)
            game = game.apply(Play(seat, CARDS[card.index]))
        game = game.finish_deal()
        if game.pending_choice is not None or game.finished:
            break
    return game


def test_the_posterior_follows_the_plays() -> None:
    assert posterior(0, 0) == pytest.approx(PRIOR)
    like = posterior(14, 0)
    assert like[HEURISTIC] > 0.95
    unlike = posterior(11, 3)
    assert unlike[HEURISTIC] < 0.05
    # No type is ever ruled out: a player may slip or change style.
    assert min(posterior(500, 0)) == pytest.approx(FLOOR, rel=0.02)
    assert sum(posterior(3, 9)) == pytest.approx(1.0)


def test_a_seat_playing_like_the_rule_based_player_is_read_as_another_kind() -> None:
    # Seats 1 and 3 play by the rule-based sparring partner's rules; 0 and 2 like the heuristic.
    bots: list[BelkaBot] = [
        make_belka_bot("heuristic"),
        RuleBot(1),
        make_belka_bot("heuristic"),
        RuleBot(3),
    ]
    game = play_deals(bots, 3, seed=11)
    assert len(game.history) >= 2
    reading = Reading(0)
    reading.update(game)
    shares = reading.shares()
    assert shares[0] == PRIOR  # its own seat is not read
    assert reading.missed[1] + reading.missed[3] > 0  # they did differ from the heuristic
    assert reading.missed[2] == 0
    assert shares[2][HEURISTIC] > 0.9 > PRIOR[HEURISTIC]
    for seat in (1, 3):
        if reading.missed[seat]:
            assert shares[seat][HEURISTIC] < PRIOR[HEURISTIC]
    assert min(shares[1][HEURISTIC], shares[3][HEURISTIC]) < 0.1
    # The same reading from a later call: the finished deals are read once.
    matched = list(reading.matched)
    reading.update(game)
    assert reading.matched == matched


def test_the_reading_weighs_a_guess_by_the_seat_read() -> None:
    # A deal in progress, read under the prior and under "seat plays like the heuristic":
    # a guess contradicting the heuristic-like play loses more weight in the second.
    bots: list[BelkaBot] = [make_belka_bot("heuristic") for _ in range(4)]
    game = play_deals(bots, 1, seed=5)
    rng = random.Random(5)
    game = game.start_deal(random_hands(rng, game.dealer))
    for _ in range(9):
        assert game.deal is not None
        seat = game.deal.turn
        assert seat is not None
        game = game.apply(Play(seat, bots[seat].play(seat_view(game, seat), seat)))
    assert game.deal is not None
    me = game.deal.turn
    assert me is not None
    from p2pbelka.bots.belka.knowledge import seen_from
    from p2pbelka.bots.belka.sampler import sample_hands, surprises

    seen = seen_from(game.deal.view(me), me)
    sure = [posterior(60, 0) if s != me else PRIOR for s in range(4)]
    ratios = []
    for _ in range(60):
        hands = sample_hands(seen, rng)
        if surprises(seen, hands):
            ratios.append(likelihood(seen, hands, sure) / likelihood(seen, hands))
    assert ratios and max(ratios) < 1.0


def test_a_re_deal_shows_no_hand() -> None:
    game = GameState.new(options_from("classic"), first_dealer=0)
    rng = random.Random(3)
    for _ in range(200):
        game = GameState.new(options_from("classic"), first_dealer=0).start_deal(
            random_hands(rng, 0)
        )
        assert game.deal is not None
        claim = next((s for s in range(4) if game.deal.can_claim_redeal(s)), None)
        if claim is not None:
            break
    assert claim is not None
    game = game.apply(RedealClaim(claim)).finish_deal()
    assert deal_evidence(game.history[-1].deal, 0) == ([0, 0, 0, 0], [0, 0, 0, 0])


def test_a_new_game_is_read_afresh() -> None:
    bots: list[BelkaBot] = [make_belka_bot("heuristic") for _ in range(4)]
    reading = Reading(1)
    reading.update(play_deals(bots, 2, seed=1))
    assert sum(reading.matched) > 0
    reading.update(GameState.new(options_from("classic"), first_dealer=0))
    assert reading.matched == [0, 0, 0, 0] and reading.read == 0


def test_think_levels_by_name() -> None:
    assert parse_level("strong") == BotLevel("strong", 1)
    assert parse_level("strong:4") == BotLevel("strong", 4)
    bot = make_belka_bot("strong:4", 1)
    assert isinstance(bot, StrongBot) and bot.samples == 4 * SAMPLES
    assert make_belka_bot("strong:2", 1).samples == THINK[2][0]  # type: ignore[attr-defined]
    assert is_level("strong:3") and is_level("heuristic")
    assert not is_level("heuristic:2") and not is_level(f"strong:{MAX_THINK + 1}")
    assert not is_level("strong:x") and not is_level("strong:0")
    assert with_think("strong", 3) == "strong:3"
    assert with_think("strong", 1) == "strong"
    assert with_think("heuristic", 3) == "heuristic"
    with pytest.raises(ValueError, match="think"):
        with_think("strong", MAX_THINK + 1)
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("clever:2")


def test_think_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    play_cmd.add_arguments(parser)
    args = parser.parse_args(["--lang", "en", "--bots", "strong,heuristic,strong", "--think", "3"])
    assert tuple(play_cmd.config_from(args).bot_levels) == ("strong:3", "heuristic", "strong:3")
    args = parser.parse_args(["--lang", "en", "--bot-level", "strong:2"])
    assert set(play_cmd.config_from(args).bot_levels) == {"strong:2"}
    with pytest.raises(ValueError, match="think"):
        play_cmd.config_from(parser.parse_args(["--lang", "en", "--think", "99"]))

    assert main(["tournament", "--a", "strong", "--b", "rules", "--think", "99"]) == 2
    assert "--think" in capsys.readouterr().err
    code = main(["tournament", "--a", "heuristic", "--b", "rules", "--think", "2", "--games", "2"])
    assert code == 0
    capsys.readouterr()
    assert main(["tournament", "--a", "strong:x", "--b", "rules"]) == 2
    assert "strong:N" in capsys.readouterr().err
    assert main(["bench", "model", "--think", "2"]) == 2


def test_bench_bots_times_a_think_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--quick", "--think", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["strong:2_decisions"] > 0 and "strong+_decisions" not in figures
    # Beside the milliseconds, the yardstick and the strong level in yardsticks.
    assert figures["yardstick_us"] > 0 and figures["yardstick_us_after"] > 0
    assert figures["strong_median_yardsticks"] >= 0 and figures["strong_p99_yardsticks"] >= 0
    assert main(["bench", "bots", "--think", "0"]) == 2
