"""``p2pbelka replay`` of a Belot game: two or three seats, every hand open, by keys."""

from __future__ import annotations

import functools
import io
import re
import tempfile
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.verify import VerifiedDeal, verify_bytes
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belot.replay import BelotReplay, side_lines, title
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.replayscreen import ReplayScreen
from p2pbelka.ui.words import i18n
from tests.ui.belot_summaries import BAIT, MADE, VOID
from tests.ui.cli import run_main

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


@functools.cache
def verified_game(players: int) -> VerifyReport:
    """A seeded game of ``players`` seats between random bots, saved and verified once
    per test process, for each test that reads it (cached here rather than in a session
    fixture with two params: the long tests run first, and a worker switching from one
    param to the other played and verified the game again each time)."""
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        path = home / "game.transcript"
        run_main(
            home, "selfplay", "--game", "belot", "--players", str(players), "--seed", "9",
            "--quiet", "--transcript", str(path), check=True,
        )  # fmt: skip
        return verify_bytes(path.read_bytes())


@pytest.fixture(params=[2, 3])
def report(request: pytest.FixtureRequest) -> VerifyReport:
    return verified_game(request.param)


def replay_of(report: VerifyReport) -> BelotReplay:
    assert report.ok and len(report.deals) >= 4
    seats = len(report.names)
    return BelotReplay(report.deals, list(report.names), verdict=report.verdict, seats=seats)


def test_stepping_walks_the_cards_of_two_or_three_seats(report: VerifyReport) -> None:
    replay = replay_of(report)
    n = replay.seats
    while replay.summary.void:  # a deal where all passed has no cards to show
        replay.jump(replay.deal + 1)
    first = replay.summary.played
    assert all(len(hand) == 9 for hand in replay.hands())
    replay.step(n + 1)
    seat, card = replay.plays[n]
    assert card not in replay.hands()[seat] and sum(map(len, replay.hands())) == 9 * n - n - 1
    trick = replay.trick()
    assert trick is not None and trick.cards == [card] and trick.winner is None
    replay.trick_step(-1)
    trick = replay.trick()
    assert trick is not None and trick.winner == first.tricks[0].winner
    assert trick.cards == list(first.tricks[0].cards)
    view = replay.view()
    assert view.players == n and view.declarer == first.declarer and view.turned is not None


def test_the_belot_replay_screen_is_driven_by_keys(report: VerifyReport) -> None:
    i18n.set_language("en")
    replay = replay_of(report)
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")

    def shown() -> str:
        return ANSI.sub("", stream.getvalue())

    with create_pipe_input() as pipe:
        screen = ReplayScreen(replay, input=pipe, output=output)

        async def until(condition: object) -> None:
            with trio.fail_after(120):  # a hang, not a speed limit
                while not condition():  # type: ignore[operator]
                    await trio.sleep(0.01)

        async def main(bridge: Bridge) -> None:
            await until(lambda: "deal 1 of" in shown() and "Fair deal verified" in shown())
            assert "stock" in shown() and "Calls:" in shown()
            pipe.send_text("\x1b[B")  # down: to the end of the first trick
            await until(lambda: replay.played == replay.seats or not replay.plays)
            pipe.send_text("3\r")  # jump to deal 3
            await until(lambda: replay.deal == 2 and replay.played == 0)
            assert "deal 3 of" in title(replay)
            pipe.send_text("q")
            await trio.sleep_forever()  # the app exits, which cancels this

        run_with_app(screen.app, main)
    assert "The whole game" in shown() and "OK: every deal" in shown()


def test_the_replay_command_shows_belot_on_belot_s_screen(report: VerifyReport) -> None:
    from p2pbelka.ui.replaystart import replay_screen

    screen = replay_screen(report, 2)
    assert isinstance(screen, ReplayScreen) and isinstance(screen.replay, BelotReplay)
    assert screen.replay.deal == 1 and screen.replay.seats == len(report.names)


def test_stepping_crosses_a_void_deal_which_has_no_cards() -> None:
    i18n.set_language("en")
    deals = [
        VerifiedDeal(k + 1, BelotSummary.from_json(s)) for k, s in enumerate((MADE, VOID, BAIT))
    ]
    replay = BelotReplay(deals, ["Asel", "Bolat", "Saule"], seats=3)
    replay.step(len(replay.plays) + 1)  # past the first deal's last card
    assert (replay.deal, replay.played, replay.plays) == (1, 0, [])
    assert all(len(hand) == 6 for hand in replay.hands()) and replay.trick() is None
    assert "deal 2 of 3" in title(replay) and "trumps" not in title(replay)
    assert "void" in plain_text(side_lines(replay))
    replay.step(1)  # nothing to play in it: on to the next deal
    assert (replay.deal, replay.played) == (2, 0)
    replay.step(-1)
    assert (replay.deal, replay.played) == (1, 0)
