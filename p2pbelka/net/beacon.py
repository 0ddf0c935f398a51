"""The discovery beacon's format, sans-IO: a table's announcement as signed bytes.

``encode_beacon`` makes the datagram a host multicasts, ``decode_beacon`` parses and
verifies one (``protocol/transport.md`` 5 is the format).  No sockets and no clock:
the directory (``directory.py``) keeps what the beacons say, the trio edge
(``discovery.py``) sends and receives them.  Every datagram costs bounded work: size
and header checks first, one small msgpack decode, at most one signature check
(``parse_beacon`` and ``signature_ok`` apart, so a listener can drop a replay before
the signature).
"""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from typing import NoReturn, TypeVar

import msgpack

from .errors import BeaconError
from .handshake import PROTOCOL_VERSION
from .identity import Identity, is_sound_key, verify_signature

__all__ = [
    "MAX_BEACON_SIZE",
    "MAX_NAME_CHARS",
    "MAX_WATCH",
    "TABLE_ID_SIZE",
    "Beacon",
    "TableAd",
    "decode_beacon",
    "encode_beacon",
    "new_table_id",
    "parse_beacon",
    "signature_ok",
    "validate_ad",
]

T = TypeVar("T", int, str, bytes)

MAGIC = b"PBKB"
SIGNATURE_PREFIX = b"p2pbelka/v1 beacon"
HEADER_SIZE = len(MAGIC) + 1 + 64
# Small enough never to be fragmented on an ordinary LAN.
MAX_BEACON_SIZE = 1200

TABLE_ID_SIZE = 16
MAX_NAME_CHARS = 40
MAX_VARIANT_CHARS = 16
MIN_SEATS = 2
MAX_SEATS = 8
MAX_WATCH = 255
"""Watcher places a beacon may announce."""
U63 = 2**63 - 1


def new_table_id() -> bytes:
    return secrets.token_bytes(TABLE_ID_SIZE)


@dataclass(frozen=True)
class TableAd:
    """What a host says about its table. ``address=""`` lets listeners use the
    beacon's source address, which is right unless the host is behind
    something odd; set it when the host has several interfaces."""

    table_id: bytes
    name: str
    variant: str
    seats: int
    free_seats: int
    port: int
    address: str = ""
    watch: int = 0
    """Places left for watchers (0: the host takes none now); sent only when above 0."""


@dataclass(frozen=True)
class Beacon:
    """A decoded, signature-checked announcement."""

    ad: TableAd
    host_key: bytes
    seq: int
    timestamp_ms: int
    version: int = PROTOCOL_VERSION


def validate_ad(ad: TableAd) -> None:
    if len(ad.table_id) != TABLE_ID_SIZE:
        raise BeaconError(f"table id must be {TABLE_ID_SIZE} bytes")
    for label, text, limit in (
        ("name", ad.name, MAX_NAME_CHARS),
        ("variant", ad.variant, MAX_VARIANT_CHARS),
    ):
        # Names are shown in terminals: control characters could rewrite the screen.
        if not 1 <= len(text) <= limit or not text.isprintable():
            raise BeaconError(f"{label} must be 1..{limit} printable characters")
    if not MIN_SEATS <= ad.seats <= MAX_SEATS or not 0 <= ad.free_seats <= ad.seats:
        raise BeaconError(f"bad seat counts {ad.free_seats}/{ad.seats}")
    if not 1 <= ad.port <= 65535:
        raise BeaconError(f"bad port {ad.port}")
    if not 0 <= ad.watch <= MAX_WATCH:
        raise BeaconError(f"bad watcher places {ad.watch}")
    if ad.address:
        try:
            ipaddress.ip_address(ad.address)
        except ValueError:
            raise BeaconError(f"bad address {ad.address!r}") from None


def _signed_bytes(header: bytes, body: bytes) -> bytes:
    return SIGNATURE_PREFIX + header + body


def encode_beacon(identity: Identity, ad: TableAd, seq: int, timestamp_ms: int) -> bytes:
    """The datagram: ``MAGIC | version | signature(64) | msgpack body``."""
    validate_ad(ad)
    fields = {
        "id": ad.table_id,
        "name": ad.name,
        "variant": ad.variant,
        "seats": ad.seats,
        "free": ad.free_seats,
        "addr": ad.address,
        "port": ad.port,
        "key": identity.public_key,
        "seq": seq,
        "ts": timestamp_ms,
    }
    if ad.watch:  # a listener of an earlier version ignores the key (transport.md 5.1)
        fields["watch"] = ad.watch
    body = msgpack.packb(fields, use_bin_type=True)
    header = MAGIC + bytes([PROTOCOL_VERSION])
    datagram: bytes = header + identity.sign(_signed_bytes(header, body)) + body
    if len(datagram) > MAX_BEACON_SIZE:
        raise BeaconError(f"beacon of {len(datagram)} bytes exceeds {MAX_BEACON_SIZE}")
    return datagram


def _field(body: dict[object, object], key: str, kind: type[T]) -> T:
    value = body.get(key)
    # bool is an int subclass; a beacon saying seats=True is malformed, not 1.
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BeaconError(f"field {key!r} missing or not {kind.__name__}")
    return value


def parse_beacon(datagram: bytes) -> Beacon:
    """Structure and field checks only; the signature is checked by the caller."""
    if len(datagram) > MAX_BEACON_SIZE:
        raise BeaconError("datagram too large")
    if len(datagram) <= HEADER_SIZE or datagram[:4] != MAGIC:
        raise BeaconError("not a p2pbelka beacon")
    if datagram[4] != PROTOCOL_VERSION:
        raise BeaconError(f"beacon of protocol version {datagram[4]}")
    try:
        # Strict map keys, no ext types: only what the spec allows gets through.
        body = msgpack.unpackb(
            datagram[HEADER_SIZE:],
            raw=False,
            strict_map_key=True,
            ext_hook=_reject_ext,
            max_array_len=0,
            max_map_len=32,
        )
    except Exception as exc:  # untrusted bytes: any decoder complaint means "malformed"
        raise BeaconError(f"undecodable beacon body: {type(exc).__name__}") from None
    if not isinstance(body, dict):
        raise BeaconError("beacon body is not a map")
    key = _field(body, "key", bytes)
    if not is_sound_key(key):
        raise BeaconError("host key is not a usable Ed25519 key")
    seq = _field(body, "seq", int)
    ts = _field(body, "ts", int)
    if not (0 <= seq <= U63 and 0 <= ts <= U63):
        raise BeaconError("seq/ts out of range")
    ad = TableAd(
        table_id=_field(body, "id", bytes),
        name=_field(body, "name", str),
        variant=_field(body, "variant", str),
        seats=_field(body, "seats", int),
        free_seats=_field(body, "free", int),
        port=_field(body, "port", int),
        address=_field(body, "addr", str),
        watch=_field(body, "watch", int) if "watch" in body else 0,
    )
    validate_ad(ad)
    return Beacon(ad=ad, host_key=key, seq=seq, timestamp_ms=ts)


def _reject_ext(code: int, data: bytes) -> NoReturn:
    raise BeaconError("extension types are not allowed in beacons")


def signature_ok(datagram: bytes, host_key: bytes) -> bool:
    header, sig, body = datagram[:5], datagram[5:HEADER_SIZE], datagram[HEADER_SIZE:]
    return verify_signature(host_key, sig, _signed_bytes(header, body))


def decode_beacon(datagram: bytes) -> Beacon:
    """Parse and verify one datagram; :class:`BeaconError` if it is not a valid beacon."""
    beacon = parse_beacon(datagram)
    if not signature_ok(datagram, beacon.host_key):
        raise BeaconError("beacon signature does not verify")
    return beacon
