"""The host's seating plan, and a loopback table in one call (the lobby codec: tests/protocol)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.verify import verify_bytes

GAME = bytes(16)


def test_the_seating_plan() -> None:
    K = {c: Identity.generate().public_key for c in "habcd"}
    host = lb.Sitter(K["h"], "Host", "", 1000, bytes(16))
    plan = lb.SeatingPlan(GAME, "t", "classic", {}, host)
    assert plan.free == 3 and not plan.complete
    seat = plan.sit(K["a"], lb.Hello("A", "", 2001, bytes(16)), "10.77.0.2")
    assert seat == 1
    with pytest.raises(ValueError, match="already seated"):
        plan.sit(K["a"], lb.Hello("A", "", 2001, bytes(16)), "10.77.0.2")
    plan.move(K["a"], 2)
    assert plan.seat_of(K["a"]) == 2
    with pytest.raises(ValueError, match="taken"):
        plan.move(K["a"], 0)
    plan.sit(K["b"], lb.Hello("B", "10.77.0.9", 2002, bytes(16)), "10.77.0.3")
    plan.sit(K["c"], lb.Hello("C", "", 2003, bytes(16)), "10.77.0.4")
    with pytest.raises(ValueError, match="full"):
        plan.sit(K["d"], lb.Hello("D", "", 2004, bytes(16)), "10.77.0.5")
    assert not plan.complete
    for key in "abc":
        plan.set_ready(K[key], True)
    assert plan.complete
    assert plan.peers() == (
        ("", 1000),
        ("10.77.0.9", 2002),
        ("10.77.0.2", 2001),
        ("10.77.0.4", 2003),
    )
    assert [s.name for s in plan.setup().seats] == ["Host", "B", "A", "C"]
    plan.leave(K["b"])
    assert plan.free == 1 and not plan.complete
    assert lb.decode_control(lb.encode_control(plan.state())) == plan.state()


async def test_a_loopback_table_plays_a_whole_game(tmp_path: Path) -> None:
    results = await loopback_table(
        BotFrontEnd(make_bot("random", 1)), ["random"] * 3, seed=8, transcript_dir=tmp_path
    )
    assert [r.seat for r in results] == [0, 1, 2, 3]
    assert all(r.finished for r in results)
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1, "every peer saved the same transcript"
    data = files.pop()
    assert data == dump_transcript(results[0].transcript)
    assert verify_bytes(data).ok
    secrets = results[2].store.secrets_path
    assert secrets.stat().st_mode & 0o077 == 0
    # The lot value, one seed per deal, the one the last deal_end committed to (flow 2:
    # a deal_end carries the next deal's commitment, even if no deal comes), and the
    # next one the store writes ahead.
    assert secrets.stat().st_size == 32 * (3 + results[2].transcript[-1].deal)
