"""A watcher on a LAN of three machines (network namespaces on one bridge) finds a
Belot table by its beacons alone (no address given) and follows its game to the
end from a third machine.  Needs root and
iproute2, skipped with the reason otherwise; addresses are inside the 10.84.0.0/24
network the test creates, and everything is removed even when the test fails."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, transcript_of, verify
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(3, "10.84.0") as built:
        yield built


def _at(addr: str) -> list[str]:
    return ["--listen", addr, "--interface", addr]


def test_a_watcher_finds_a_table_by_multicast_and_follows_its_game(
    lan: Lan, tmp_path: Path
) -> None:
    beacon = ["--beacon-port", str(40000 + secrets.randbelow(20000))]
    bots = ["--bot", "random", "--quiet", "--stats", *beacon]
    (ns0, ns1, ns2), (addr0, addr1, addr2) = lan.namespaces, lan.addresses
    with PeerSet(tmp_path) as peers:
        table = ("--game", "belot", "--players", "2", "--name", "Watch corner")
        host = peers.spawn("host", "host", "--auto-approve", *table, *bots, *_at(addr0), netns=ns0)
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        watcher = peers.spawn(
            "watcher",
            "watch",
            "--text",
            "--table",
            "Watch corner",
            "--wait",
            "60",  # a hang guard: it watches as soon as it hears the table
            *beacon,
            "--interface",
            addr2,
            netns=ns2,
        )
        watcher.wait_for("watching: ", 90)
        joiner = peers.spawn(
            "joiner", "join", "--connect", f"{addr0}:{port}", *bots, *_at(addr1), netns=ns1
        )
        players = [host, joiner]
        assert peers.wait(players, 180) == [0, 0], "\n".join(p.dump() for p in players)
        assert peers.wait([watcher], 60) == [0], watcher.dump()
        assert f"watching Watch corner at {addr0}:{port}" in watcher.text()
        game = host.transcript().read_bytes()
        assert transcript_of(watcher).read_bytes() == game
        assert verify(transcript_of(watcher)).startswith("OK")
        assert "verified: the shuffle was fair and every card checked" in watcher.text()
