"""``p2pbelka replay``: a verified game at the table, every hand open, driven by keys."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.table.report import VerifyReport
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.games.belka.replay import BelkaReplay, title
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.replayscreen import ReplayScreen
from p2pbelka.ui.words import i18n
from tests.ui.cli import run_main, saved_game

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


@pytest.fixture(scope="session")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return saved_game(tmp_path_factory.mktemp("replay"))


@pytest.fixture(scope="session")
def report(saved: Path) -> VerifyReport:
    """The saved game verified once, for each test that reads it (for the session:
    the long tests run first, apart from their module's others)."""
    return verify_bytes(saved.read_bytes())


def replay_of(report: VerifyReport) -> BelkaReplay:
    assert report.ok and len(report.deals) >= 4
    return BelkaReplay(report.deals, list(report.names), verdict=report.verdict)


def test_stepping_walks_the_cards_and_crosses_deals(report: VerifyReport) -> None:
    replay = replay_of(report)
    first = replay.summary
    assert all(len(hand) == 8 for hand in replay.hands())
    replay.step(5)
    leader, card = replay.plays[4]
    assert card not in replay.hands()[leader] and sum(map(len, replay.hands())) == 27
    trick = replay.trick()
    assert trick is not None and trick.cards == [card] and trick.winner is None
    replay.step(-1)
    trick = replay.trick()
    assert trick is not None and trick.winner == first.tricks[0].winner
    assert trick.cards == list(first.tricks[0].cards)
    replay.step(len(replay.plays) - replay.played + 1)  # past the last card: the next deal
    assert (replay.deal, replay.played) == (1, 0)
    replay.step(-1)
    assert (replay.deal, replay.played) == (0, len(replay.plays))
    replay.jump(99)
    assert replay.deal == len(replay.deals) - 1


def test_the_replay_screen_is_driven_by_keys(report: VerifyReport) -> None:
    i18n.set_language("en")
    replay = replay_of(report)
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")
    names = replay.names

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
            assert all(name in shown() for name in names)
            pipe.send_text("\x1b[C" * 4)  # four cards: the first trick, and who took it
            winner = names[replay.summary.tricks[0].winner]
            await until(lambda: replay.played == 4 and f"{winner} takes it" in shown())
            pipe.send_text("\x1b[D")
            await until(lambda: replay.played == 3)
            pipe.send_text("\x1b[B")  # down: to the end of the trick
            await until(lambda: replay.played == 4)
            pipe.send_text("3\r")  # jump to deal 3
            await until(lambda: replay.deal == 2 and replay.played == 0)
            assert "deal 3 of" in title(replay)
            pipe.send_text("\x1b[6~")  # page down: the next deal
            await until(lambda: replay.deal == 3)
            pipe.send_text("\x1b[5~")
            await until(lambda: replay.deal == 2)
            pipe.send_text("q")
            await trio.sleep_forever()  # the app exits, which cancels this

        run_with_app(screen.app, main)
    assert "The whole game" in shown() and "OK: every deal" in shown()


def test_replay_verifies_first_and_needs_a_terminal_for_the_screen(
    saved: Path, tmp_path: Path
) -> None:
    done = run_main(tmp_path, "replay", str(saved))
    assert done.stdout.startswith("OK: every deal was dealt fairly")
    assert "needs a terminal" in done.stdout and done.returncode == 2
    missing = run_main(tmp_path, "replay", "nothing.transcript")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "nothing.transcript does not exist" in missing.stderr


def test_the_replay_command_shows_belka_on_belka_s_screen(report: VerifyReport) -> None:
    from p2pbelka.ui.replaystart import replay_screen

    screen = replay_screen(report, 2)
    assert type(screen) is ReplayScreen and type(screen.replay) is BelkaReplay
    assert screen.replay.deal == 1 and screen.replay.played == 0
