"""The tables a listener has heard of, sans-IO: plain state fed beacons and times.

``TableDirectory`` takes datagrams with their source address and the time (it never
reads a clock or a socket: ``discovery.listen_for_tables`` feeds it), checks them
with ``beacon.py`` and keeps one entry per (table id, host key).  ``look_alikes`` and
``matching_tables`` read the list as a person would (``names.py`` folds the names).
DNS-SD records come in as hints (``TableDirectory.hint``), listed only where no signed
beacon names the same table and key.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from .beacon import parse_beacon, signature_ok
from .errors import BeaconError
from .identity import fingerprint
from .names import name_key

__all__ = [
    "DEFAULT_HINT_LIFETIME",
    "DEFAULT_STALE_AFTER",
    "EntryKey",
    "TableDirectory",
    "TableInfo",
    "look_alikes",
    "matching_tables",
    "shown",
]

DEFAULT_STALE_AFTER = 3.0
DEFAULT_HINT_LIFETIME = 120.0
"""Seconds a DNS-SD hint is listed after it was last resolved (records are resolved
once, not every few seconds like beacons)."""
DEFAULT_MAX_TABLES = 256
DEFAULT_MAX_PER_KEY = 4
DEFAULT_MAX_PER_SOURCE = 16
DEFAULT_MAX_SKEW_MS = 3_600_000
"""Beacons signed more than an hour off the listener's clock are dropped."""


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
        hint_lifetime: float = DEFAULT_HINT_LIFETIME,
    ) -> None:
        self.stale_after = stale_after
        self.hint_lifetime = hint_lifetime
        self._hints: dict[EntryKey, TableInfo] = {}
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
            beacon = parse_beacon(datagram)
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
        if not signature_ok(datagram, beacon.host_key):
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

    def hint(self, table: TableInfo) -> None:
        """Keep a table heard by DNS-SD (unsigned: ``via="dns-sd"``), as of its
        ``last_seen``.  At most ``max_tables`` are kept, the longest unheard dropped."""
        key = (table.table_id, table.host_key)
        self._hints.pop(key, None)
        if len(self._hints) >= self.max_tables:
            del self._hints[next(iter(self._hints))]
        self._hints[key] = table  # insertion order: last heard last

    def listed(self, now: float) -> list[TableInfo]:
        """What a joiner's list shows: the signed tables (as :meth:`tables`), then the
        DNS-SD hints no signed beacon names (same table id and key), whichever was
        heard first: a table heard both ways is shown signed once its beacon checks."""
        for key in [k for k, t in self._hints.items() if now - t.last_seen > self.hint_lifetime]:
            del self._hints[key]
        signed = self.tables(now)
        keys = {(t.table_id, t.host_key) for t in signed}
        extra = [t for k, t in sorted(self._hints.items()) if k not in keys]
        return signed + extra

    def get(self, table_id: bytes, host_key: bytes, now: float) -> TableInfo | None:
        self.expire(now)
        return self._tables.get((table_id, host_key))


def shown(table: TableInfo) -> tuple[object, ...]:
    """What a list shows of a table: when any of it changes, the list is redrawn.
    ``via`` is part of it, so a hint replaced by its signed beacon is redrawn signed."""
    return (
        table.table_id,
        table.host_key,
        table.via,
        table.free_seats,
        table.host,
        table.port,
        table.variant,
        table.seats,
        table.watch,
    )


def look_alikes(tables: list[TableInfo]) -> set[EntryKey]:
    """The entries a person could mistake for another host's: a name that reads the
    same, or the same table id, under a different host key.  Screens list these with
    their fingerprints and a warning."""
    keys_by_label: dict[str | bytes, set[bytes]] = collections.defaultdict(set)
    for t in tables:
        keys_by_label[name_key(t.name)].add(t.host_key)
        keys_by_label[t.table_id].add(t.host_key)
    return {
        (t.table_id, t.host_key)
        for t in tables
        if len(keys_by_label[name_key(t.name)]) > 1 or len(keys_by_label[t.table_id]) > 1
    }


def matching_tables(tables: list[TableInfo], wanted: str) -> list[TableInfo]:
    """Tables whose name reads as ``wanted``, or whose host fingerprint is ``wanted``."""
    label = name_key(wanted)
    compact = "".join(wanted.split()).lower()
    return [
        t
        for t in tables
        if name_key(t.name) == label or "".join(fingerprint(t.host_key).split()) == compact
    ]
