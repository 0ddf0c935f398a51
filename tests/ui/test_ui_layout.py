"""Nothing a player needs is cut or drawn over, at 80×24 and at 120×40, in every
language: real local games (Belka for four, Belot for two and for three) are played by
keys, and each state of the screen on the way (the calls, the table, a trick taken,
the declarations, the end of a deal, the score sheet, the help, the end of the game)
is drawn at both sizes.  A line wider than its window, text drawn over a card's frame
or another word, or a player's name missing in full from the table, fails the test.
The default suite plays each game in one language (``tests/ui/matrix.py``); ``-m slow``
plays each in all three."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from prompt_toolkit.input import PipeInput, create_pipe_input

from p2pbelka.table import events as ev
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.play import PlayConfig, play_local
from tests.ui.matrix import diagonal
from tests.ui.render import Terminal, render

SIZES = ((80, 24), (120, 40))
NAMES = {
    "en": "Heuristic bot 12",
    "ru": "Александра Петровна",
    "kk": "Нұрсұлтан Әбішұлы",
}
LONG_PATH = "/home/player/.local/share/p2pbelka/games/2026-12-02-kitchen-table-0123456789ab.p2pb"


class Snapshots:
    """Draws the screen at both sizes once per state, keeping what was wrong."""

    def __init__(self, terminal: Terminal) -> None:
        self.terminal = terminal
        self.seen: set[tuple[object, ...]] = set()
        self.wrong: list[str] = []
        self.states: list[str] = []
        self.done = False

    def take(self, screen: TableScreen, what: str) -> None:
        view = screen.view
        trick = view.trick
        state = (
            what,
            screen.overlay,
            view.choice,
            trick is not None and trick.winner is not None,
            view.trump is None,
        )
        if state in self.seen:
            return
        self.seen.add(state)
        self.states.append(what or str(screen.overlay or view.choice))
        for columns, rows in SIZES:
            drawn = render(screen, self.terminal, columns, rows)
            where = f"{state} at {columns}x{rows}"
            if os.environ.get("LAYOUT_DUMP"):
                print(f"===== {where}\n{drawn.text}")
            self.wrong += [f"{where}: {fault}" for fault in drawn.faults]
            if screen.overlay is None and not view.finished and view.dealer is not None:
                for name in view.names:
                    if name not in drawn.text:
                        self.wrong.append(f"{where}: {name!r} not in full\n{drawn.text}")


async def until(condition: Callable[[], bool]) -> None:
    while not condition():
        await trio.sleep(0.005)


async def robot(screen: TableScreen, pipe: PipeInput, shots: Snapshots) -> None:
    view = screen.view
    answered = 0
    while len(view.deal_ends) < 2:
        await trio.sleep(0.005)
        shots.take(screen, "")
        if screen.overlay == "deal_end":
            pipe.send_text("s")
            await until(lambda: screen.overlay == "sheet")
            shots.take(screen, "sheet")
            pipe.send_text("\r")
            await until(lambda: screen.overlay is None)
            continue
        before = view.changes
        if getattr(view, "bidding", False) and screen.overlay is None:
            round_two = "play" not in getattr(view, "offered_calls", ())
            pipe.send_text("1" if round_two and answered % 2 else "n")  # a suit in round 2
        elif getattr(view, "may_declare", False) and screen.overlay is None:
            pipe.send_text("d")
            await until(lambda: screen.overlay == "declare")
            shots.take(screen, "declare")
            pipe.send_text("\r")
        elif view.choice == "redeal" and screen.overlay is None:
            pipe.send_text("n")
        elif view.choice == "eggs" and screen.overlay is None:
            pipe.send_text("1")
        elif view.my_turn and view.legal and screen.overlay is None:
            index = next(i for i, c in enumerate(view.hand) if c in view.legal)
            pipe.send_text(f"{index + 1}\r")
        else:
            continue
        answered += 1
        with trio.move_on_after(2):  # a key that changed nothing is pressed again
            await until(lambda b=before: view.changes != b)
    for key, overlay in (("?", "help"), ("?", None), ("l", "last"), ("l", None)):
        pipe.send_text(key)
        await until(lambda o=overlay: screen.overlay == o)
        shots.take(screen, f"after {key}")
    # the end of the game, on the view of the deals played, with a long transcript path
    view.transcript_path = LONG_PATH
    view.apply(ev.GameOver(view.me, tuple(view.score)))
    screen.refresh()
    shots.take(screen, "game over")


@pytest.mark.parametrize(
    ("game", "players", "seed", "lang"),
    diagonal([("belka", 4, 5), ("belot", 2, 3), ("belot", 3, 4)]),
)
def test_every_screen_state_fits(
    tmp_path: Path, game: str, players: int, seed: int, lang: str
) -> None:
    terminal = Terminal()
    shots = Snapshots(terminal)
    config = PlayConfig(
        name=NAMES[lang],
        seed=seed,
        bot_levels=("random",) * (players - 1),
        pace=0,
        transcript=tmp_path / "game.transcript",
        lang=lang,
        transport="memory",
        game=game,
        players=players,
    )
    with create_pipe_input() as pipe:

        async def extra(screen: TableScreen) -> None:
            with trio.move_on_after(600):  # a safety net, not a limit: a stuck robot says where
                await robot(screen, pipe, shots)
                shots.done = True
            screen.quit()

        play_local(config, input=pipe, output=terminal.output, extra=extra)
    assert shots.done, f"the robot stopped at {shots.states[-3:]}"
    assert "game over" in shots.states and "sheet" in shots.states
    assert not shots.wrong, "\n".join(shots.wrong[:20])
