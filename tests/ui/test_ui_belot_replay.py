"""``p2pbelka replay`` of a Belot game: two or three seats, every hand open, by keys."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.cards import parse_cards
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui import i18n
from p2pbelka.ui.belot_replay import BelotReplay, BelotReplayScreen, title
from p2pbelka.ui.hostloop import Bridge, run_with_app
from tests.ui.cli import run_main

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


@pytest.fixture(scope="module", params=[2, 3])
def saved(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("belot-replay")
    path = home / "game.transcript"
    run_main(
        home, "selfplay", "--game", "belot", "--players", str(request.param), "--seed", "9",
        "--quiet", "--transcript", str(path), check=True,
    )  # fmt: skip
    return path


def replay_of(path: Path) -> BelotReplay:
    report = verify_bytes(path.read_bytes())
    assert report.ok and len(report.deals) >= 4
    seats = len(report.names)
    return BelotReplay(report.deals, list(report.names), verdict=report.verdict, seats=seats)


def test_stepping_walks_the_cards_of_two_or_three_seats(saved: Path) -> None:
    replay = replay_of(saved)
    n = replay.seats
    while replay.summary["void"]:  # a deal where all passed has no cards to show
        replay.jump(replay.deal + 1)
    first = replay.summary
    assert all(len(hand) == 9 for hand in replay.hands())
    replay.step(n + 1)
    seat, card = replay.plays[n]
    assert card not in replay.hands()[seat] and sum(map(len, replay.hands())) == 9 * n - n - 1
    trick = replay.trick()
    assert trick is not None and trick.cards == [card] and trick.winner is None
    replay.trick_step(-1)
    trick = replay.trick()
    assert trick is not None and trick.winner == first["tricks"][0]["winner"]
    assert trick.cards == parse_cards(first["tricks"][0]["cards"])
    view = replay.view()
    assert view.players == n and view.declarer == first["declarer"] and view.turned is not None


def test_the_belot_replay_screen_is_driven_by_keys(saved: Path) -> None:
    i18n.set_language("en")
    replay = replay_of(saved)
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")

    def shown() -> str:
        return ANSI.sub("", stream.getvalue())

    with create_pipe_input() as pipe:
        screen = BelotReplayScreen(replay, input=pipe, output=output)

        async def until(condition: object) -> None:
            with trio.fail_after(20):
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
