"""A local Belot game left with ``q`` ``y`` in the middle of a deal, listed by ``p2pbelka
games`` with its resume command, and resumed on Belot's screen: the same seats, hand,
score and deal, played on by keys to the deal's verdict (three peers over loopback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.cli.games_cmd import saved_games
from p2pbelka.peer.local_save import LocalSave, find_resumable
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.play import PlayConfig, data_dir, play_local
from p2pbelka.ui.resume import left_game, resume_command, resume_local
from tests.ui.belot_robot import BelotRobot, Terminal


def terminal() -> tuple[Terminal, Vt100_Output]:
    stream = Terminal()
    return stream, Vt100_Output(stream, lambda: Size(rows=30, columns=100), term="xterm")


@pytest.mark.parametrize("players", [2, 3])
def test_a_local_belot_game_left_mid_deal_goes_on_where_it_stopped(
    tmp_path: Path, players: int
) -> None:
    transcript = tmp_path / "game.transcript"
    config = PlayConfig(
        name="Tester",
        seed=3,
        bot_levels=("random",) * (players - 1),
        pace=0,
        transcript=transcript,
        game="belot",
        players=players,
    )
    stream, output = terminal()
    with create_pipe_input() as pipe:
        first = BelotRobot(pipe, stream, cards=4)
        screen = play_local(config, input=pipe, output=output, extra=first.run)  # type: ignore[arg-type]
    assert screen.game is BELOT and screen.quit_requested
    assert first.left_with is not None
    hand, score, deal = first.left_with
    assert len(hand) == 9 - 4

    save = find_resumable()
    assert isinstance(save, LocalSave)
    plan = save.load_plan()
    assert plan.game == "belot" and len(plan.keys) == players
    note = left_game(transcript)
    assert note is not None and resume_command(plan.game_id) in note
    listed = {game.path: game for game in saved_games([data_dir()])}
    game = listed[str(transcript.resolve())]
    assert ("resume", resume_command(plan.game_id)) in game.commands()
    assert not game.finished and game.names[0] == "Tester" and len(game.names) == players

    stream, output = terminal()
    with create_pipe_input() as pipe:
        again = BelotRobot(pipe, stream, deals=1)
        screen = resume_local(save, input=pipe, output=output, extra=again.run)  # type: ignore[arg-type]
    assert screen.game is BELOT and screen.view.players == players
    assert again.on_return is not None
    back_hand, back_score, back_deal = again.on_return
    assert sorted(back_hand) == sorted(hand) and back_score == score and back_deal == deal
    assert again.cards_played == len(hand)  # the rest of the deal, by keys
    assert again.pages and "Tester" in stream.text()
    report = verify_bytes(transcript.read_bytes())
    assert report.error is None and not report.faults and report.deals
    assert report.names[0] == "Tester" and len(report.names) == players
