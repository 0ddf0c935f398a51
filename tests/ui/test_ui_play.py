"""The table screen driven by keystrokes through prompt_toolkit's pipe input.

The real program runs: prompt_toolkit on asyncio with trio as its guest, four
peers with their own keys over loopback TCP (or memory channels), three random
bots.  A robot
task (in trio, beside the game) reads the screen's view and types keys.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.play import PlayConfig, play_local

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


class KeyRobot:
    """Plays seat 0 by pressing keys: the number of a legal card, then Enter."""

    def __init__(self, pipe: PipeInput, stream: io.StringIO, verdict: str, help: str) -> None:
        self.pipe = pipe
        self.stream = stream
        self.verdict, self.help = verdict, help
        self.cards_played = 0
        self.summary: BelkaSummary | None = None
        self.seen: list[str] = []

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await trio.sleep(0.005)

    def drawn(self, text: str) -> Callable[[], bool]:
        """True once ``text`` has reached the terminal (the renderer runs on its own time)."""
        return lambda: text in ANSI.sub("", self.stream.getvalue())

    async def at_deal_end(self, screen: TableScreen) -> None:
        """What to wait for on the first played deal's page (a subclass's own)."""

    async def run(self, screen: TableScreen) -> None:
        view = screen.view
        with trio.fail_after(300):  # a hang, not a speed limit
            while True:
                await trio.sleep(0.005)
                if screen.overlay == "deal_end":
                    summary = view.deal_ends[-1].summary
                    assert isinstance(summary, BelkaSummary)
                    if summary.redeal_claim is not None:
                        self.pipe.send_text("\r")  # a bot re-dealt: on to the next deal
                        await self.until(lambda: screen.overlay is None)
                        continue
                    self.summary = summary
                    await self.until(self.drawn(self.verdict))
                    await self.at_deal_end(screen)
                    break
                if view.choice == "redeal":
                    self.pipe.send_text("n")
                    await self.until(lambda: view.choice != "redeal")
                elif view.choice == "eggs":
                    self.pipe.send_text("1")
                    await self.until(lambda: view.choice != "eggs")
                elif view.my_turn:
                    index = next(i for i, c in enumerate(view.hand) if c in view.legal)
                    before = len(view.hand)
                    # walk there with the arrows half the time, else type its number
                    if before % 2 and index != view.selected:
                        step = "\x1b[C" if index > view.selected else "\x1b[D"
                        self.pipe.send_text(step * abs(index - view.selected))
                        await self.until(lambda i=index: view.selected == i)
                    else:
                        self.pipe.send_text(str(index + 1))
                    self.pipe.send_text("\r")
                    await self.until(lambda n=before: len(view.hand) < n)
                    self.cards_played += 1
            # the last trick, on demand and off again; the rules; then leave (asks first)
            for key, overlay in (("\r", None), ("l", "last"), ("l", None), ("?", "help")):
                self.pipe.send_text(key)
                await self.until(lambda o=overlay: screen.overlay == o)
                self.seen.append(str(overlay))
            await self.until(self.drawn(self.help))
            self.pipe.send_text("?q")
            await self.until(lambda: screen.overlay == "quit")
            self.pipe.send_text("y")


TEXTS = {
    "en": ("Fair deal verified", "Belka in brief"),
    "ru": ("Сдача честная: проверены", "Белка вкратце"),
}


def play(
    tmp_path: Path, seed: int, lang: str = "en", transport: str = "loopback"
) -> tuple[TableScreen, KeyRobot, str]:
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")
    config = PlayConfig(
        name="Tester",
        seed=seed,
        bot_levels=("random",) * 3,
        pace=0,
        transcript=tmp_path / "game.transcript",
        lang=lang,
        transport=transport,
    )
    with create_pipe_input() as pipe:
        robot = KeyRobot(pipe, stream, *TEXTS[lang])
        screen = play_local(config, input=pipe, output=output, extra=robot.run)
    return screen, robot, ANSI.sub("", stream.getvalue())


def test_a_whole_deal_played_by_keys(tmp_path: Path) -> None:
    screen, robot, shown = play(tmp_path, seed=11)
    assert robot.summary is not None and len(robot.summary.tricks) == 8
    assert robot.cards_played == 8
    assert robot.seen == ["None", "last", "None", "help"]
    assert screen.quit_requested
    assert "Fair deal verified" in shown
    assert "Hands as dealt" in shown and "Tester" in shown
    assert "Belka in brief" in shown
    # the transcript on disk is the game as far as it went, and it verifies
    report = verify_bytes((tmp_path / "game.transcript").read_bytes())
    assert report.error is None and report.deals and not report.faults
    assert report.names[0] == "Tester"


def test_the_screen_speaks_russian_over_memory_channels(tmp_path: Path) -> None:
    _screen, robot, shown = play(tmp_path, seed=12, lang="ru", transport="memory")
    assert robot.summary is not None
    assert "Сдача честная: проверены" in shown
    assert "Места по ходу игры" in shown
