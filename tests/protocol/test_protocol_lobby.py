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
    lb.Hello("Ann", "", 5000, bytes(16)),
    lb.Hello("Bob", "10.77.0.2", 65535, bytes(range(16))),
    lb.TakeSeat(2),
    lb.Ready(True),
    lb.Ready(False, 7),
    lb.LobbyState(
        GAME,
        "Kitchen table",
        "eyes",
        {"eggs": "plus4"},
        (lb.SeatView(KEY, "Ann", True), None, lb.SeatView(KEY2, "Bob", False), None),
    ),
    lb.LobbyState(
        GAME,
        "Belot for three",
        "classic",
        {"four_sevens": "50"},
        (lb.SeatView(KEY, "Ann", True), None, None),
        "belot",
        3,
    ),
    lb.LobbyState(GAME, "Two", "classic", {}, (lb.SeatView(KEY, "Ann", True), None), "belot"),
    lb.Refuse("the table is full"),
    lb.Wait(),
    lb.Start(b"\x92\xc4\x01x", (("", 1), ("10.77.0.2", 2), ("10.77.0.3", 3), ("::1", 4))),
    lb.Start(b"\x92\xc4\x01x", (("", 1), ("10.77.0.2", 2))),
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
        _raw(
            {"port": 1, "name": "a", "nonce": bytes(16), "addr": "", "t": "hello"}
        ),  # keys not sorted
        _raw({"addr": "", "name": "a", "nonce": bytes(16), "port": 0, "t": "hello"}),  # port 0
        _raw(
            {"addr": "", "name": "a", "nonce": bytes(16), "port": True, "t": "hello"}
        ),  # bool is not a port
        _raw({"addr": "nowhere", "name": "a", "nonce": bytes(16), "port": 1, "t": "hello"}),
        _raw(
            {"addr": "", "name": "a\x1b[2J", "nonce": bytes(16), "port": 1, "t": "hello"}
        ),  # escape sequence
        _raw({"addr": "", "name": "", "nonce": bytes(16), "port": 1, "t": "hello"}),
        _raw({"addr": "", "name": "a", "port": 1, "t": "hello"}),  # no nonce
        _raw({"addr": "", "name": "a", "nonce": bytes(15), "port": 1, "t": "hello"}),
        _raw({"addr": "", "extra": 1, "name": "a", "nonce": bytes(16), "port": 1, "t": "hello"}),
        _raw({"seat": 4, "t": "seat"}),
        _raw({"ready": 1, "rules": 0, "t": "ready"}),
        _raw({"ready": True, "t": "ready"}),  # no rules revision
        _raw({"ready": True, "rules": -1, "t": "ready"}),
        _raw({"start": [1, 2, 3, 4, 5], "t": "resend"}),
        _raw({"start": [-1], "t": "resend"}),
        _raw({"peers": [["", 1]] * 1, "t": "start", "table": b"x"}),
        _raw({"peers": [["", 1]] * 5, "t": "start", "table": b"x"}),
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


def _lobby_body(**changes: object) -> dict[str, object]:
    body: dict[str, object] = {
        "game": GAME,
        "name": "t",
        "options": {},
        "preset": "classic",
        "rules": 0,
        "seats": [[KEY, "Ann", True], None, None],
        "t": "lobby",
        "variant": "belot",
    }
    body.update(changes)
    return {k: v for k, v in sorted(body.items()) if v is not ...}


def test_a_lobby_names_its_game_and_as_many_seats_as_it_has() -> None:
    state = lb.decode_control(_raw(_lobby_body()))
    assert isinstance(state, lb.LobbyState)
    assert state.variant == "belot" and len(state.seats) == 3 and state.rules == 0


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"variant": ...}, "lobby"),  # an older host's lobby: no game named
        ({"rules": ...}, "lobby"),
        ({"variant": "Belot"}, "lobby.variant"),
        ({"variant": "be lot"}, "lobby.variant"),
        ({"variant": "x" * 17}, "lobby.variant"),
        ({"variant": ""}, "lobby.variant"),
        ({"rules": True}, "lobby.rules"),
        ({"rules": -1}, "lobby.rules"),
        ({"seats": [[KEY, "Ann", True]]}, "lobby.seats"),
        ({"seats": [[KEY, "Ann", True]] + [None] * 4}, "lobby.seats"),
    ],
)
def test_a_lobby_with_a_bad_game_seat_count_or_revision_is_refused(
    changes: dict[str, object], where: str
) -> None:
    with pytest.raises(lb.LobbyError) as info:
        lb.decode_control(_raw(_lobby_body(**changes)))
    assert info.value.where == where, str(info.value)
