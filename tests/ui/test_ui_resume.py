"""A local game left with ``q`` ``y`` and resumed: the same seats, hand and score,
played on by keys to the end (the real program: four peers over loopback TCP)."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.cards import Card
from p2pbelka.peer.local_save import LocalSave, find_resumable
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.play import PlayConfig, play_local
from p2pbelka.ui.resume import left_game, resume_local
from tests.ui.test_ui_play import ANSI


async def until(condition: Callable[[], bool], seconds: float = 60) -> None:
    with trio.fail_after(seconds):
        while not condition():
            await trio.sleep(0.01)


class Player:
    """Plays seat 0 by keys: ``cards`` cards (or to the end of the game), then leaves."""

    def __init__(self, pipe: PipeInput, cards: int | None) -> None:
        self.pipe = pipe
        self.cards = cards
        self.played = 0
        self.hand_on_return: list[Card] = []
        self.score_on_return: tuple[int, int] = (0, 0)
        self.left_with: tuple[list[Card], tuple[int, int], int] | None = None

    async def run(self, screen: TableScreen) -> None:
        view = screen.view
        # the first moment the table asks something, the screen shows the game so far
        await until(lambda: view.choice is not None or view.finished)
        self.hand_on_return, self.score_on_return = list(view.hand), view.score
        with trio.fail_after(240):
            while self.cards is None or self.played < self.cards:
                await trio.sleep(0.005)
                if view.finished:
                    break
                if screen.overlay == "deal_end":
                    self.pipe.send_text("\r")
                    await until(lambda: screen.overlay != "deal_end")
                elif view.choice == "redeal":
                    self.pipe.send_text("n")
                    await until(lambda: view.choice != "redeal")
                elif view.choice == "eggs":
                    self.pipe.send_text("1")
                    await until(lambda: view.choice != "eggs")
                elif view.my_turn and screen.overlay is None:
                    index = next(i for i, c in enumerate(view.hand) if c in view.legal)
                    before = len(view.hand)
                    self.pipe.send_text(f"{index + 1}\r")
                    await until(lambda n=before: len(view.hand) < n)
                    self.played += 1
        if view.finished:
            self.pipe.send_text("q")  # the game is over: q leaves at once
            return
        # what the player leaves: their turn, in this deal, with this hand and score
        await until(lambda: view.my_turn and screen.overlay is None)
        self.left_with = (list(view.hand), view.score, view.deal_number)
        self.pipe.send_text("q")
        await until(lambda: screen.overlay == "quit")
        self.pipe.send_text("y")


def terminal() -> tuple[io.StringIO, Vt100_Output]:
    stream = io.StringIO()
    return stream, Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")


def test_a_local_game_left_by_keys_goes_on_where_it_stopped(tmp_path: Path) -> None:
    transcript = tmp_path / "game.transcript"
    # seed 3: the game ends after 9 deals (the other seeds tried took 10 to 17)
    config = PlayConfig(
        name="Tester", seed=3, bot_levels=("random",) * 3, pace=0, transcript=transcript
    )
    _stream, output = terminal()
    with create_pipe_input() as pipe:
        first = Player(pipe, cards=3)
        play_local(config, input=pipe, output=output, extra=first.run)
    assert first.left_with is not None
    hand, score, deal = first.left_with
    note = left_game(transcript)
    save = find_resumable()
    assert isinstance(save, LocalSave)
    assert note is not None and f"p2pbelka resume {save.game_id[:12]}" in note
    assert save.directory.stat().st_mode & 0o077 == 0

    stream, output = terminal()
    with create_pipe_input() as pipe:
        again = Player(pipe, cards=2)
        screen = resume_local(save, input=pipe, output=output, extra=again.run)
    assert sorted(again.hand_on_return) == sorted(hand)
    assert again.score_on_return == score and screen.view.deal_number == deal
    assert screen.view.names[0] == "Tester" and "Tester" in ANSI.sub("", stream.getvalue())
    assert again.played == 2

    # once more, to the end of the game: the seats' files go, the transcript verifies
    with create_pipe_input() as pipe:
        last = Player(pipe, cards=None)
        screen = resume_local(save, input=pipe, output=terminal()[1], extra=last.run)
    assert screen.view.finished
    assert not save.directory.exists() and left_game(transcript) is None
    report = verify_bytes(transcript.read_bytes())
    assert report.error is None and not report.faults and report.finished
    assert len(report.deals) > deal + 1, "the game went on past the deal it was left in"
    with pytest.raises(LookupError):
        find_resumable()
