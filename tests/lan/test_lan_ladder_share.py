"""Two players' programs share their results, on loopback and between two network
namespaces: after one exchange both ledgers print the same ladder, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.bench.ladder import certificate_of
from p2pbelka.ladder.certificate import Outcome
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.ratings import ladder
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.protocol.envelope import Signer
from tests.lan.helpers import PeerSet
from tests.netns import Lan, namespace_lan


def _homes(root: Path) -> tuple[list[Path], list[Identity]]:
    """Two players' homes, each with its key and a ledger of its own games (one game
    they played together, then others each saw alone)."""
    homes = [root / "home-a", root / "home-b"]
    players = []
    for home in homes:
        home.mkdir(parents=True)
        players.append(Identity.load_or_create(home))
    others = [Signer.from_seed(bytes([n + 40]) * 32) for n in range(2)]
    me_a, me_b = (Signer(p.private_key) for p in players)
    for n in range(41):
        seats = [me_a, others[0], me_b, others[1]] if n % 3 else [others[0], me_a, others[1], me_b]
        made = certificate_of(seats, "belka", Outcome(n % 2, (12, n % 7)), 5000 + n)
        holders = homes if n == 0 else [homes[n % 2]]
        for home in holders:
            with Ledger(home / "ladder.sqlite") as ledger:
                ledger.add(made.raw, "played")
    return homes, players


def _printed(home: Path) -> str:
    with Ledger(home / "ladder.sqlite") as ledger:
        return json.dumps([r.to_json() for r in ladder(ledger.results("belka"))])


def _share(
    peers: PeerSet, homes: list[Path], players: list[Identity], at: list[str], ns: list[str | None]
) -> None:
    server = peers.spawn(
        "server",
        "ladder",
        "--serve",
        "0",
        "--with",
        players[0].public_key.hex(),
        home=homes[1],
        netns=ns[1],
    )
    port = server.wait_for(r"sharing results on port (\d+)", 30).group(1)
    dialer = peers.spawn(
        "dialer",
        "ladder",
        "--share",
        f"{at[1]}:{port}",
        "--with",
        fingerprint(players[1].public_key),
        home=homes[0],
        netns=ns[0],
    )
    assert peers.wait([dialer], 60) == [0], dialer.dump()
    assert "20 results came, 20 counted" in dialer.text(), dialer.dump()
    server.wait_for(r"20 results came, 20 counted", 30)


def test_two_programs_share_on_loopback(tmp_path: Path) -> None:
    homes, players = _homes(tmp_path)
    assert _printed(homes[0]) != _printed(homes[1])
    with PeerSet(tmp_path) as peers:
        _share(peers, homes, players, ["127.0.0.1", "127.0.0.1"], [None, None])
    assert _printed(homes[0]) == _printed(homes[1])


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(2, "10.93.0") as built:
        yield built


@pytest.mark.netns
def test_two_programs_share_between_namespaces(lan: Lan, tmp_path: Path) -> None:
    homes, players = _homes(tmp_path)
    with PeerSet(tmp_path) as peers:
        _share(peers, homes, players, lan.addresses, list(lan.namespaces))
    assert _printed(homes[0]) == _printed(homes[1])
