"""A seat that stalls the exchange at a table's end (its program sends its ``have``
and then answers nothing, links up) holds the other seat's exit ``STALL`` seconds, not
the whole bound (results.md 6.1), with real peers on loopback: the bound is made far
longer than the test, and the exchange ends all the same, said as a stall by the side
that saw it first (the other may see the first leave); the game and its result stand."""

from __future__ import annotations

from pathlib import Path

import pytest
from trio.testing import MockClock

from p2pbelka.peer import tableshare
from p2pbelka.peer.lan import NetOptions
from p2pbelka.table.verify import verify_bytes
from tests.lan.helpers import belot_of_two, two_players


async def test_a_stalling_seat_is_left_after_a_few_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autojump_clock: MockClock
) -> None:
    players = two_players(tmp_path)
    staller = players[1].public_key
    monkeypatch.setattr(tableshare, "SHARE_TIME", 3600.0)
    real = tableshare.TableShare.heard

    def heard(self: tableshare.TableShare, seat: int, payload: bytes) -> None:
        if self.owner != staller:
            real(self, seat, payload)

    monkeypatch.setattr(tableshare.TableShare, "heard", heard)
    results = await belot_of_two(tmp_path, players, NetOptions(linger=1.0, sync=False))
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1 and verify_bytes(files.pop()).ok
    errors = []
    for result in results:
        shared = result.shared
        assert shared is not None and len(shared.peers) == 1, shared
        errors.append(shared.peers[0].error)
    # the first to see the stall leaves, and its link goes down with it: the other
    # side may see that a moment before its own stall bound is up
    assert any("no word for 5 s" in e for e in errors), errors
    assert all("no word for 5 s" in e or "the link is down" in e for e in errors), errors
