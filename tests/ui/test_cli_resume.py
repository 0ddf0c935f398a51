"""``p2pbelka games`` and ``p2pbelka resume`` for a local game left before its end."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from p2pbelka.peer import storelock
from p2pbelka.peer.local_save import LocalSave, new_plan, play_saved_table
from p2pbelka.protocol.transcript import TranscriptWriter
from tests.peer.holder import holding
from tests.peer.test_local_save import NET, StopAfter
from tests.ui.cli import run_main


def left_game(home: Path) -> tuple[LocalSave, Path]:
    """A local game of bots, left after some play, in ``home``'s data directory."""
    games = home / "data" / "p2pbelka" / "games"
    transcript = games / "belka-20261201-201400.transcript"
    plan = new_plan("Tester", ["random"] * 3, transcript=transcript, seed=23)
    save = LocalSave.create(plan, games.parent)
    front = StopAfter(80)

    async def play() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(lambda: play_saved_table(save, front, net=NET))
            await front.enough.wait()
            nursery.cancel_scope.cancel()

    with TranscriptWriter(transcript) as writer:
        front.transcript = writer
        trio.run(play)
    return save, transcript


@pytest.fixture(scope="session")
def left(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LocalSave, Path]:
    """One home with a local game left in it, for the tests that only read it (each
    checks that nothing of it was touched where it tries to open it); for the session,
    as the long tests run first, apart from their module's others."""
    home = tmp_path_factory.mktemp("left")
    return (home, *left_game(home))


def test_games_lists_a_local_game_left_with_its_resume_command(
    left: tuple[Path, LocalSave, Path],
) -> None:
    tmp_path, save, transcript = left
    out = run_main(tmp_path, "games", check=True).stdout
    entry = next(part for part in out.split("\n\n") if str(transcript) in part)
    assert "2026-12-01 20:14  Tester & Saule" in entry and "not finished" in entry
    assert f"resume: p2pbelka resume {save.game_id[:12]}" in entry
    assert f"verify: p2pbelka verify {transcript}" in entry


def test_resume_of_a_local_game_needs_the_terminal(left: tuple[Path, LocalSave, Path]) -> None:
    tmp_path, save, _transcript = left
    done = run_main(tmp_path, "resume")
    assert done.returncode == 2 and "needs a terminal" in done.stderr
    done = run_main(tmp_path, "resume", save.game_id[:8], "--bot")
    assert done.returncode == 2 and "local table" in done.stderr
    assert "Traceback" not in done.stderr
    assert save.resumable(), "nothing was touched"


def test_a_local_game_open_in_another_program_is_not_opened_twice(
    left: tuple[Path, LocalSave, Path],
) -> None:
    tmp_path, save, transcript = left
    storelock.release_all()  # the program that played it ended; another has it now
    before = transcript.read_bytes()
    with holding("local", save.directory) as other:
        for argv in (["resume"], ["play", "--resume"], ["resume", save.game_id[:8], "--bot"]):
            done = run_main(tmp_path, *argv)
            assert done.returncode == 3, (argv, done.stderr)
            assert done.stderr.count("\n") == 1, done.stderr
            said = f"game {save.game_id[:12]} is open in another p2pbelka (pid {other.pid}, `"
            assert said in done.stderr, done.stderr
            assert done.stderr.rstrip().endswith("): continue it there"), done.stderr
    assert transcript.read_bytes() == before and save.resumable(), "nothing was touched"


def test_nothing_to_resume_is_said_in_one_line(tmp_path: Path) -> None:
    for argv in (["resume"], ["play", "--resume"], ["--resume"], ["resume", "ffff"]):
        done = run_main(tmp_path, *argv)
        assert done.returncode == 2, argv
        assert done.stderr.count("\n") == 1 and "no game to resume" in done.stderr, done.stderr
