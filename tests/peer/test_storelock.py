"""One program per game's folder: a second program is refused before it reads or writes
and told which program has the game; a crash (``kill -9``) lets go at once; a lock
file a dead program left blocks nothing.  Every "other program" here is a real
process (``holder.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from p2pbelka.peer import storelock
from p2pbelka.peer.store import GameStore, games_dir
from p2pbelka.peer.storelock import LOCK_FILE, StoreBusy
from p2pbelka.peer.watchsave import WatchSave, new_meta
from p2pbelka.ui.words.i18n import set_language
from p2pbelka.ui.words.setuperrors import busy_words, error_words
from tests.peer import holder
from tests.peer.holder import holding

GAME = bytes(range(32))


def test_a_second_program_is_refused_and_told_which_program_has_the_game(
    tmp_path: Path,
) -> None:
    store = GameStore.create(GAME, tmp_path, sync=False)
    storelock.release(store.directory)  # as if created by the other program
    with holding("store", store.directory) as other:
        with pytest.raises(StoreBusy) as refused:
            GameStore(store.directory).hold()
        busy = refused.value
        assert busy.holder is not None and busy.holder.pid == other.pid
        assert busy.holder.command.startswith("p2pbelka ")
        assert abs(busy.holder.since - time.time()) < 3600
        assert busy.game == GAME.hex()
        set_language("en")
        line = error_words(busy)
        assert "\n" not in line
        assert line.startswith(f"game {GAME.hex()[:12]} is open in another p2pbelka (pid ")
        assert f"pid {other.pid}, `p2pbelka " in line and line.endswith(": continue it there")
        assert not storelock.held(store.directory)
    GameStore(store.directory).hold()  # the other program ended: ours now
    assert storelock.held(store.directory)


def test_a_crash_lets_go_and_the_file_it_left_blocks_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "game"
    directory.mkdir()
    crashed = holder.start("store", directory)
    holder.kill(crashed)  # kill -9: no code of it ran after
    left = json.loads((directory / LOCK_FILE).read_text())
    assert left["pid"] == crashed.pid, "the dead program's lock file is still there"
    GameStore(directory).hold()  # never cleared by hand
    assert json.loads((directory / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_holding_again_in_the_same_program_is_nothing(tmp_path: Path) -> None:
    store = GameStore.create(GAME, tmp_path, sync=False)  # held from its making
    assert storelock.held(store.directory)
    store.hold()
    GameStore(store.directory).hold()
    storelock.release(store.directory)
    assert not storelock.held(store.directory)
    with holding("store", store.directory), pytest.raises(StoreBusy):
        store.hold()


RACER = """
import sys, time
from pathlib import Path
from p2pbelka.peer.store import GameStore
from p2pbelka.peer.storelock import StoreBusy
directory, go = Path(sys.argv[1]), Path(sys.argv[2])
print("ready", flush=True)
while not go.exists():
    time.sleep(0.001)
try:
    GameStore(directory).hold()
    print("won", flush=True)
except StoreBusy as exc:
    print("busy", exc.holder.pid if exc.holder else "?", flush=True)
sys.stdin.read()
"""


def test_of_programs_racing_to_open_a_game_exactly_one_gets_it(tmp_path: Path) -> None:
    directory = tmp_path / "game"
    directory.mkdir()
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(holder.REPO))
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(directory), str(go)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
        )
        for _ in range(4)
    ]
    try:
        for racer in racers:
            assert racer.stdout is not None and racer.stdout.readline() == "ready\n"
        go.touch()
        said = []
        for racer in racers:
            assert racer.stdout is not None
            said.append(racer.stdout.readline().split())
        winners = [racer.pid for racer, words in zip(racers, said, strict=True) if words == ["won"]]
        assert len(winners) == 1, said
        # every loser names the winner (it wrote who it is just after it took the lock)
        assert sorted(words[1] for words in said if words[0] == "busy") == [str(winners[0])] * 3
    finally:
        for racer in racers:
            holder.kill(racer)  # type: ignore[arg-type]


def test_a_folder_renamed_away_while_waiting_is_not_taken_for_the_name(tmp_path: Path) -> None:
    directory = tmp_path / "local-abc"
    directory.mkdir()
    storelock.hold(directory)
    os.replace(directory, tmp_path / "gone")  # removed by its holder
    storelock.release(directory)
    directory.mkdir()  # a new game under the name
    storelock.hold(directory)  # the new folder's lock, not the old one's
    assert (directory / LOCK_FILE).is_file()
    with holding("dir", tmp_path / "gone"):  # the old inode is free for anyone
        pass


def test_a_watchers_folder_is_its_own_and_a_second_watch_gets_another(tmp_path: Path) -> None:
    root = games_dir(tmp_path)
    meta = new_meta(GAME, "127.0.0.1:1", bytes(32), "t")
    first = WatchSave.create(root, GAME, meta, sync=False)
    assert storelock.held(first.directory)
    second = WatchSave.create(root, GAME, new_meta(GAME, "127.0.0.1:1", bytes(32), "t"))
    assert second.directory != first.directory and storelock.held(second.directory)
    storelock.release(first.directory)
    with holding("dir", first.directory), pytest.raises(StoreBusy):
        storelock.hold(first.directory)


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_the_refusal_is_in_the_players_language(tmp_path: Path, lang: str) -> None:
    holder_ = storelock.Holder(1234, "p2pbelka resume --text", time.time())
    set_language(lang)
    try:
        line = busy_words(StoreBusy(tmp_path, GAME.hex(), holder_))
        nobody = busy_words(StoreBusy(tmp_path, GAME.hex(), None))
    finally:
        set_language("en")
    assert "1234" in line and "`p2pbelka resume --text`" in line
    assert "p2pbelka" in nobody and GAME.hex()[:12] in nobody
    assert "open in another" not in line + nobody


def test_a_record_left_by_a_program_that_ended_names_nobody(tmp_path: Path) -> None:
    # what a refused program reads in the instant between the new holder's lock and
    # its record: the last holder's, a program that is gone
    directory = tmp_path / "game"
    directory.mkdir()
    gone = holder.start("dir", directory)
    holder.kill(gone)
    assert storelock.holder(directory / LOCK_FILE, tries=3) is None
    with holding("dir", directory) as alive:
        found = storelock.holder(directory / LOCK_FILE)
        assert found is not None and found.pid == alive.pid


def test_programs_of_one_process_hold_their_own_and_let_go_when_they_end(
    tmp_path: Path,
) -> None:
    """A simulation runs several programs in one process: each holds its own games, a
    game another holds is refused as across processes, and a program's end lets go of
    its locks as a crash's does."""
    with storelock.program():
        storelock.hold(tmp_path, "g")
        storelock.hold(tmp_path, "g")  # again in the same program: nothing
        with storelock.program():
            with pytest.raises(StoreBusy):
                storelock.hold(tmp_path, "g")
        assert storelock.held(tmp_path)
    assert not storelock.held(tmp_path)
    with storelock.program():
        storelock.hold(tmp_path, "g")  # the first program ended: free again
