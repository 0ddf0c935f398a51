"""A peer killed mid-game whose files then lose their tail resumes without forking.

Four processes over loopback; one is killed (SIGKILL) in the first deal, and
its game files are damaged as a crash of the machine could leave them: the
transcript loses its last record and ends in a torn one, the signed journal is
gone.  The resumed peer moves the unreadable tail aside (and says so), takes
what it lost back from the others before it signs anything, and the game
finishes: the same transcript everywhere, and it verifies.
"""

from __future__ import annotations

import os
from pathlib import Path

from p2pbelka.protocol.transcript import iter_records
from tests.lan.helpers import PeerSet, bot_args, start_table, verify, wait_for_bytes

GAME_TIMEOUT = 90.0


def _damage(game_dir: Path) -> None:
    transcript = game_dir / "transcript.p2pb"
    *_, torn, _lost = iter_records(transcript.read_bytes())
    # the last record lost, and the one before it torn in the middle of its write
    os.truncate(transcript, torn.offset + (4 + len(torn.envelope.raw)) // 2)
    (game_dir / "signed.p2pb").unlink()


def test_a_killed_peer_with_damaged_files_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        host, joiners = start_table(peers)
        everyone = [host, *joiners]
        victim = joiners[1]
        seat = victim.seat()
        wait_for_bytes(victim, 20_000, 60)
        victim.kill()
        (game_dir,) = victim.home.glob("games/*")
        _damage(game_dir)
        back = peers.spawn("resumed", "resume", "-v", *bot_args(), home=victim.home)
        everyone[2] = back
        codes = peers.wait(everyone, GAME_TIMEOUT)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        assert back.stats()["seat"] == seat
        data = {p.transcript().read_bytes() for p in everyone}
        assert len(data) == 1, "the four transcripts differ"
        assert verify(back.transcript()).startswith("OK")
        (aside,) = game_dir.glob("transcript.p2pb.damaged-*")
        assert aside.name in back.log() and "could not be read" in back.log()
        assert "every seat has answered" in back.log()
