"""LANs a newcomer meets: no multicast route, and IPv6 with link-local addresses only.

``join`` where no route leads to the beacons' group: with one address it listens
there and finds the tables (and warns of a look-alike name among them); with two
it says what failed and the ways on (``--interface``, ``--connect``), and
``--interface`` works.  ``host --ipv6`` where only link-local addresses exist shows
``fe80::…%zone``, which a joiner on another machine types as shown.  Real
processes in network namespaces the test makes (root; skipped otherwise).
"""

from __future__ import annotations

import re
import secrets
import subprocess
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet
from tests.netns import namespace_lan, wait_for_link_local

pytestmark = pytest.mark.netns


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def test_join_where_no_route_leads_to_the_multicast_group(tmp_path: Path) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    lan_args = ["--text", "--beacon-port", beacon]
    with namespace_lan(2, "10.79.0") as lan, PeerSet(tmp_path) as peers:
        (ns0, ns1), if1 = lan.namespaces, lan.interfaces[1]
        for ns in lan.namespaces:  # a LAN with no default route: no way to 224/4 either
            _ip("-n", ns, "route", "del", "224.0.0.0/4")
        hosting = ["host", "--auto-approve", "--bot", "random", *lan_args]
        names = ["Kitchen table", "Kitchen tabIe"]  # the second with a capital I
        hosts = [
            peers.spawn(f"host{n}", *hosting, "--table", name, netns=ns0)
            for n, name in enumerate(names)
        ]
        for host in hosts:
            host.wait_for(r"lobby port \d+", 30)
        assert "cannot send beacon" not in hosts[0].log(), hosts[0].dump()

        def listing(name: str, *more: str) -> tuple[int, str, str]:
            joiner = peers.spawn(
                name, "join", "--list", "--table", "Kitchen table", "--wait", "60",
                *lan_args, *more, netns=ns1,
            )  # fmt: skip
            (code,) = peers.wait([joiner], 60)
            return code, joiner.text(), joiner.log()

        # one address: it is where the tables are heard
        code, out, err = listing("one")
        assert code == 0, err
        assert "Kitchen table: host 10.79.0.1:" in out and "Kitchen tabIe" in out, out
        assert "another host uses a name like this" in out, out
        assert "tables with look-alike names" in out, out

        # two addresses: which one is the player's to say
        _ip("-n", ns1, "addr", "add", "10.79.1.2/24", "dev", if1)
        code, out, err = listing("two")
        assert code == 3, out + err
        assert "no route on this machine leads to the tables' multicast group [ENODEV]" in err
        assert "--interface ADDRESS (10.79.0.2, 10.79.1.2)" in err, err
        assert "--connect HOST:PORT" in err, err
        code, out, err = listing("named", "--interface", "10.79.0.2")
        assert code == 0 and "Kitchen table: host 10.79.0.1:" in out, out + err


def test_host_on_a_link_local_only_ipv6_lan_shows_the_address_with_its_zone(
    tmp_path: Path,
) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--text", "--ipv6", "--beacon-port", beacon]
    with namespace_lan(2, "fd79:0:0:1", ipv6_only=True) as lan, PeerSet(tmp_path) as peers:
        for ns, inner in zip(lan.namespaces, lan.interfaces, strict=True):
            _ip("-n", ns, "-6", "addr", "flush", "dev", inner, "scope", "global")
            wait_for_link_local(ns)
        (ns0, ns1), (if0, _) = lan.namespaces, lan.interfaces
        host = peers.spawn("host", "host", "--auto-approve", "--table", "Six", *bots, netns=ns0)
        shown = host.wait_for(r"this machine is (\S+): join with p2pbelka join --connect (\S+)", 30)
        assert re.fullmatch(rf"fe80::[0-9a-f:]+%{if0}", shown[1]), host.dump()
        # the joiner types what the host's screen shows (the zone is the host's interface)
        joiner = peers.spawn("joiner", "join", "--connect", shown[2], *bots, netns=ns1)
        host.wait_for(r"seats: 0: [^;]*; 1: (?!free)", 60)
        assert joiner.proc.poll() is None, joiner.dump()  # seated, waiting for the others
