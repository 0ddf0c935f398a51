"""Four peers as four OS processes over loopback: a whole game with a peer killed and
resumed (its files damaged as a crash of the machine could leave them), a peer killed
for good.  Bots play; every process has a deadline."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2pbelka.protocol.transcript import iter_records
from tests.lan.helpers import PeerSet, bot_args, start_table, verify, wait_for_bytes

GAME_TIMEOUT = 90.0


def _damage(game_dir: Path) -> None:
    transcript = game_dir / "transcript.p2pb"
    *_, torn, _lost = iter_records(transcript.read_bytes())
    # the last record lost, and the one before it torn in the middle of its write
    os.truncate(transcript, torn.offset + (4 + len(torn.envelope.raw)) // 2)
    (game_dir / "signed.p2pb").unlink()


@pytest.mark.real_disk  # a whole LAN game whose seats wait for the disk, one of them resumed
@pytest.mark.parametrize(
    ("victim_index", "damaged"),
    [pytest.param(2, True, id="2"), pytest.param(0, False, marks=pytest.mark.slow, id="the-host")],
)
def test_a_killed_peer_resumes_and_the_game_finishes(
    tmp_path: Path, victim_index: int, damaged: bool
) -> None:
    """Four processes play a whole game, one of them killed in the first deal and resumed:
    every seat finishes, and the four transcripts are one that verifies.  Every check of
    a whole game of four processes is made here, so no game nobody kills is played too.

    ``damaged``: the killed peer's files are damaged before it resumes, as a crash of the
    machine could leave them: the transcript loses its last record and ends in a torn
    one, the signed journal is gone.  The resumed peer moves the unreadable tail aside
    (and says so) and takes what it lost back from the others before it signs anything.
    (A seat resumed from intact files: the Belot processes' test, the watched host's.)"""
    with PeerSet(tmp_path) as peers:
        host, joiners = start_table(peers)
        everyone = [host, *joiners]
        victim = everyone[victim_index]
        seat = victim.seat()
        wait_for_bytes(victim, 20_000, 60)  # in the first deal: a game can end after one
        victim.kill()
        (game_dir,) = victim.home.glob("games/*")
        if damaged:
            _damage(game_dir)
        back = peers.spawn("resumed", "resume", "-v", *bot_args(), home=victim.home)
        everyone[victim_index] = back
        codes = peers.wait(everyone, GAME_TIMEOUT)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        assert "resuming game" in back.text() and back.stats()["seat"] == seat
        stats = [p.stats() for p in everyone]
        assert sorted(s["seat"] for s in stats) == [0, 1, 2, 3]
        assert all(s["finished"] and s["deals"] > 0 for s in stats)
        data = {Path(s["transcript"]).read_bytes() for s in stats}
        assert len(data) == 1, "the four transcripts differ"
        # the same bytes: one audit speaks for all four
        assert verify(back.transcript()).startswith("OK")
        assert "game over" in everyone[0].text()
        assert "Traceback" not in "".join(p.log() for p in everyone)
        if damaged:
            (aside,) = game_dir.glob("transcript.p2pb.damaged-*")
            assert aside.name in back.log() and "could not be read" in back.log()
            assert "every seat has answered" in back.log()


def test_a_peer_that_never_returns_ends_the_game_cleanly(tmp_path: Path) -> None:
    # With no bot offered for the lost seat (test_lan_seat_bot.py has the bot).
    timing = ("--pause-after", "1", "--give-up-after", "3", "--linger", "1", "--no-seat-bot")
    with PeerSet(tmp_path) as peers:
        host, joiners = start_table(peers, *timing)
        victim = joiners[0]
        seat = victim.seat()
        wait_for_bytes(victim, 20_000, 60)
        victim.kill()
        rest = [host, joiners[1], joiners[2]]
        codes = peers.wait(rest, 30)
        assert codes == [1, 1, 1], "\n".join(p.dump() for p in rest)
        for peer in rest:
            text = peer.text()
            assert f"waiting for seat {seat}" in text
            assert "GAME ABORTED: " in text and "went silent" in text and f"seat {seat}:" in text
            # the transcript holds the accusation, signed, but nothing that proves it
            verdict = verify(peer.transcript())
            assert verdict.startswith("DISPUTED") and f"seat {seat}:" in verdict, verdict
