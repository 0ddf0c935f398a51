"""``play --coach``: the page at a deal's end shows the coach's lines on the player's
decisions in that deal, once graded (the real program: four peers over memory
channels, the player's seat driven by keys)."""

from __future__ import annotations

import io
from pathlib import Path

from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.play import PlayConfig, play_local
from tests.ui.test_ui_play import ANSI, TEXTS, KeyRobot


class CoachedRobot(KeyRobot):
    """Plays seat 0 by keys and waits on the first deal's page for the coach."""

    async def at_deal_end(self, screen: TableScreen) -> None:
        assert self.summary is not None
        deal = self.summary.number
        await self.until(lambda: screen.coaching.lines.get(deal) is not None)
        await self.until(self.drawn("Coach"))


def test_the_deal_s_page_shows_the_coach_s_lines_when_asked(tmp_path: Path) -> None:
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=60, columns=160), term="xterm")
    config = PlayConfig(
        name="Tester",
        seed=11,
        bot_levels=("random",) * 3,
        pace=0,
        transcript=tmp_path / "game.transcript",
        transport="memory",
        coach=True,
    )
    with create_pipe_input() as pipe:
        robot = CoachedRobot(pipe, stream, *TEXTS["en"])
        screen = play_local(config, input=pipe, output=output, extra=robot.run)
    assert robot.summary is not None
    lines = screen.coaching.lines[robot.summary.number]
    assert lines
    shown = ANSI.sub("", stream.getvalue())
    assert "Coach" in shown
    head = lines[0]
    assert head.startswith(("Your decisions that cost more than 0.25 game points", "None of your"))
    for line in lines[1:]:
        assert line.startswith(f"deal {robot.summary.number + 1}")
