"""Results shared in a lobby across a real network (protocol/results.md 6.2): two
homes whose players sat together before, each holding games the other lacks, run
``host`` and ``join`` as separate programs in two network namespaces; the lobby
never fills (a Belot table of three, two people), so no game is played, and still
both print the same ``ladder --json`` byte for byte once each said what came.
Needs root and iproute2."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.net.identity import Identity
from p2pbelka.peer.store import seat_home
from tests.lan.helpers import HANG, REPO, PeerSet
from tests.lan.test_lan_lobby_share import _fill
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

CAME = "ladder: 6 results came from the table, 6 counted"


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(2, "10.77.31") as built:
        yield built


def _ladder_json(home: Path) -> bytes:
    """``p2pbelka ladder --json`` as a player types it, in ``home``."""
    done = subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", "ladder", "--json"],
        env={"P2PBELKA_HOME": str(home), "PYTHONPATH": str(REPO), "LANGUAGE": "en"},
        capture_output=True,
        timeout=HANG,
        check=True,
    )
    return done.stdout


def test_two_homes_in_two_namespaces_share_their_results_in_a_lobby(
    lan: Lan, tmp_path: Path
) -> None:
    homes = [seat_home(tmp_path, n) for n in range(2)]
    players = [Identity.load_or_create(h, f"player {n}") for n, h in enumerate(homes)]
    _fill(tmp_path, players)
    before = [_ladder_json(h) for h in homes]
    assert before[0] != before[1]
    at = [["--listen", a, "--interface", a] for a in lan.addresses]
    common = ["--bot", "random", "--stats"]
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--game", "belot", "--players", "3", "--no-announce",
                           "--auto-approve", *common, *at[0], home=homes[0],
                           netns=lan.namespaces[0])  # fmt: skip
        port = host.wait_for(r"lobby port (\d+)", HANG).group(1)
        joiner = peers.spawn("joiner", "join", "--connect", f"{lan.addresses[0]}:{port}",
                             *common, *at[1], home=homes[1], netns=lan.namespaces[1])  # fmt: skip
        for peer in (host, joiner):
            peer.wait_for(CAME, HANG)
        for peer in (host, joiner):
            peer.kill()
        assert "results came" not in joiner.text().replace(CAME, "", 1), joiner.dump()
    after = [_ladder_json(h) for h in homes]
    assert after[0] == after[1] != before[0]
