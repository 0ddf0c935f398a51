"""Faults inside the namespaced LAN: a cable pulled out and plugged back in, beside a
slow link (tbf), in one game.  Four peer processes in four namespaces on one bridge
play a whole game with bots; it must finish, the same for everyone, and verify.  Needs
root and iproute2 (skipped with the reason otherwise).

A pulled cable leaves every connection of that peer hanging, as on a real LAN:
TCP would wait minutes before it gave up.  The peers close a link that stays
silent while a resend request on it is unanswered, redial, and merge their
requests, so the outage costs little traffic (``scripts/outage.py`` measures
a 60 s cut).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import HANG, Peer, PeerSet, namespaced_table, verify
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

SILENCE = "4"  # how long a link may stay silent while asked (--link-silence): a short cut kills it
DEAD = "the link is dead"
"""What a peer logs as it closes a link silent past ``SILENCE`` while asked: the cable
stays out until both ends of the cut said it (about 6 s), not for a fixed time."""
VICTIM = 2
SLOW = 3


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.9") as built:
        yield built


def _table(lan: Lan, peers: PeerSet, *extra: str) -> list[Peer]:
    common = ["--bot", "random", "--quiet", "--stats", "--give-up-after", "120",
              "--link-silence", SILENCE, *extra]  # fmt: skip
    return namespaced_table(lan, peers, ["--auto-approve", *common], lambda _k: common)


def _wait_for_transcript(peer: Peer, size: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        files = list(peer.home.glob("games/*/transcript.p2pb"))
        if files and files[0].stat().st_size >= size:
            return
        assert peer.proc.poll() is None, peer.dump()
        time.sleep(0.05)
    raise AssertionError(f"{peer.name}'s game did not start:\n{peer.dump()}")


def _dead_on_both_ends(everyone: list[Peer]) -> None:
    """Until the peer cut off and one of the others have closed a link as dead."""
    deadline = time.monotonic() + HANG
    victim, others = everyone[VICTIM], [p for n, p in enumerate(everyone) if n != VICTIM]
    while DEAD not in victim.log() or not any(DEAD in p.log() for p in others):
        assert time.monotonic() < deadline, "\n".join(p.dump() for p in everyone)
        time.sleep(0.05)


def _finished_alike(peers: PeerSet, everyone: list[Peer], timeout: float) -> None:
    codes = peers.wait(everyone, timeout)
    assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
    data = {p.transcript().read_bytes() for p in everyone}
    assert len(data) == 1, "the four transcripts differ"
    assert verify(everyone[0].transcript()).startswith("OK")


def test_a_cable_pulled_out_for_a_while_costs_little(lan: Lan, tmp_path: Path) -> None:
    """Peer 2's cable out mid-game till its links die, and all game long peer 3's link
    slowed to 400 kbit/s: a slow link is slow and nothing else (the slow link's own test
    below, at 100 kbit/s, is a long one); the game finishes the same for everyone."""
    lan.limit(SLOW, "400kbit")
    with PeerSet(tmp_path) as peers:
        everyone = _table(lan, peers)
        _wait_for_transcript(everyone[VICTIM], 8_000, 60)
        lan.link(VICTIM, up=False)
        _dead_on_both_ends(everyone)
        lan.link(VICTIM, up=True)
        _finished_alike(peers, everyone, 900)
        stats = [p.stats() for p in everyone]
        others = statistics.median(s["bytes_sent"] for n, s in enumerate(stats) if n != VICTIM)
        # Requests merged while unanswered: the peer cut off sends about what the others do.
        assert stats[VICTIM]["bytes_sent"] <= 2 * others, [s["bytes_sent"] for s in stats]
        logs = "".join(p.log() for p in everyone)
        assert DEAD in logs


@pytest.mark.slow
def test_a_slow_link_is_slow_and_nothing_else(lan: Lan, tmp_path: Path) -> None:
    lan.limit(VICTIM, "100kbit")
    with PeerSet(tmp_path) as peers:
        everyone = _table(lan, peers)
        _finished_alike(peers, everyone, 900)
