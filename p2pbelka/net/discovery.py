"""LAN discovery: signed UDP multicast beacons for tables waiting for players.

A host announces its table a few times a second; a joining player listens
and keeps a list of tables it has heard recently. Beacons are signed with the
host's identity key so a listing cannot be forged in another host's name,
but they are public: anyone on the LAN may read them.

Parsing is sans-IO (:func:`encode_beacon`, :func:`decode_beacon`,
:class:`TableDirectory`); only :func:`announce_table` and
:func:`listen_for_tables` touch sockets. Every datagram costs bounded work:
size and header checks first, one small msgpack decode, at most one signature
check, and replays of a beacon already seen are dropped before the signature.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import ipaddress
import logging
import secrets
import socket as stdlib_socket
import struct
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import msgpack
import trio

from .errors import BeaconError
from .handshake import PROTOCOL_VERSION
from .identity import Identity, fingerprint, is_sound_key, verify_signature

__all__ = [
    "DEFAULT_GROUP",
    "DEFAULT_GROUP6",
    "DEFAULT_INTERVAL",
    "DEFAULT_PORT",
    "DEFAULT_STALE_AFTER",
    "MAX_BEACON_SIZE",
    "Beacon",
    "TableAd",
    "TableDirectory",
    "TableInfo",
    "announce_table",
    "decode_beacon",
    "encode_beacon",
    "listen_for_tables",
    "look_alikes",
    "matching_tables",
    "new_table_id",
]

log = logging.getLogger(__name__)

DEFAULT_GROUP = "239.255.42.99"  # organisation-local scope (RFC 2365)
DEFAULT_GROUP6 = "ff02::7062:6b62"  # link-local scope: every host on the LAN segment
DEFAULT_PORT = 47474
DEFAULT_INTERVAL = 0.3
DEFAULT_STALE_AFTER = 3.0
DEFAULT_MAX_TABLES = 256
DEFAULT_MAX_PER_KEY = 4
DEFAULT_MAX_PER_SOURCE = 16
DEFAULT_MAX_SKEW_MS = 3_600_000
"""Beacons signed more than an hour off the listener's clock are dropped."""

MAGIC = b"PBKB"
SIGNATURE_PREFIX = b"p2pbelka/v1 beacon"
HEADER_SIZE = len(MAGIC) + 1 + 64
# Small enough never to be fragmented on an ordinary LAN.
MAX_BEACON_SIZE = 1200

TABLE_ID_SIZE = 16
MAX_NAME_CHARS = 40
MAX_VARIANT_CHARS = 16
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


@dataclass(frozen=True)
class TableInfo:
    """One entry of the table list a joining player sees."""

    table_id: bytes
    name: str
    variant: str
    seats: int
    free_seats: int
    host: str
    """Where to connect: the advertised address, else the beacon's source address."""
    port: int
    host_key: bytes
    seq: int
    last_seen: float
    source: str = ""
    """The datagram's source address (unsigned: a hint only)."""
    address_signed: bool = False
    """True when ``host`` came from inside the signed beacon, not from the datagram."""
    via: str = "beacon"
    """"beacon" (signed, checked) or "dns-sd" (a hint: the handshake proves the key)."""
    watch: int = 0
    """Places left for watchers (a full or playing table may still be watched)."""

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)


def _validate_ad(ad: TableAd) -> None:
    if len(ad.table_id) != TABLE_ID_SIZE:
        raise BeaconError(f"table id must be {TABLE_ID_SIZE} bytes")
    for label, text, limit in (
        ("name", ad.name, MAX_NAME_CHARS),
        ("variant", ad.variant, MAX_VARIANT_CHARS),
    ):
        # Names are shown in terminals: control characters could rewrite the screen.
        if not 1 <= len(text) <= limit or not text.isprintable():
            raise BeaconError(f"{label} must be 1..{limit} printable characters")
    if not 2 <= ad.seats <= MAX_SEATS or not 0 <= ad.free_seats <= ad.seats:
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
    _validate_ad(ad)
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


def _field(body: dict[Any, Any], key: str, kind: type) -> Any:
    value = body.get(key)
    # bool is an int subclass; a beacon saying seats=True is malformed, not 1.
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BeaconError(f"field {key!r} missing or not {kind.__name__}")
    return value


def _parse(datagram: bytes) -> Beacon:
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
    _validate_ad(ad)
    return Beacon(ad=ad, host_key=key, seq=seq, timestamp_ms=ts)


def _reject_ext(code: int, data: bytes) -> NoReturn:
    raise BeaconError("extension types are not allowed in beacons")


def _signature_ok(datagram: bytes, host_key: bytes) -> bool:
    header, sig, body = datagram[:5], datagram[5:HEADER_SIZE], datagram[HEADER_SIZE:]
    return verify_signature(host_key, sig, _signed_bytes(header, body))


def decode_beacon(datagram: bytes) -> Beacon:
    """Parse and verify one datagram; :class:`BeaconError` if it is not a valid beacon."""
    beacon = _parse(datagram)
    if not _signature_ok(datagram, beacon.host_key):
        raise BeaconError("beacon signature does not verify")
    return beacon


EntryKey = tuple[bytes, bytes]
"""A directory entry's key: (table id, host key).  Two hosts may use one table id."""


@dataclass
class _Heard:
    """What a listener keeps of a table after its entry goes stale."""

    seq: int
    lag: int | None
    """The least (listener's wall clock - signed time) seen, in ms."""


class TableDirectory:
    """The tables heard recently, keyed by (table id, host key).  Sans-IO: pass the time in.

    A validly signed beacon is never dropped because another key used its table id
    first: a stranger who re-signs a public beacon gets an entry of his own, shown
    beside the real one (see :func:`look_alikes`), never in its place.  Beacons with a
    sequence number not above the entry's last are replays and are dropped before the
    signature check.  Entries are capped per host key and per source address, so one
    sender cannot fill the list and hide the tables of everyone else, and beacons
    whose signed time is more than ``max_skew_ms`` off the listener's clock (a
    capture played back hours later, or a host whose clock is wrong) are dropped.

    A table's last sequence number and the least lag of its signed time behind the
    listener's clock are remembered after its entry goes stale (``remembered``
    entries at most), so a capture played back after the table fell silent is
    dropped: its sequence number is not above the last heard, or its time lags
    more than ``stale_after`` behind what the table's own beacons showed (a table
    that announced every 0.3 s cannot send a beacon older than that, live).
    """

    def __init__(
        self,
        stale_after: float = DEFAULT_STALE_AFTER,
        max_tables: int = DEFAULT_MAX_TABLES,
        *,
        max_per_key: int = DEFAULT_MAX_PER_KEY,
        max_per_source: int = DEFAULT_MAX_PER_SOURCE,
        max_skew_ms: int = DEFAULT_MAX_SKEW_MS,
        remembered: int = 4 * DEFAULT_MAX_TABLES,
    ) -> None:
        self.stale_after = stale_after
        self.remembered = remembered
        self._heard: dict[EntryKey, _Heard] = {}
        self.max_tables = max_tables
        self.max_per_key = max_per_key
        self.max_per_source = max_per_source
        self.max_skew_ms = max_skew_ms
        self._tables: dict[EntryKey, TableInfo] = {}
        self.stats: collections.Counter[str] = collections.Counter()

    def handle_datagram(
        self, datagram: bytes, source: str, now: float, wall_ms: int | None = None
    ) -> TableInfo | None:
        """Take one datagram from ``source`` (an IP address); never raises on bad input.

        ``now`` is a monotonic time in seconds; ``wall_ms`` the listener's wall clock in
        milliseconds (None skips the freshness check: replayed test data).  Returns the
        new or refreshed entry, or None if the datagram was ignored (``stats`` says why).
        """
        try:
            beacon = _parse(datagram)
        except BeaconError:
            self.stats["malformed"] += 1
            return None
        if wall_ms is not None and abs(beacon.timestamp_ms - wall_ms) > self.max_skew_ms:
            self.stats["off_clock"] += 1
            return None
        ad = beacon.ad
        entry_key = (ad.table_id, beacon.host_key)
        known = self._tables.get(entry_key)
        if known is not None and now - known.last_seen > self.stale_after:
            del self._tables[entry_key]
            known = None
        heard = self._heard.get(entry_key)
        if heard is not None and beacon.seq <= heard.seq:
            self.stats["replayed"] += 1
            return None
        lag = None if wall_ms is None else wall_ms - beacon.timestamp_ms
        if heard is not None and lag is not None and heard.lag is not None:
            if lag - heard.lag > self.stale_after * 1000:
                self.stats["old"] += 1
                return None
        if known is None:
            refusal = self._no_room(beacon.host_key, source, now)
            if refusal:
                self.stats[refusal] += 1
                return None
        if not _signature_ok(datagram, beacon.host_key):
            self.stats["bad_signature"] += 1
            return None
        info = TableInfo(
            table_id=ad.table_id,
            name=ad.name,
            variant=ad.variant,
            seats=ad.seats,
            free_seats=ad.free_seats,
            host=ad.address or source,
            port=ad.port,
            host_key=beacon.host_key,
            seq=beacon.seq,
            last_seen=now,
            source=source,
            address_signed=bool(ad.address),
            watch=ad.watch,
        )
        self._tables[entry_key] = info
        self._remember(entry_key, beacon.seq, lag)
        self.stats["accepted"] += 1
        return info

    def _remember(self, entry_key: EntryKey, seq: int, lag: int | None) -> None:
        heard = self._heard.pop(entry_key, None)
        least = lag if heard is None or heard.lag is None else heard.lag
        if lag is not None and least is not None:
            least = min(least, lag)
        if len(self._heard) >= self.remembered:  # the longest silent is forgotten first
            del self._heard[next(iter(self._heard))]
        self._heard[entry_key] = _Heard(seq, least)  # insertion order: last heard last

    def _no_room(self, host_key: bytes, source: str, now: float) -> str:
        """Why a new entry cannot be added ("" if it can), stale entries dropped first."""
        self.expire(now)
        entries = self._tables.values()
        if sum(1 for t in entries if t.host_key == host_key) >= self.max_per_key:
            return "key_full"
        if sum(1 for t in entries if t.source == source) >= self.max_per_source:
            return "source_full"
        if len(self._tables) >= self.max_tables:
            return "full"
        return ""

    def expire(self, now: float) -> list[TableInfo]:
        """Drop and return entries not heard from for ``stale_after`` seconds."""
        gone = [t for t in self._tables.values() if now - t.last_seen > self.stale_after]
        for t in gone:
            del self._tables[(t.table_id, t.host_key)]
        return gone

    def tables(self, now: float) -> list[TableInfo]:
        """Current entries, by name then host key, stale ones removed."""
        self.expire(now)
        return sorted(self._tables.values(), key=lambda t: (t.name, t.host_key))

    def get(self, table_id: bytes, host_key: bytes, now: float) -> TableInfo | None:
        self.expire(now)
        return self._tables.get((table_id, host_key))


# Cyrillic letters drawn like Latin ones: "Кitchen" must not pass for "Kitchen".
_LOOK_ALIKE = str.maketrans("аеорсухкмтвнії", "aeopcyxkmtbhii")


def _name_key(name: str) -> str:
    """What a person reads in a name: case, spacing and common look-alike letters folded."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKE)
    return " ".join(folded.split())


def look_alikes(tables: list[TableInfo]) -> set[EntryKey]:
    """The entries a person could mistake for another host's: a name that reads the
    same, or the same table id, under a different host key.  Screens list these with
    their fingerprints and a warning."""
    keys_by_label: dict[str | bytes, set[bytes]] = collections.defaultdict(set)
    for t in tables:
        keys_by_label[_name_key(t.name)].add(t.host_key)
        keys_by_label[t.table_id].add(t.host_key)
    return {
        (t.table_id, t.host_key)
        for t in tables
        if len(keys_by_label[_name_key(t.name)]) > 1 or len(keys_by_label[t.table_id]) > 1
    }


def matching_tables(tables: list[TableInfo], wanted: str) -> list[TableInfo]:
    """Tables whose name reads as ``wanted``, or whose host fingerprint is ``wanted``."""
    label = _name_key(wanted)
    compact = "".join(wanted.split()).lower()
    return [
        t
        for t in tables
        if _name_key(t.name) == label or "".join(fingerprint(t.host_key).split()) == compact
    ]


def local_address_towards(group: str, port: int) -> str:
    """The address this host sends from towards ``group`` ("" if there is no route):
    what goes into the signed beacon, so joiners dial what the host signed rather than
    the datagram's unsigned source."""
    family = stdlib_socket.AF_INET6 if ":" in group else stdlib_socket.AF_INET
    try:
        with stdlib_socket.socket(family, stdlib_socket.SOCK_DGRAM) as probe:
            probe.connect((group, port))  # UDP: picks a route, sends nothing
            address = str(probe.getsockname()[0])
    except OSError:
        return ""
    return address.split("%", 1)[0]


def _own_address(group: str, port: int, interface: str | None) -> str:
    """The address to sign into beacons.  An IPv6 link-local address is left out: its
    scope means nothing on the listener's machine, which uses the datagram's source
    with its own scope instead."""
    if interface is not None and _family(group) == stdlib_socket.AF_INET:
        return interface
    address = local_address_towards(group, port)
    if not address or ipaddress.ip_address(address).is_link_local:
        return ""
    return address


def _is_multicast(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_multicast
    except ValueError:
        return False


def _family(group: str) -> int:
    return stdlib_socket.AF_INET6 if ":" in group else stdlib_socket.AF_INET


def _scope_index(address: str | None) -> int:
    """The interface index an IPv6 ``interface`` names: ``fe80::1%eth0`` or ``eth0``
    (0, the kernel's choice, when it names none)."""
    if not address:
        return 0
    name = address.rsplit("%", 1)[1] if "%" in address else address
    if name.isdigit():
        return int(name)
    if ":" in name or "." in name:
        return 0
    try:
        return stdlib_socket.if_nametoindex(name)
    except OSError:
        return 0


def _group_sockaddr(group: str, port: int, interface: str | None) -> tuple[Any, ...]:
    if _family(group) == stdlib_socket.AF_INET6:
        return (group, port, 0, _scope_index(interface))
    return (group, port)


async def _sender(group: str, interface: str | None, ttl: int) -> trio.socket.SocketType:
    sock = trio.socket.socket(_family(group), trio.socket.SOCK_DGRAM)
    if _family(group) == stdlib_socket.AF_INET6:
        sock.setsockopt(trio.socket.IPPROTO_IPV6, trio.socket.IPV6_MULTICAST_HOPS, ttl)
        sock.setsockopt(trio.socket.IPPROTO_IPV6, trio.socket.IPV6_MULTICAST_LOOP, 1)
        index = _scope_index(interface)
        if index:
            sock.setsockopt(trio.socket.IPPROTO_IPV6, trio.socket.IPV6_MULTICAST_IF, index)
        return sock
    sock.setsockopt(trio.socket.IPPROTO_IP, trio.socket.IP_MULTICAST_TTL, ttl)
    # Loop on, so a player on the host's own machine hears the table too.
    sock.setsockopt(trio.socket.IPPROTO_IP, trio.socket.IP_MULTICAST_LOOP, 1)
    if interface is not None:
        await sock.bind((interface, 0))
        sock.setsockopt(
            trio.socket.IPPROTO_IP, trio.socket.IP_MULTICAST_IF, stdlib_socket.inet_aton(interface)
        )
    return sock


async def announce_table(
    identity: Identity,
    ad: TableAd | Callable[[], TableAd],
    *,
    group: str = DEFAULT_GROUP,
    port: int = DEFAULT_PORT,
    interface: str | None = None,
    interval: float = DEFAULT_INTERVAL,
    ttl: int = 1,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Send a beacon every ``interval`` seconds until cancelled.

    ``ad`` may be a callable, read before each beacon, so free seats stay
    current. ``group`` may also be a unicast address (where multicast is
    blocked, or in tests), and may be IPv6 (:data:`DEFAULT_GROUP6` on a LAN
    without IPv4). ``interface`` is the local IPv4 address to send from, or for
    IPv6 the interface (``eth0``, or an address with its scope, ``fe80::1%eth0``);
    by default the kernel picks by its multicast route.
    """
    given = ad if callable(ad) else (lambda: ad)
    own_address = _own_address(group, port, interface)

    def get_ad() -> TableAd:
        current = given()
        if current.address or not own_address:
            return current
        return dataclasses.replace(current, address=own_address)

    # Wall-clock milliseconds as the first sequence number keeps seq rising
    # across restarts of the sender, so listeners never mistake it for a replay.
    seq = time.time_ns() // 1_000_000
    destination = _group_sockaddr(group, port, interface)
    with await _sender(group, interface, ttl) as sock:
        # Encode once before reporting started, so a bad ad fails at the call site.
        datagram = encode_beacon(identity, get_ad(), seq, time.time_ns() // 1_000_000)
        task_status.started()
        last_error = ""
        while True:
            try:
                await sock.sendto(datagram, destination)
                last_error = ""
            except OSError as exc:
                # No route yet (cable out, no 224/4 route): keep trying, log once.
                if str(exc) != last_error:
                    log.warning("cannot send beacon to %s:%d: %s", group, port, exc)
                    last_error = str(exc)
            await trio.sleep(interval)
            seq += 1
            datagram = encode_beacon(identity, get_ad(), seq, time.time_ns() // 1_000_000)


def _scoped(source: tuple[Any, ...]) -> str:
    """A datagram's source address; a link-local IPv6 one with its scope (the interface
    it came in on), without which it cannot be dialled."""
    host = str(source[0])
    if len(source) >= 4 and source[3] and "%" not in host and host.lower().startswith("fe80:"):
        try:
            return f"{host}%{stdlib_socket.if_indextoname(source[3])}"
        except OSError:
            return f"{host}%{source[3]}"
    return host


def _join_group(sock: trio.socket.SocketType, group: str, interface: str | None) -> None:
    if _family(group) == stdlib_socket.AF_INET6:
        mreq6 = stdlib_socket.inet_pton(stdlib_socket.AF_INET6, group) + struct.pack(
            "@I", _scope_index(interface)
        )
        sock.setsockopt(trio.socket.IPPROTO_IPV6, trio.socket.IPV6_JOIN_GROUP, mreq6)
        return
    mreq = struct.pack(
        "4s4s", stdlib_socket.inet_aton(group), stdlib_socket.inet_aton(interface or "0.0.0.0")
    )
    sock.setsockopt(trio.socket.IPPROTO_IP, trio.socket.IP_ADD_MEMBERSHIP, mreq)


async def listen_for_tables(
    directory: TableDirectory,
    *,
    group: str = DEFAULT_GROUP,
    port: int = DEFAULT_PORT,
    interface: str | None = None,
    bind_address: str = "",
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Receive beacons into ``directory`` until cancelled.

    Use ``port = await nursery.start(listen_for_tables, directory, ...)``; the
    bound port is reported (useful with ``port=0`` in tests). Several
    listeners on one host can share the port. ``interface`` is the local
    address whose interface joins the group (default: the kernel's choice).
    Raises :class:`OSError` before starting if the group cannot be joined
    (e.g. no multicast-capable interface); the caller may then fall back to
    unicast or to an address typed by hand.
    """
    family = _family(group)
    with trio.socket.socket(family, trio.socket.SOCK_DGRAM) as sock:
        sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_REUSEADDR, 1)
        if hasattr(trio.socket, "SO_REUSEPORT"):
            with contextlib.suppress(OSError):
                sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_REUSEPORT, 1)
        if family == stdlib_socket.AF_INET6:
            await sock.bind((bind_address or "::", port))
        else:
            await sock.bind((bind_address, port))
        if _is_multicast(group):
            _join_group(sock, group, interface)
        task_status.started(sock.getsockname()[1])
        while True:
            try:
                # One byte over the limit tells an oversize datagram from one at the limit.
                data, source = await sock.recvfrom(MAX_BEACON_SIZE + 1)
            except OSError as exc:
                # Transient socket errors (e.g. a queued ICMP error) must not end
                # discovery; the pause keeps a persistent one from spinning.
                log.warning("beacon listener: %s", exc)
                await trio.sleep(0.1)
                continue
            wall_ms = time.time_ns() // 1_000_000
            directory.handle_datagram(data, _scoped(source), trio.current_time(), wall_ms)
