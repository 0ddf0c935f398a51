"""Tables are announced by DNS-SD too, and ``join`` lists tables heard either way.

Three namespaces: a host announcing by beacon and DNS-SD; a joiner that hears
the beacons (the table is listed once, as a signed beacon table); and a joiner
on another beacon port, which hears no beacon and lists the table from DNS-SD
alone, marked as an unsigned hint.  Needs root (skipped otherwise).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(3, "10.80.0") as built:
        yield built


def _at(addr: str) -> list[str]:
    return ["--listen", addr, "--interface", addr]


def test_join_lists_tables_heard_by_beacon_or_dns_sd(lan: Lan, tmp_path: Path) -> None:
    beacon, elsewhere = (str(40000 + secrets.randbelow(10000) + k * 10000) for k in (0, 1))
    (ns0, ns1, ns2), (addr0, addr1, addr2) = lan.namespaces, lan.addresses
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--name", "Seen by tools", "--bot", "random",
            "--quiet", "--beacon-port", beacon, *_at(addr0), netns=ns0,
        )  # fmt: skip
        host.wait_for(r"lobby port (\d+)", 30)
        hears_both = peers.spawn(
            "both", "join", "--list", "--wait", "8", "--bot", "random", "--beacon-port", beacon,
            *_at(addr1), netns=ns1,
        )  # fmt: skip
        dnssd_only = peers.spawn(
            "dnssd", "join", "--list", "--wait", "8", "--bot", "random",
            "--beacon-port", elsewhere, *_at(addr2), netns=ns2,
        )  # fmt: skip
        assert peers.wait([hears_both, dnssd_only], 120) == [0, 0]
    both = [ln for ln in hears_both.text().splitlines() if "Seen by tools" in ln]
    assert len(both) == 1 and "DNS-SD" not in both[0], hears_both.dump()
    only = [ln for ln in dnssd_only.text().splitlines() if "Seen by tools" in ln]
    assert len(only) == 1 and "DNS-SD only" in only[0], dnssd_only.dump()
    assert f"host {addr0}:" in only[0]
