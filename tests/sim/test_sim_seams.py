"""The simulator's disk and wall clock reach every write a seat's program makes: what a
power cut keeps is what was synced through the disk seam (the continuations a seat
agreed to and the machine's list of game ids too), and a run's result certificates
follow from its seed (the wall clock seam)."""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

from p2pbelka.ladder.certificate import read
from p2pbelka.ladder.files import certificate_path
from p2pbelka.peer import disk, wallclock
from p2pbelka.peer.seatchange.effects import Agreed
from p2pbelka.peer.store import GameStore, known_game
from p2pbelka.sim.disk import SimDisk
from p2pbelka.sim.world import EPOCH, simulate
from tests.sim.replay import assert_same_run

TRANSCRIPT = Path("transcript.p2pb")
GAME, SEGMENT, LATER = b"\x01" * 16, b"\x02" * 16, b"\x03" * 16
FIRST = Agreed(b"\x04" * 16, b"\x05" * 32, SEGMENT, 2, b"\x06" * 64)
SECOND = Agreed(b"\x07" * 16, b"\x08" * 32, LATER, 1, b"\x09" * 64, proposed=True)


def test_a_power_cut_keeps_the_agreements_and_ids_synced_and_loses_the_rest(
    tmp_path: Path,
) -> None:
    """``GameStore.keep_agreement`` and the list of ids synced outside the disk seam: a
    simulated power cut did not know they were on the disk, and emptied the files."""
    for n in range(10):
        home = tmp_path / str(n)
        sim = SimDisk(random.Random(n), Counter())
        with disk.use(sim):
            store = GameStore.create(GAME, home)
            store.remember(SEGMENT)
            store.keep_agreement(FIRST)
            unsynced = GameStore(store.directory, sync=False)
            unsynced.remember(LATER)
            unsynced.keep_agreement(SECOND)
        sim.power_cut(home)
        assert known_game(GAME, home) and store.knows(SEGMENT)
        assert not store.knows(LATER), "never synced: lost with the power"
        assert store.saved_agreements() == [FIRST]


def test_the_real_disk_syncs_them_too(tmp_path: Path) -> None:
    synced: list[int] = []

    class Counting(disk.RealDisk):
        def datasync(self, fd: int) -> None:
            synced.append(fd)
            super().datasync(fd)

    with disk.use(Counting()):
        store = GameStore.create(GAME, tmp_path)
        store.remember(SEGMENT)
        store.keep_agreement(FIRST)
    assert len(synced) == 3
    assert GameStore(store.directory).saved_agreements() == [FIRST]


def test_a_run_s_certificates_follow_from_its_seed(tmp_path: Path) -> None:
    """Certificates were made at the real clock's time: a run's files differed from one
    run to the next.  A run's wall clock is its simulated one now, from ``EPOCH``.  (The
    suite's replay of a whole game, its faults drawn from the seed: two kills, a power
    cut and cuts, then the end and the results' exchange, every byte the same.)"""
    made, runs = [], []
    for name in ("first", "again"):
        outcome = simulate(8, "belot", 2, keep=tmp_path / name)
        certificates = sorted((tmp_path / name).rglob(certificate_path(TRANSCRIPT).name))
        assert len(certificates) >= 2, "both seats (and any watcher) certified the game"
        made.append([c.read_bytes() for c in certificates])
        for raw in made[-1]:
            assert EPOCH < read(raw).at <= EPOCH + outcome.ended_at
        runs.append(outcome)
    assert made[0] == made[1]
    assert "finished" in {e.what for e in runs[0].exits}
    assert_same_run(*runs)
    assert abs(wallclock.now() - time.time()) < 60  # the real clock again after the run
