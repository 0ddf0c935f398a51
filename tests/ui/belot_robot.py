"""A robot that plays its seat of the Belot screen by pressing keys, as a person would.

It reads only what the screen's view shows (whose turn, the calls offered, the
combinations offered at its lead) and answers through the pipe input: ``y``
(play the turned suit) or ``n`` (pass) in round 1, ``1`` (the first other suit)
in round 2, ``d`` then Enter to declare the best combination, ``w`` to claim
1001, a card's number (or the arrows) and Enter to play it.
"""

from __future__ import annotations

import io
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.play import PlayConfig, play_local
from p2pbelka.ui.view import DealEnd

ANSI = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z]")


class Terminal(io.StringIO):
    """What the screen wrote, and its last writes apart: the robot looks for a text
    just drawn without stripping a whole game's output every few milliseconds."""

    def __init__(self) -> None:
        super().__init__()
        self.recent: deque[str] = deque(maxlen=100)

    def write(self, text: str) -> int:
        self.recent.append(text)
        return super().write(text)

    def tail(self) -> str:
        return ANSI.sub("", "".join(self.recent))

    def text(self) -> str:
        return ANSI.sub("", self.getvalue())


TEXTS = {
    # the verdict on a deal's page, the declare dialog, the end of the game, the sheet, help
    "en": (
        "Fair deal verified", "Enter declares", "Transcript saved to", "Score sheet",
        "Belot in brief",
    ),
    "ru": (
        "Сдача честная", "Enter — объявить", "Запись партии сохранена", "Запись счёта",
        "Белот вкратце",
    ),
    "kk": (
        "Кон адал", "Enter — таңдалғанды", "Ойын жазбасы сақталды", "Есеп парағы",
        "Белот қысқаша",
    ),
}  # fmt: skip


@dataclass
class BelotRobot:
    pipe: PipeInput
    stream: Terminal
    lang: str = "en"
    deals: int = 1
    """Deal-end pages to read before stopping (0: play the whole game)."""
    take: bool = True
    """Call ``play`` in round 1 (else pass, and name a suit in round 2)."""
    calls: list[str] = field(default_factory=list)
    declared: list[str] = field(default_factory=list)
    claimed: bool = False
    cards_played: int = 0
    pages: list[DealEnd] = field(default_factory=list)
    screens: list[str] = field(default_factory=list)
    """The terminal as drawn at moments worth a look (a prompt, a page)."""
    look_around: bool = False
    """Before leaving, open and close the last trick, the score sheet and the rules."""
    seen: list[str] = field(default_factory=list)
    cards: int | None = None
    """Leave after this many cards, at our next turn to play (None: at a deal's page)."""
    on_return: tuple[list[Any], tuple[int, ...], int] | None = None
    """The hand, score and deal the screen shows when the table first asks something."""
    left_with: tuple[list[Any], tuple[int, ...], int] | None = None
    """The hand, score and deal at the turn the robot left at (with ``cards``)."""

    def shown(self) -> str:
        """The last few frames drawn (prompt_toolkit writes only what changed)."""
        return self.stream.tail()

    def drawn(self, text: str) -> Callable[[], bool]:
        return lambda: text in self.shown()

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            await trio.sleep(0.005)

    async def run(self, screen: TableScreen) -> None:
        view = screen.view
        with trio.fail_after(600):  # a hang, not a speed limit: a whole game takes a while
            # the first moment the table asks something, the screen shows the game so far
            await self.until(lambda: view.choice is not None or view.finished)
            self.on_return = (list(view.hand), tuple(view.score), view.deal_number)
            while True:
                await trio.sleep(0.005)
                mine = view.my_turn and not view.bidding and screen.overlay is None
                if self.cards is not None and self.cards_played >= self.cards and mine:
                    self.left_with = (list(view.hand), tuple(view.score), view.deal_number)
                    return await self.leave(screen)
                if view.finished and screen.overlay is None:
                    await self.until(self.drawn(TEXTS[self.lang][2]))
                    self.screens.append(self.shown())
                    break
                if screen.overlay == "deal_end":
                    self.pages.append(view.deal_ends[-1])
                    await self.until(self.drawn(TEXTS[self.lang][0]))
                    self.screens.append(self.shown())
                    if self.deals and len(self.pages) >= self.deals:
                        return await self.leave(screen)
                    self.pipe.send_text("\r")
                    await self.until(lambda: screen.overlay != "deal_end")
                elif view.bidding:
                    await self.bid(view)
                elif view.may_declare:
                    before = len(view.declared)
                    self.pipe.send_text("d")
                    await self.until(lambda: screen.overlay == "declare")
                    await self.until(self.drawn(TEXTS[self.lang][1]))
                    self.screens.append(self.shown())
                    self.declared.append(str(view.offered[0]))
                    self.pipe.send_text("\r")
                    await self.until(lambda n=before: len(view.declared) > n)
                elif view.my_turn and view.claim_offered:
                    self.pipe.send_text("w")
                    self.claimed = True
                    await self.until(lambda: not view.claim_offered)
                elif view.my_turn:
                    await self.play(view)
        await self.leave(screen)

    async def bid(self, view: Any) -> None:
        offered = list(view.offered_calls)
        if "play" in offered:
            key, call = ("y", "play") if self.take else ("n", "pass")
        elif not self.take and len(offered) > 1:
            key, call = "1", offered[0]
        else:
            key, call = "n", "pass"
        before = len(view.calls)
        self.pipe.send_text(key)
        self.calls.append(call)
        # our own call shown (the next question may come at once: not bidding won't do)
        await self.until(lambda: (view.me, call) in view.calls[before:])

    async def play(self, view: Any) -> None:
        index = next(i for i, c in enumerate(view.hand) if c in view.legal)
        before = len(view.hand)
        # walk there with the arrows half the time, else type its number
        if before % 2 and index != view.selected:
            step = "\x1b[C" if index > view.selected else "\x1b[D"
            self.pipe.send_text(step * abs(index - view.selected))
            await self.until(lambda: view.selected == index)
        else:
            self.pipe.send_text(str(index + 1))
        self.pipe.send_text("\r")
        await self.until(lambda: len(view.hand) < before or view.finished)
        self.cards_played += 1

    async def leave(self, screen: TableScreen) -> None:
        if self.look_around:
            steps = [("\r", None), ("l", "last"), ("l", None), ("s", "sheet")]
            steps += [("s", None), ("?", "help"), ("?", None)]
            for key, overlay in steps:
                self.pipe.send_text(key)
                await self.until(lambda o=overlay: screen.overlay == o)
                self.seen.append(str(overlay))
                if overlay in ("sheet", "help"):
                    text = TEXTS[self.lang][3 if overlay == "sheet" else 4]
                    await self.until(self.drawn(text))
                    self.screens.append(self.shown())
        self.pipe.send_text("q")
        if not screen.view.finished:
            await self.until(lambda: screen.overlay == "quit")
            self.pipe.send_text("y")


def play_belot(
    tmp_path: Path,
    seed: int,
    players: int,
    *,
    deals: int = 1,
    take: bool = True,
    look_around: bool = False,
    lang: str = "en",
    transport: str = "loopback",
    rows: int = 30,
    columns: int = 100,
) -> tuple[TableScreen, BelotRobot]:
    """Play ``deals`` deals (0: the whole game) of Belot against random bots by keys."""
    stream = Terminal()
    output = Vt100_Output(stream, lambda: Size(rows=rows, columns=columns), term="xterm")
    config = PlayConfig(
        name="Tester",
        seed=seed,
        bot_levels=("random",) * (players - 1),
        pace=0,
        transcript=tmp_path / "game.transcript",
        lang=lang,
        transport=transport,
        game="belot",
        players=players,
    )
    with create_pipe_input() as pipe:
        robot = BelotRobot(pipe, stream, lang, deals=deals, take=take, look_around=look_around)
        screen = play_local(config, input=pipe, output=output, extra=robot.run)  # type: ignore[arg-type]
    assert screen.game is BELOT
    return screen, robot
