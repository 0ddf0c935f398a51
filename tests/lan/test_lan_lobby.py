"""The lobby messages (strict, sans-IO), the seating plan, and a loopback table in one call."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.verify import verify_bytes

KEY = Identity.generate().public_key
KEY2 = Identity.generate().public_key
GAME = bytes(16)

SAMPLES: list[lb.Control] = [
    lb.Hello("Ann", "", 5000),
    lb.Hello("Bob", "10.77.0.2", 65535),
    lb.TakeSeat(2),
    lb.Ready(True),
    lb.LobbyState(
        GAME,
        "Kitchen table",
        "eyes",
        {"eggs": "plus4"},
        (lb.SeatView(KEY, "Ann", True), None, lb.SeatView(KEY2, "Bob", False), None),
    ),
    lb.Refuse("the table is full"),
    lb.Wait(),
    lb.Start(b"\x92\xc4\x01x", (("", 1), ("10.77.0.2", 2), ("10.77.0.3", 3), ("::1", 4))),
    lb.Resend((0, 5, 7, 2**32 - 1)),
    lb.Resent(),
    lb.Done(),
]


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: type(m).__name__)
def test_control_messages_round_trip(msg: lb.Control) -> None:
    payload = lb.encode_control(msg)
    assert not lb.is_envelope(payload)
    assert lb.decode_control(payload) == msg


def _raw(body: object) -> bytes:
    return msgpack.packb(body, use_bin_type=True)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xc1",
        b"junk that is not msgpack",
        _raw([1, 2]),
        _raw({"t": "nope"}),
        _raw({"t": 5}),
        _raw({"port": 1, "name": "a", "addr": "", "t": "hello"}),  # keys not sorted
        _raw({"addr": "", "name": "a", "port": 0, "t": "hello"}),  # port 0
        _raw({"addr": "", "name": "a", "port": True, "t": "hello"}),  # bool is not a port
        _raw({"addr": "nowhere", "name": "a", "port": 1, "t": "hello"}),
        _raw({"addr": "", "name": "a\x1b[2J", "port": 1, "t": "hello"}),  # escape sequence
        _raw({"addr": "", "name": "", "port": 1, "t": "hello"}),
        _raw({"addr": "", "extra": 1, "name": "a", "port": 1, "t": "hello"}),
        _raw({"seat": 4, "t": "seat"}),
        _raw({"ready": 1, "t": "ready"}),
        _raw({"start": [1, 2, 3, 4, 5], "t": "resend"}),
        _raw({"start": [-1], "t": "resend"}),
        _raw({"peers": [["", 1]] * 3, "t": "start", "table": b"x"}),
        _raw({"t": "done", "x": None}),
        b"\x81\xa1t\xa4done" + b"\x00",  # trailing byte
        _raw({"t": "refuse", "why": "x" * 5000}),
        b"\x81" + b"\xa1t" + b"\xda\x00\x04done",  # not the shortest encoding
        b"\xde" + b"\xff" * 20000,
    ],
)
def test_bad_control_messages_are_refused_with_a_reason(payload: bytes) -> None:
    with pytest.raises(lb.LobbyError) as info:
        lb.decode_control(payload)
    assert str(info.value)


def test_the_seating_plan() -> None:
    K = {c: Identity.generate().public_key for c in "habcd"}
    host = lb.Sitter(K["h"], "Host", "", 1000)
    plan = lb.SeatingPlan(GAME, "t", "classic", {}, host)
    assert plan.free == 3 and not plan.complete
    seat = plan.sit(K["a"], lb.Hello("A", "", 2001), "10.77.0.2")
    assert seat == 1
    with pytest.raises(ValueError, match="already seated"):
        plan.sit(K["a"], lb.Hello("A", "", 2001), "10.77.0.2")
    plan.move(K["a"], 2)
    assert plan.seat_of(K["a"]) == 2
    with pytest.raises(ValueError, match="taken"):
        plan.move(K["a"], 0)
    plan.sit(K["b"], lb.Hello("B", "10.77.0.9", 2002), "10.77.0.3")
    plan.sit(K["c"], lb.Hello("C", "", 2003), "10.77.0.4")
    with pytest.raises(ValueError, match="full"):
        plan.sit(K["d"], lb.Hello("D", "", 2004), "10.77.0.5")
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
    assert secrets.stat().st_size == 32 * (1 + results[2].transcript[-1].deal)
