"""A third game's screen from two registered functions (``tests/toygame/ui/screen.py``):
Toy is played by keys on the one table screen, its pages drawn by the screen's own
defaults, and its replay shown by the plain replay screen."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.play import PlayConfig, play_local
from p2pbelka.ui.replayscreen import Replay
from p2pbelka.ui.replaystart import replay_of
from tests import toygame
from tests.toygame.rules import game as rules
from tests.toygame.rules.summary import ToySummary
from tests.toygame.ui.screen import UI

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


@pytest.fixture
def toy() -> Iterator[None]:
    toygame.register()
    try:
        yield
    finally:
        toygame.unregister()


class ToyRobot:
    """Plays seat 0 with Enter (the table chooses a legal card first), reads the page
    after the deal, and leaves once the game is over."""

    def __init__(self, pipe: object, stream: io.StringIO) -> None:
        self.pipe = pipe
        self.stream = stream
        self.cards_played = 0
        self.pages: list[str] = []

    def shown(self) -> str:
        return ANSI.sub("", self.stream.getvalue())

    async def run(self, screen: TableScreen) -> None:
        send = self.pipe.send_text  # type: ignore[attr-defined]
        with trio.fail_after(60):  # a hang, not a speed limit
            # the game's end comes right after its last deal's page, which stays up
            while not (screen.view.finished and screen.overlay is None):
                await trio.sleep(0.005)
                view = screen.view
                if screen.overlay == "deal_end":
                    while "Fair deal verified" not in self.shown():
                        await trio.sleep(0.005)
                    self.pages.append(self.shown())
                    send("\r")
                    while screen.overlay == "deal_end":
                        await trio.sleep(0.005)
                elif view.my_turn and view.hand[view.selected] in view.legal:
                    before = len(view.hand)
                    send("\r")
                    while len(view.hand) == before:
                        await trio.sleep(0.005)
                    self.cards_played += 1
            while "Transcript saved to" not in self.shown():
                await trio.sleep(0.005)
            send("q")


def test_a_toy_deal_is_played_by_keys_on_the_one_screen(toy: None, tmp_path: Path) -> None:
    assert registry.game(rules.NAME) is UI
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")
    config = PlayConfig(
        name="Tester",
        seed=7,
        preset="plain",
        options={"deals": "1"},
        bot_levels=("lowest",),
        pace=0,
        transcript=tmp_path / "toy.transcript",
        transport="memory",
        game=rules.NAME,
        players=2,
    )
    with create_pipe_input() as pipe:
        robot = ToyRobot(pipe, stream)
        screen = play_local(config, input=pipe, output=output, extra=robot.run)
    assert screen.game is UI and screen.quit_requested and screen.view.finished
    assert robot.cards_played == rules.HAND
    summary = screen.view.deal_ends[0].summary
    assert isinstance(summary, ToySummary) and sum(summary.won) == rules.HAND
    assert "deal 1: tricks" in robot.pages[0]
    report = verify_bytes((tmp_path / "toy.transcript").read_bytes())
    assert report.error is None and not report.faults and report.game_name == rules.NAME
    # the replay: the plain one, with the game's tricks, card by card
    replay = replay_of(report, 0)
    assert type(replay) is Replay and len(replay.plays) == 2 * rules.HAND
    replay.step(3)
    trick = replay.trick()
    assert trick is not None and len(trick.cards) == 1
    assert "Hands" in plain_text(replay.hands_lines(48))


def test_toy_has_no_screen_unless_registered() -> None:
    with pytest.raises(ValueError, match="toy"):
        registry.game(rules.NAME)
