"""A LAN of machines (network namespaces on one bridge): the joiners find the table by
multicast, by its name in the beacons (no address given), sit and play a whole game
over the mesh; and a flood from one machine of the LAN does not stop it on the
flooded host.  Names are unique per run, addresses are inside the 10.79.0.0/24
network the test creates, and everything is removed even when the test fails.

Five network namespaces on one bridge: the host, three joiners, and a flooder
that keeps 100 idle connections (each refilled 5 s after the host closes it) and
40 slowloris connections (a byte every 2 s) open to the host's lobby, plus 25 idle
ones to its game port (refilled after 1 s), for the whole game.  That is some 25
new connections a second at each port from one address, six times what the door
lets one address start (``DoorPolicy.rate``), and many times the slots it gives one
address (``per_address``, ``per_address_open``), each held all game: each refusal
path is taken all along.  A bigger flood would only cost the flooder and the host
more CPU on the same refusals, and refills at once would make them spin on
refusals as fast as the cores go, which tells nothing more (no figure is checked
against time).  The joiners find the table by its beacon, get in, and the four
play a whole game; the host logs refusals as summary lines, not a line per
connection.  Needs root (skipped otherwise).
The figures are printed (``pytest -s``) for the record.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from p2pbelka.ladder.ledger import Ledger
from tests.lan.helpers import Peer, PeerSet, verify
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(5, "10.79.0") as built:
        yield built


def _held(home: Path) -> list[tuple[bytes, bytes]]:
    with Ledger(home / "ladder.sqlite") as ledger:
        return ledger.certificates()


def _at(addr: str) -> list[str]:
    return ["--listen", addr, "--interface", addr]


def test_a_game_starts_and_finishes_on_a_flooded_host(lan: Lan, tmp_path: Path) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    (ns0, ns1, ns2, ns3, ns_flood) = lan.namespaces
    (addr0, addr1, addr2, addr3, _flood_addr) = lan.addresses
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--name", "Flooded", *bots, *_at(addr0), netns=ns0
        )
        lobby = host.wait_for(r"lobby port (\d+), game port (\d+)", 30)
        flooder = peers.spawn(
            "flooder",
            f"{addr0}:{lobby.group(1)}",
            "--idle",
            "100",
            "--slowloris",
            "40",
            "--pace",
            "5",
            netns=ns_flood,
            module="tests.lan.flood",
        )
        mesh_flooder = peers.spawn(
            "mesh-flooder",
            f"{addr0}:{lobby.group(2)}",
            "--idle",
            "25",
            "--slowloris",
            "0",
            "--pace",
            "1",
            netns=ns_flood,
            module="tests.lan.flood",
        )
        # The flood is on before anyone joins: wait for the host to refuse some of it.
        _wait_until(lambda: "refused" in host.log(), 60, host)
        started = time.monotonic()
        joiners = [
            peers.spawn(
                f"joiner{n}",
                "join",
                "--table",
                "Flooded",
                "--wait",
                "15",
                *bots,
                *_at(addr),
                netns=ns,
            )
            for n, (ns, addr) in enumerate(((ns1, addr1), (ns2, addr2), (ns3, addr3)), 1)
        ]
        host.wait_for(r"starting game", 600)
        seated_after = time.monotonic() - started
        everyone = [host, *joiners]
        codes = peers.wait(everyone, 900)
        game_over_after = time.monotonic() - started
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        for joiner in joiners:  # found by name in the beacons, no address given
            assert f"joining Flooded at {addr0}:" in joiner.text()
            assert "host key" in joiner.text()
        assert len({p.transcript().read_bytes() for p in everyone}) == 1
        assert verify(host.transcript()).startswith("OK")
        # at the end each took the other three's certificates of the game (results.md
        # 6.1), so all four ledgers hold the same one: the earliest
        assert all(p.stats()["shared_came"] == 3 for p in everyone)
        held = [_held(p.home) for p in everyone]
        assert len(held[0]) == 1 and all(h == held[0] for h in held), "the ledgers differ"
        flood = _last_counts(flooder.text())
        mesh_flood = _last_counts(mesh_flooder.text())
        flooder.kill()
        mesh_flooder.kill()
    refusal_lines = [ln for ln in host.log().splitlines() if "refused" in ln]
    assert all("connection(s) in the last" in ln for ln in refusal_lines), host.log()[-2000:]
    connections = flood.get("connected", 0) + flood.get("slow_connected", 0)
    assert connections > 10 * max(1, len(refusal_lines)), "a log line per refusal"
    retries = sum(j.text().count("trying again") for j in joiners)
    print(
        json.dumps(
            {
                "seated_s": round(seated_after, 1),
                "game_over_s": round(game_over_after, 1),
                "host_game_ms": host.stats()["game_ms"],
                "deals": host.stats()["deals"],
                "lobby_flood": flood,
                "mesh_flood": mesh_flood,
                "host_refusal_log_lines": len(refusal_lines),
                "host_log_bytes": len(host.log()),
                "joiner_retries": retries,
            }
        )
    )


def _last_counts(text: str) -> dict[str, int]:
    lines = [ln for ln in text.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {}  # type: ignore[no-any-return]


def _wait_until(condition: Callable[[], bool], timeout: float, peer: Peer) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s:\n{peer.dump()}")
