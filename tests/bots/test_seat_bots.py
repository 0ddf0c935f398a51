"""One bot interface for every game: levels parsed once, one registry, seat bots that
answer the table's question with one of its moves, whatever the game."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest

from p2pbelka.bots import BotLevel, make_bot, make_seat_bot, parse_level, registry, with_think
from p2pbelka.bots import levels as bot_levels
from p2pbelka.bots.belka.base import RandomBot
from p2pbelka.bots.belka.seat import BelkaSeatBot
from p2pbelka.bots.belot import strong as belot_strong
from p2pbelka.bots.belot.base import RandomBelotBot
from p2pbelka.bots.belot.seat import BelotSeatBot
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.bots.common.entry import GameBots
from p2pbelka.bots.common.seat import Question, as_bot
from p2pbelka.cards import CARDS
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules.belka.moves import ChooseEggs, ClaimRedeal, Ready
from p2pbelka.rules.common.moves import Move, PlayCard
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes

pytestmark = pytest.mark.usefixtures("one_process")  # every seat in this process


def test_a_level_is_parsed_once_into_a_name_and_a_think_level() -> None:
    assert parse_level("strong:3") == BotLevel("strong", 3)
    assert str(BotLevel("strong", 3)) == "strong:3" and str(BotLevel("heuristic")) == "heuristic"
    assert parse_level(BotLevel("strong", 2)) == BotLevel("strong", 2)
    with pytest.raises(ValueError, match=r"unknown bot level 'clever' \(expected one of random"):
        parse_level("clever")
    with pytest.raises(ValueError, match="bot level 'heuristic' has no think levels"):
        parse_level("heuristic:2")
    with pytest.raises(ValueError, match=r"think level '9' \(expected 1 to 8\)"):
        parse_level("strong:9")


def test_every_game_has_its_levels_and_the_think_levels_carry() -> None:
    assert bot_levels("belka") == ("random", "heuristic", "strong", "strong+")
    assert bot_levels("belot") == ("random", "heuristic", "strong")
    assert bot_levels() == ("random", "heuristic", "strong", "strong+")
    assert with_think("strong", 3, "belot") == "strong:3"
    # Belot's strong bot thinks longer too: strong:3 is three times its sampled deals.
    seat = make_seat_bot("belot", "strong:3", 1)
    assert isinstance(seat, BelotSeatBot) and isinstance(seat.bot, StrongBelotBot)
    assert seat.bot.samples == 3 * belot_strong.SAMPLES
    assert seat.bot.bid_samples == 3 * belot_strong.BID_SAMPLES
    plain = make_seat_bot("belot", "strong", 1)
    assert isinstance(plain, BelotSeatBot) and isinstance(plain.bot, StrongBelotBot)
    assert plain.bot.samples == belot_strong.SAMPLES
    with pytest.raises(ValueError, match=re.escape("Belot: unknown bot level 'strong+'")):
        make_seat_bot("belot", "strong+")


def test_a_bot_for_any_game_builds_the_seat_bot_of_the_game_it_meets() -> None:
    bot = make_bot("strong:3", 7)  # a joiner's --bot strong:3: no game known yet
    belot = bot.for_game("belot")
    assert bot.for_game("belot") is belot  # built once, not per question
    assert isinstance(belot, BelotSeatBot) and isinstance(belot.bot, StrongBelotBot)
    assert belot.bot.samples == 3 * belot_strong.SAMPLES
    belka = bot.for_game("belka")
    assert isinstance(belka, BelkaSeatBot) and belka.bot.samples == 200  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("clever")
    with pytest.raises(ValueError, match="no bots for the game 'nothing'"):
        make_bot("random").for_game("nothing")


def test_the_belot_seat_bot_seeds_its_bot_from_its_own_generator() -> None:
    seat = BelotSeatBot("random", 5)
    assert isinstance(seat.bot, RandomBelotBot)
    expected = RandomBelotBot(random.Random(5).getrandbits(32))
    assert seat.bot.rng.getstate() == expected.rng.getstate()


@dataclass(frozen=True)
class Asked:
    """A question as the table asks it (structurally a ``ChoiceNeeded``)."""

    kind: str
    moves: tuple[Move, ...]


class Wrong:
    """A Belka bot with bugs: an illegal card, a failure, a wrong eggs choice."""

    def play(self, game: object, seat: int) -> object:
        return CARDS[0]

    def claim_redeal(self, game: object, seat: int) -> bool:
        raise ValueError("a bug")

    def choose_eggs(self, game: object, seat: int) -> str:
        return "everything"


def test_a_seat_bot_answers_only_with_a_move_the_question_offers() -> None:
    seat = BelkaSeatBot(Wrong(), 3)  # type: ignore[arg-type]
    cards = (PlayCard(CARDS[5]), PlayCard(CARDS[9]))
    assert seat.choose(None, 0, Asked("play", cards)) in cards  # type: ignore[arg-type]
    assert seat.choose(None, 0, Asked("redeal", (ClaimRedeal(), Ready()))) in (  # type: ignore[arg-type]
        ClaimRedeal(),
        Ready(),
    )
    eggs = (ChooseEggs("plus4"), ChooseEggs("title"))
    assert seat.choose(None, 0, Asked("eggs", eggs)) in eggs  # type: ignore[arg-type]
    assert seat.choose(None, 0, Asked("shrug", cards)) in cards  # type: ignore[arg-type]
    question: Question = ev.ChoiceNeeded("play", cards)  # the table's question is one
    assert seat.choose(None, 0, question) in cards  # type: ignore[arg-type]


class ToyBot:
    """A toy game's seat bot: the first move offered."""

    def __init__(self, level: BotLevel, seed: int | None) -> None:
        self.level, self.seed = level, seed

    def choose(self, game: object, seat: int, question: Question) -> Move:
        return question.moves[0]


def test_a_game_registers_its_bots_and_every_front_end_finds_them() -> None:
    toy = GameBots(game="toy", levels=("first",), thinking={}, make=ToyBot)
    registry.register(toy)
    try:
        assert registry.levels("toy") == ("first",)
        seat = make_bot("first", 4).for_game("toy")
        assert isinstance(seat, ToyBot) and seat.level == BotLevel("first") and seat.seed == 4
        assert seat.choose(None, 0, Asked("play", (Ready(),))) == Ready()
        with pytest.raises(ValueError, match="has bots registered already"):
            registry.register(GameBots(game="toy", levels=(), thinking={}, make=ToyBot))
        with pytest.raises(ValueError, match="toy has no tournament"):
            registry.tournament("toy")
    finally:
        registry.unregister("toy")
    with pytest.raises(ValueError, match="no bots for the game 'toy'"):
        registry.levels("toy")
    registry.unregister("belka")  # the built-in games' bots stay
    assert registry.levels("belka")


def test_a_bot_built_by_hand_plays_a_table_through_as_bot() -> None:
    game = LocalGame.seeded(3)
    tables = game.make_tables()
    bots = [as_bot(BelkaSeatBot(RandomBot(s), s)) for s in range(4)]
    run_sync(tables, bots)
    assert all(t.state.over for t in tables)
    assert verify_bytes(dump_transcript(tables[0].view.transcript)).ok


def test_the_command_line_takes_belot_think_levels(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from p2pbelka.cli import play_cmd
    from p2pbelka.cli.main import main

    parser = argparse.ArgumentParser()
    play_cmd.add_arguments(parser)
    args = ["--lang", "en", "--game", "belot", "--bots", "strong,random", "--think", "2"]
    assert tuple(play_cmd.config_from(parser.parse_args(args)).bot_levels) == ("strong:2", "random")
    args = ["--lang", "en", "--game", "belot", "--bot-level", "strong:3", "--players", "2"]
    assert tuple(play_cmd.config_from(parser.parse_args(args)).bot_levels) == ("strong:3",)
    assert main(["tournament", "--game", "belot", "--a", "strong:9", "--quiet"]) == 2
    assert "unknown Belot level 'strong:9'" in capsys.readouterr().err
    assert main(["tournament", "--game", "belot", "--think", "9", "--quiet"]) == 2
    assert "--think 9 (expected 1 to 8)" in capsys.readouterr().err
