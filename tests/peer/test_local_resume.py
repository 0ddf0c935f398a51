"""A local table killed (SIGKILL) at many points and resumed each time: every seat,
the bots too, goes on from its own files without ever signing two envelopes for
one place in its chain, and the finished game verifies."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from p2pbelka.protocol.transcript import MAGIC
from tests.lan.helpers import Peer, PeerSet, verify

RUN_TIMEOUT = 120.0


def records(path: Path) -> int:
    """The whole records in the file so far, by their lengths alone: polled between
    kills, opening every envelope (a signature check each) would take the cores the
    game runs on."""
    data = path.read_bytes() if path.exists() else b""
    if not data.startswith(MAGIC):
        return 0
    count, offset = 0, len(MAGIC)
    while offset + 4 <= len(data):
        offset += 4 + int.from_bytes(data[offset : offset + 4], "big")
        if offset > len(data):
            break
        count += 1
    return count


def ended(peer: Peer) -> bool:
    """The run saw the end, or found the game over: the run before was killed as the
    game ended (its transcript was then completed from seat 0's files)."""
    return "finished" in peer.text() or "game over" in peer.text()


def kill_and_resume(tmp_path: Path, seed: int, kills: int) -> tuple[int, str]:
    """Start a bots' local game, kill it ``kills`` times after a random number of new
    envelopes, resume it each time, let the last run finish; the verdict of the player's
    transcript and how many runs it took."""
    rng = random.Random(seed)
    home, transcript = tmp_path / "home", tmp_path / "player.transcript"
    module = "tests.peer.local_game"
    args = [str(home), str(transcript), str(seed)]
    runs = 0
    with PeerSet(tmp_path) as peers:
        for n in range(kills + 1):
            mode = "start" if n == 0 else "resume"
            peer = peers.spawn(f"run{n}", mode, *args, home=home, module=module)
            runs += 1
            if n == kills:
                peers.wait([peer], RUN_TIMEOUT)
                assert ended(peer), peer.dump()
                break
            # a kill anywhere: during the replay, the catch-up or the play
            target = records(transcript) + rng.randrange(0, 40)
            deadline = time.monotonic() + RUN_TIMEOUT
            while records(transcript) < target and peer.proc.poll() is None:
                assert time.monotonic() < deadline, peer.dump()
                time.sleep(rng.choice((0.001, 0.01, 0.05)))
            if peer.proc.poll() is not None:  # the game ended before the kill
                assert ended(peer), peer.dump()
                break
            peer.kill()
            assert "Traceback" not in peer.log(), peer.dump()
        errors = "".join(p.log() for p in peers.peers)
    assert "quivocat" not in errors and "Traceback" not in errors, errors[-3000:]
    assert not list(home.glob("games/local-*")), "the seats' files outlived the game"
    return runs, verify(transcript)


def test_a_local_game_killed_again_and_again_finishes_and_verifies(tmp_path: Path) -> None:
    """Three kills in the default suite; the soak (six, and twenty for three more
    seeds) is in the slow run."""
    runs, verdict = kill_and_resume(tmp_path, seed=41, kills=3)
    assert verdict.startswith("OK"), verdict
    assert runs >= 3


@pytest.mark.slow
def test_a_local_game_killed_six_times_finishes_and_verifies(tmp_path: Path) -> None:
    runs, verdict = kill_and_resume(tmp_path, seed=41, kills=6)
    assert verdict.startswith("OK"), verdict
    assert runs >= 3


@pytest.mark.slow
@pytest.mark.parametrize("seed", [42, 43, 44])
def test_many_kills_at_random_points(tmp_path: Path, seed: int) -> None:
    _runs, verdict = kill_and_resume(tmp_path, seed=seed, kills=20)
    assert verdict.startswith("OK"), verdict
