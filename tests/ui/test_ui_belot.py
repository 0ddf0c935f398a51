"""The Belot table screen driven by keystrokes through prompt_toolkit's pipe input.

The real program runs: prompt_toolkit on asyncio with trio as its guest, two or
three peers with their own keys over loopback TCP (or memory channels), random
bots.  A robot task beside the game reads the screen's view and types keys: a
call, a declaration, a claim of 1001, cards (``tests/ui/belot_robot.py``).  The
seeds are ones where seat 0 gets to declare in the first deal.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from p2pbelka.cards import Suit
from p2pbelka.cli import play_cmd
from p2pbelka.cli.games_cmd import saved_games
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belot import reports as belot_reports
from p2pbelka.ui.games.belot.view import combination_name
from p2pbelka.ui.words.cardnames import suit_name
from tests.oneprocess import one_process
from tests.ui.belot_robot import BelotRobot, play_belot


def verified(path: Path) -> None:
    report = verify_bytes(path.read_bytes())
    assert report.error is None and report.deals and not report.faults
    assert report.names[0] == "Tester"


@pytest.fixture(scope="session")
def three_seats(tmp_path_factory: pytest.TempPathFactory) -> tuple[TableScreen, BelotRobot, Path]:
    """A deal of three seats by keys, seed 11, read by two tests (for the session: the
    long tests run first, apart from their module's others)."""
    home = tmp_path_factory.mktemp("three-seats")
    # set up before the tests' own fixtures: the game left is saved under this home
    # (not the tester's), and its seats share their crypto work as the tests' games do
    with pytest.MonkeyPatch.context() as patch, one_process():
        patch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
        patch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))
        return (*play_belot(home, seed=11, players=3, look_around=True), home)


def test_three_seats_a_call_a_declaration_and_cards_by_keys(
    three_seats: tuple[TableScreen, BelotRobot, Path],
) -> None:
    screen, robot, tmp_path = three_seats
    assert robot.calls == ["play"]  # y: the turned suit, and seat 0 declares
    assert robot.declared and robot.cards_played == 9
    shown = robot.pages[0]
    summary = shown.summary.played
    assert summary is not None and summary.declarer == 0 and len(summary.tricks) == 9
    assert [d.seat for d in summary.declarations].count(0) == len(robot.declared)
    drawn = next(s for s in robot.screens if "Fair deal verified" in s)
    for text in ("Hands as dealt", "Stock:", "Calls:", "Tricks (leader", "writes"):
        assert text in drawn
    # the page's words, as drawn from the audited deal (the terminal gets only changes)
    page = plain_text(belot_reports.deal_end_lines(screen.view, shown))
    assert "Hands as dealt (six, then three more)" in page
    turned = suit_name(shown.summary.turned.suit)
    assert f"Calls: Tester play {turned}" in page  # seed 11: Tester calls first
    assert any(word in page for word in ("Made:", "Bait:", "Hanging bait:"))
    assert "Tester " + combination_name(summary.declarations[0].name, []) in page
    declare_dialog = next(s for s in robot.screens if "Enter declares" in s)
    assert "[1] " in declare_dialog
    assert robot.seen == ["None", "last", "None", "sheet", "None", "help", "None"]
    sheet = next(s for s in robot.screens if "Score sheet" in s)
    assert "declarer" in sheet and "Tester" in sheet and "Saule" in sheet
    assert screen.quit_requested
    verified(tmp_path / "game.transcript")


def test_two_seats_round_two_names_a_suit_by_key(tmp_path: Path) -> None:
    screen, robot = play_belot(tmp_path, seed=19, players=2, take=False, rows=24, columns=80)
    view = screen.view
    assert robot.calls[0] == "pass" and robot.calls[1] in (
        "C",
        "D",
        "H",
        "S",
    )  # 1: the first other suit
    shown = robot.pages[0]
    summary = shown.summary.played
    assert summary is not None
    assert summary.trump.letter == robot.calls[1] and summary.declarer == 0
    assert robot.declared and robot.cards_played == 9
    assert view.players == 2 and len(shown.summary.hands) == 2
    assert "Stock:" in next(s for s in robot.screens if "Fair deal verified" in s)
    page = plain_text(belot_reports.deal_end_lines(view, shown))
    named = suit_name(Suit.parse(robot.calls[1]))
    assert "Tester pass · Bolat pass · Tester " + named in page
    verified(tmp_path / "game.transcript")


def test_a_whole_two_seat_game_won_by_a_claim_of_1001(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole game on the screen, to its end page (drawn alike for two and three
    seats; a whole three-seat game is played by tests/peer/test_meshtable.py and
    tests/lan/test_lan_belot.py, the screen's deals with three by the tests above)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # seed 6: Tester wins by a claim after 12 deals (other seeds take 17 to 23)
    screen, robot = play_belot(tmp_path, seed=6, players=2, deals=0, transport="memory")
    view = screen.view
    assert robot.claimed  # w: the claim was offered when true, and taken
    assert view.game_over is not None and view.game_over.winner == 0
    last = view.deal_ends[-1].summary.played
    assert last is not None and last.result == "claim" and last.claim == 0
    assert any("claims 1001" in line for line in view.log)
    end = robot.screens[-1]
    assert "Game over: Tester wins" in end and f"All {len(view.deal_ends)} deals verified" in end
    assert "Transcript saved to" in end
    report = verify_bytes((tmp_path / "game.transcript").read_bytes())
    assert report.error is None and report.finished and report.winner == 0
    # p2pbelka games lists it with each seat's score and the winner
    [saved] = saved_games([tmp_path])
    head, state = saved.lines()[:2]
    assert (
        f"Tester {view.game_over.score[0]}, Bolat" in head
        and "): Tester won" in state
        and state.strip().startswith("finished (")
    )


def test_the_belot_screen_speaks_kazakh(tmp_path: Path) -> None:
    _screen, robot = play_belot(tmp_path, seed=4, players=3, lang="kk", transport="memory")
    assert robot.declared
    page = next(s for s in robot.screens if "Кон адал" in s)
    assert "Кон адал" in page and "Сауда:" in page
    assert "терц" in next(s for s in robot.screens if "Жариялау" in s)


def play_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    play_cmd.add_arguments(parser)
    return parser.parse_args(["--lang", "en", *argv])


def test_play_takes_the_belot_seats_and_bot_levels() -> None:
    config = play_cmd.config_from(play_args("--game", "belot", "--bots", "strong,random"))
    assert (config.game, config.players, tuple(config.bot_levels)) == (
        "belot", 3, ("strong", "random"),
    )  # fmt: skip
    config = play_cmd.config_from(play_args("--game", "belot", "--players", "2"))
    assert config.players == 2 and len(config.bot_levels) == 1
    assert play_cmd.config_from(play_args()).players == 4  # Belka as before


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--players", "4"), "Belot is played by 2 or 3, not 4"),
        (("--bots", "random,random,random"), "--bots expects 2 levels, got 3"),
        (("--bot-level", "strong+"), "unknown bot level 'strong+'"),
        (("--preset", "eyes"), "Belot has no preset 'eyes'"),
        (("--option", "eggs=double"), "unknown option 'eggs'"),
    ],
)
def test_play_refuses_what_belot_does_not_have(argv: tuple[str, ...], says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        play_cmd.config_from(play_args("--game", "belot", *argv))


def test_the_same_seed_deals_the_same_belot_deal(
    tmp_path: Path, three_seats: tuple[TableScreen, BelotRobot, Path]
) -> None:
    _screen, first, _home = three_seats
    _screen, again = play_belot(tmp_path, seed=11, players=3)
    assert first.pages[0].summary.hands == again.pages[0].summary.hands
    assert first.pages[0].summary.dealer == again.pages[0].summary.dealer
    assert first.pages[0].summary.turned == again.pages[0].summary.turned
