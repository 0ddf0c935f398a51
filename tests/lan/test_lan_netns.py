"""A LAN of four machines: four network namespaces on one bridge, a peer in each.

The host announces its table by multicast; the three joiners find it by its
name in the beacons (no address given), sit, and the four play a whole game
over the mesh.  Needs root and iproute2, skipped with the reason otherwise;
names are unique per run, addresses are inside the 10.78.0.0/24 network the
test creates, and everything is removed even when the test fails.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.ladder.ledger import Ledger
from tests.lan.helpers import PeerSet, verify
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

N = 4


@pytest.fixture
def lan() -> Iterator[Lan]:
    """Four namespaces, each with a veth on one bridge and the multicast route."""
    with namespace_lan(N, "10.78.0") as built:
        yield built


def _at(addr: str) -> list[str]:
    return ["--listen", addr, "--interface", addr]


def _held(home: Path) -> list[tuple[bytes, bytes]]:
    with Ledger(home / "ladder.sqlite") as ledger:
        return ledger.certificates()


def test_joiners_find_the_table_by_multicast_and_play(lan: Lan, tmp_path: Path) -> None:
    beacon = str(40000 + secrets.randbelow(20000))  # each namespace has its own ports
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    (ns0, *others), (addr0, *addrs) = lan.namespaces, lan.addresses
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host",
            "host",
            "--auto-approve",
            "--name",
            "Kitchen table",
            *bots,
            *_at(addr0),
            netns=ns0,
        )
        host.wait_for(r"lobby port (\d+)", 20)
        joiners = [
            peers.spawn(
                f"joiner{n}",
                "join",
                "--table",
                "Kitchen table",
                "--wait",
                "15",
                *bots,
                *_at(addr),
                netns=ns,
            )
            for n, (ns, addr) in enumerate(zip(others, addrs, strict=True), 1)
        ]
        everyone = [host, *joiners]
        codes = peers.wait(everyone, 120)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        for joiner in joiners:
            assert f"joining Kitchen table at {addr0}:" in joiner.text()
            assert "host key" in joiner.text()
        data = {p.transcript().read_bytes() for p in everyone}
        assert len(data) == 1, "the four transcripts differ"
        assert verify(host.transcript()).startswith("OK")
        # at the end each took the other three's certificates of the game (results.md
        # 6.1), so all four ledgers hold the same one: the earliest
        assert all(p.stats()["shared_came"] == 3 for p in everyone)
        held = [_held(p.home) for p in everyone]
        assert len(held[0]) == 1 and all(h == held[0] for h in held), "the ledgers differ"
