"""Belot on a LAN of four machines: four network namespaces on one bridge.

The host announces a three-seat Belot table by multicast; the two joiners find
it by name in the beacons (no address given), list it as Belot for three,
sit, and the three play a whole game over the mesh.  A watcher on the fourth
machine finds the table by its beacons alone too, before anyone sits, and
follows its game to the end.  Needs root and iproute2, skipped with the reason
otherwise; addresses are inside the 10.79.0.0/24 network the test creates, and
everything is removed even when the test fails.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, transcript_of, verify
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

N = 4


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(N, "10.79.0") as built:
        yield built


def _at(addr: str) -> list[str]:
    return ["--listen", addr, "--interface", addr]


def test_three_belot_peers_find_the_table_by_multicast_and_play(lan: Lan, tmp_path: Path) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    (ns0, *others, ns_watch), (addr0, *addrs, addr_watch) = lan.namespaces, lan.addresses
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host",
            "host",
            "--auto-approve",
            "--game",
            "belot",
            "--players",
            "3",
            "--name",
            "Belot corner",
            *bots,
            *_at(addr0),
            netns=ns0,
        )
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        watcher = peers.spawn(
            "watcher",
            "watch",
            "--text",
            "--table",
            "Belot corner",
            "--wait",
            "60",  # a hang guard: it watches as soon as it hears the table
            "--beacon-port",
            beacon,
            "--interface",
            addr_watch,
            netns=ns_watch,
        )
        watcher.wait_for("watching: ", 90)
        joiners = [
            peers.spawn(
                f"joiner{n}",
                "join",
                "--table",
                "Belot corner",
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
        assert codes == [0, 0, 0], "\n".join(p.dump() for p in everyone)
        for joiner in joiners:  # the tables it heard, listed before it picks one
            listed = re.search(r"^  \d+\) Belot corner: .*$", joiner.text(), re.MULTILINE)
            assert listed and ", Belot for 3, " in listed.group(), joiner.dump()
            assert f"joining Belot corner at {addr0}:" in joiner.text()
        data = {p.transcript().read_bytes() for p in everyone}
        assert len(data) == 1, "the three transcripts differ"
        assert verify(host.transcript()).startswith("OK")
        assert re.search(r"game over: .+ wins?; score: ", host.text()), host.dump()
        assert peers.wait([watcher], 60) == [0], watcher.dump()
        assert f"watching Belot corner at {addr0}:{port}" in watcher.text()
        assert transcript_of(watcher).read_bytes() == data.pop()  # the bytes verified above
        assert "verified: the shuffle was fair and every card checked" in watcher.text()
