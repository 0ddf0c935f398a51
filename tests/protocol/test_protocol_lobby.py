"""The lobby and recovery messages: strict, sans-IO (protocol/lobby.py)."""

from __future__ import annotations

import msgpack
import pytest

from p2pbelka.protocol import lobby as lb
from p2pbelka.protocol.envelope import Signer

GAME = bytes(16)
KEY = Signer.generate().public_key
KEY2 = Signer.generate().public_key
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
        _raw({"t": "wait", "why": "x"}),
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
