"""A LAN with no IPv4 at all: four namespaces with only IPv6 addresses.

The host announces on the IPv6 beacon group, the joiners find it by name, and
the four play a whole game over an IPv6 mesh: two such tables at once, one on the
global (ULA) addresses, one on the link-local ones.  Needs root (skipped otherwise).
"""

from __future__ import annotations

import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import Peer, PeerSet, verify
from tests.netns import Lan, namespace_lan, wait_for_link_local

pytestmark = pytest.mark.netns


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "fd77:0:0:1", ipv6_only=True) as built:
        yield built


TABLES = {"global": "Six", "link-local": "Seven"}


def test_discovery_and_a_game_on_an_ipv6_only_lan(lan: Lan, tmp_path: Path) -> None:
    """Two tables at once on the one LAN, each with its own beacon port.  ``global``:
    each peer listens on its ULA address, which the host signs into its beacon.
    ``link-local``: everyone listens on ``::``, so the joiners dial the host's fe80::
    source address with their own scope, and the mesh addresses the host saw are
    re-scoped by each joiner."""
    for ns in lan.namespaces:
        shown = subprocess.run(
            ["ip", "-n", ns, "-4", "addr", "show", "scope", "global"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        assert "inet " not in shown.stdout, "the namespace has an IPv4 address"
        wait_for_link_local(ns)
    ports = secrets.SystemRandom().sample(range(40000, 60000), len(TABLES))
    with PeerSet(tmp_path) as peers:
        tables = {
            where: _table(lan, peers, where, str(port))
            for where, port in zip(TABLES, ports, strict=True)
        }
        for where, everyone in tables.items():
            host, *joiners = everyone
            codes = peers.wait(everyone, 300)
            assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
            name = TABLES[where]
            for joiner in joiners:
                expected = (
                    f"joining {name} at fe80::"
                    if where == "link-local"
                    else f"joining {name} at {lan.addresses[0]}:"
                )
                assert expected in joiner.text(), joiner.dump()
            assert len({p.transcript().read_bytes() for p in everyone}) == 1
            assert verify(host.transcript()).startswith("OK")


def _table(lan: Lan, peers: PeerSet, where: str, beacon: str) -> list[Peer]:
    """A host in the first namespace and a joiner in each other one, all bots, that
    find the table ``TABLES[where]`` by its beacons (on port ``beacon``)."""
    name = TABLES[where]
    bots = ["--bot", "random", "--quiet", "--stats", "--ipv6", "--beacon-port", beacon]
    (ns0, *others), (addr0, *addrs) = lan.namespaces, lan.addresses
    if where == "link-local":
        addr0, addrs = "::", ["::"] * len(addrs)
    host = peers.spawn(
        f"{where}-host", "host", "--auto-approve", "--name", name, *bots, "--listen", addr0,
        netns=ns0,
    )  # fmt: skip
    host.wait_for(r"lobby port (\d+)", 30)
    joiners = [
        peers.spawn(
            f"{where}-joiner{n}",
            "join",
            "--table",
            name,
            "--wait",
            "20",
            *bots,
            "--listen",
            addr,
            netns=ns,
        )
        for n, (ns, addr) in enumerate(zip(others, addrs, strict=True), 1)
    ]
    return [host, *joiners]
