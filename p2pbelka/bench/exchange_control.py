"""Exchange vectors of the control messages (protocol/SPEC.md sections 7.1 to 7.5, 9.4
and 9.5): every message's bytes, and the payloads a receiver refuses (naming the
field), as the reference's decoders (``decode_control``, ``decode_seat_change``) read
them; the lobby's exchange is ``exchange_lobby.py``'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack

from p2pbelka.bench.exchange_beacons import GAME
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.codec import ProtocolError, encode
from p2pbelka.protocol.envelope import Signer
from p2pbelka.table.session import Table

HOST_SEED, JOINER_SEEDS = 0x10, (0x11, 0x12, 0x13)
NAMES = ("Host", "Ann", "Bea", "Cem")
NONCES = tuple(bytes([0x50 + seat]) * 16 for seat in range(4))
TABLE_ID = bytes(range(16))
SEGMENT = bytes(range(0x20, 0x30))
NEUTRAL = bytes([1]) + bytes(31)
PORT = 5000


def identity(seed: int) -> Identity:
    return Identity.from_seed(bytes([seed]) * 32)


def key(seed: int) -> bytes:
    return identity(seed).public_key


def read(payload: bytes) -> tuple[str, Any]:
    """A control payload as a receiver reads it (SPEC.md section 7.1): ("lobby" or
    "seat change", the message), or ("refused", (where, reason))."""
    try:
        return "lobby", lb.decode_control(payload)
    except lb.LobbyError as exc:
        if not exc.reason.startswith("unknown message type"):
            return "refused", (exc.where, exc.reason)
    try:
        return "seat change", sc.decode_seat_change(payload)
    except ProtocolError as exc:
        return "refused", (exc.where, exc.reason)


# -- every message ----------------------------------------------------------------------


def _lobby_state() -> lb.LobbyState:
    seats = (
        lb.SeatView(key(HOST_SEED), "Host", True),
        None,
        lb.SeatView(key(JOINER_SEEDS[0]), "Ann", False),
        None,
    )
    return lb.LobbyState(TABLE_ID, "Kitchen table", "classic", {}, seats, GAME, 0)


def messages() -> list[tuple[str, str, bytes]]:
    """(section, direction, bytes) of one of each control message."""
    lobby = [
        ("7.2", "host -> joiner", lb.encode_control(_lobby_state())),
        ("7.2", "joiner -> host", lb.encode_control(lb.Hello("Ann", "", 5001, NONCES[1]))),
        ("7.2", "joiner -> host", lb.encode_control(lb.TakeSeat(3))),
        ("7.2", "joiner -> host", lb.encode_control(lb.Ready(True, 1))),
        ("7.2", "host -> joiner", lb.encode_control(lb.Wait())),
        ("7.2", "host -> joiner", lb.encode_control(lb.Refuse("the table is full"))),
        (
            "7.2",
            "host -> joiner",
            lb.encode_control(
                lb.Start(b"\x92\xc4\x01\x00\xc4\x01\x00", (("", 5000), ("10.77.0.2", 5001)))
            ),
        ),
        ("7.3", "seat -> seat", lb.encode_control(lb.Resend((3, 2, 0, 7)))),
        ("7.3", "seat -> seat", lb.encode_control(lb.Resent())),
        ("7.3", "seat -> seat", lb.encode_control(lb.Done())),
        ("7.5", "watcher -> host", lb.encode_control(lb.Watch("Ann", 0))),
        ("7.5", "host -> watcher", lb.encode_control(lb.Watching("watchers"))),
        ("7.5", "host -> watcher", lb.encode_control(lb.Fed(7))),
        ("7.5", "host -> watcher", lb.encode_control(lb.Rewind(7))),
        ("7.5", "host -> watcher", lb.encode_control(lb.Alive())),
    ]
    sig = bytes(range(64))
    seat_change = [
        ("9.4", "remaining seat -> proposer", sc.encode_seat_change(sc.Agree(SEGMENT, sig))),
        (
            "9.4",
            "remaining seat -> proposer",
            sc.encode_seat_change(sc.Decline(SEGMENT, "my player said no", False)),
        ),
        (
            "9.4",
            "proposer -> seat that signed",
            sc.encode_seat_change(sc.ClosedOffer(SEGMENT, "seat 1 said no", sig)),
        ),
        ("9.5", "player -> every peer", sc.encode_seat_change(sc.ChainRequest(0))),
        ("9.5", "peer -> player", sc.encode_seat_change(sc.ChainRecord(0, b"\x92\xc4\x01\x00"))),
        ("9.5", "peer -> player", sc.encode_seat_change(sc.ChainEnd(0))),
        ("9.5", "player -> every peer", sc.encode_seat_change(sc.Reclaim(SEGMENT, NONCES[3]))),
    ]
    return lobby + seat_change


def fields_of(payload: bytes) -> dict[str, Any]:
    body = msgpack.unpackb(payload, raw=False)
    return {k: _json(v) for k, v in body.items()}


def _json(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"hex": value.hex()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


# -- refused payloads --------------------------------------------------------------------


def _map(**fields: Any) -> bytes:
    return encode(dict(sorted(fields.items())))


def _seat_offer_without_after() -> bytes:
    table = Table.host(signer(HOST_SEED), plan(auto=True).setup())
    body = table.state.setup
    assert body is not None
    return _map(t="seat_offer", segment=SEGMENT, table=encode(body.to_wire()))


REFUSED: list[tuple[str, bytes]] = [
    ("a msgpack array, not a map", encode([1])),
    ("keys not in ascending order", msgpack.packb({"t": "seat", "seat": 1})),
    (
        "an integer not in its shortest form (0xcc 0x01)",
        bytes.fromhex("82a473656174cc01a174a473656174"),
    ),
    ("an unknown type", _map(t="dance")),
    ("a key missing", _map(t="seat")),
    ("a key too many", _map(t="seat", seat=1, x=0)),
    ("`seat` 4", _map(t="seat", seat=4)),
    ("`ready` 1, not a boolean", _map(t="ready", ready=1, rules=0)),
    (
        "`hello` name of 33 code points",
        _map(t="hello", name="x" * 33, addr="", port=5001, nonce=NONCES[1]),
    ),
    (
        "`hello` name with a format character (U+200E)",
        _map(t="hello", name="Ann\u200e", addr="", port=5001, nonce=NONCES[1]),
    ),
    (
        "`hello` addr a host name",
        _map(t="hello", name="Ann", addr="example.com", port=5001, nonce=NONCES[1]),
    ),
    ("`hello` port 0", _map(t="hello", name="Ann", addr="", port=0, nonce=NONCES[1])),
    ("`hello` nonce of 15 bytes", _map(t="hello", name="Ann", addr="", port=5001, nonce=bytes(15))),
    (
        "`lobby` variant in capitals",
        lb.encode_control(replace(_lobby_state(), variant=GAME.capitalize())),
    ),
    (
        "`lobby` a key that is not sound",
        lb.encode_control(
            replace(_lobby_state(), seats=(lb.SeatView(NEUTRAL, "Host", True), None, None, None))
        ),
    ),
    (
        "`lobby` one key at two seats",
        lb.encode_control(
            replace(
                _lobby_state(),
                seats=(
                    lb.SeatView(key(HOST_SEED), "Host", True),
                    lb.SeatView(key(HOST_SEED), "Ann", True),
                    None,
                    None,
                ),
            )
        ),
    ),
    ("`lobby` five seats", lb.encode_control(replace(_lobby_state(), seats=(None,) * 5))),
    ("`start` a port of 70000", _map(t="start", table=b"\x92", peers=[["", 70000], ["", 1]])),
    ("`start` an empty table", _map(t="start", table=b"", peers=[["", 1], ["", 1]])),
    ("`resend` five seats", _map(t="resend", start=[0] * 5)),
    ("`watch` from 2^32", _map(t="watch", name="Ann", **{"from": 2**32})),
    ("`watching` chat `all`", _map(t="watching", chat="all")),
    ("over 8,192 bytes", _map(t="refuse", why="x" * 8200)),
    ("`refuse` why of 201 code points", _map(t="refuse", why="x" * 201)),
    ("`seat_agree` a signature of 63 bytes", _map(t="seat_agree", segment=SEGMENT, sig=bytes(63))),
    ("`seat_decline` retry `yes`", _map(t="seat_decline", segment=SEGMENT, why="no", retry="yes")),
    (
        "`seat_closed` why with a line break",
        _map(t="seat_closed", segment=SEGMENT, why="a\nb", sig=bytes(64)),
    ),
    (
        "`seat_reclaim` segment of 15 bytes",
        _map(t="seat_reclaim", segment=bytes(15), nonce=NONCES[3]),
    ),
    ("`seat_record` an empty record", _map(t="seat_record", index=0, record=b"")),
    ("`seat_chain` start -1", _map(t="seat_chain", start=-1)),
    ("`seat_offer` a first segment's table (no `after`)", b""),
]
"""Payloads a receiver refuses (logged, the connection kept): what is wrong, the bytes."""


def refused() -> list[dict[str, Any]]:
    rows = []
    for what, payload in REFUSED:
        payload = payload or _seat_offer_without_after()
        kind, got = read(payload)
        if kind != "refused":
            raise AssertionError(f"control payload {what!r} was taken")
        where, reason = got
        rows.append({"path": what, "payload": payload.hex(), "where": where, "reason": reason})
    return rows


def plan(*, auto: bool = False) -> lb.SeatingPlan:
    """The host's lobby: a Belka table, classic; ``auto``: every joiner seated, ready."""
    host = lb.Sitter(key(HOST_SEED), "Host", "", PORT, NONCES[0])
    seating = lb.SeatingPlan(TABLE_ID, "Kitchen table", "classic", {}, host, variant=GAME)
    if auto:
        for n, seed in enumerate(JOINER_SEEDS):
            hello = lb.Hello(NAMES[n + 1], "", PORT + 1 + n, NONCES[n + 1])
            seating.sit(key(seed), hello, f"10.77.0.{n + 2}")
            seating.set_ready(key(seed), True)
    return seating


def signer(seed: int) -> Signer:
    return Signer.from_seed(bytes([seed]) * 32)
