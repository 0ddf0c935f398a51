"""Exchange vector of the beacon listener's cap of 256 tables (transport.md section
5.2, rule 6), which ``beacons.json`` has no room for: 257 distinct tables.

64 keys each announce 4 tables (the cap a key) from 16 source addresses, 16 tables
each (the cap a source): the first at 0 s, the other 255 at 1 s; all 256 are listed.
A 257th table, of a 65th key from a 17th source (so that only the list's cap can
refuse it), at 2 s: ignored, the list holds 256 (``full``).  A refresh of a listed
table at 2 s: taken (a refresh is no new entry).  The 257th again at 3.5 s, its
``seq`` one more: the first table, silent since 0 s, went stale at 3 s and is dropped
first, so the 257th is listed in its place.  The list at 3.5 s: 256 tables, the
first one not among them, the 257th among them.
"""

from __future__ import annotations

from typing import Any

from p2pbelka.bench.exchange_beacons import WALL, beacon, identity, replay_beacons

FIRST_SEED = 0x80
KEYS, TABLES_A_KEY, TABLES_A_SOURCE = 64, 4, 16


def _table_id(n: int) -> bytes:
    return bytes([0xCA, n >> 8, n & 0xFF]) + bytes(13)


def _source(n: int) -> str:
    return f"10.77.1.{n // TABLES_A_SOURCE + 1}"


def _beacon(n: int, seq: int, now: float) -> bytes:
    """Table ``n``'s beacon: key ``n // 4``, signed at the listener's wall clock."""
    seed = FIRST_SEED + n // TABLES_A_KEY
    return beacon(seed, seq, WALL + round(now * 1000), table_id=_table_id(n), address="")


def _row(n: int, seq: int, now: float, outcome: str) -> dict[str, Any]:
    datagram = _beacon(n, seq, now)
    return {"table": n, "datagram": datagram.hex(), "source": _source(n), "now": now} | {
        "outcome": outcome,
        "rule": 6 if outcome == "full" else 8,
    }


def beacon_cap() -> dict[str, Any]:
    last = KEYS * TABLES_A_KEY  # the 257th table's number
    steps = [_row(0, 1000, 0.0, "accepted")]
    steps += [_row(n, 1000, 1.0, "accepted") for n in range(1, last)]
    steps += [_row(last, 1000, 2.0, "full"), _row(1, 1001, 2.0, "accepted")]
    steps += [_row(last, 1001, 3.5, "accepted")]
    got = replay_beacons(steps, 3.5)
    if got["outcomes"] != [s["outcome"] for s in steps]:
        raise AssertionError(f"beacon cap: {got['outcomes']}")
    listed = {(t["id"], t["key"]) for t in got["listed"]}
    first = (_table_id(0).hex(), identity(FIRST_SEED).public_key.hex())
    newest = (_table_id(last).hex(), identity(FIRST_SEED + KEYS).public_key.hex())
    return {
        "about": "transport.md section 5.2, rule 6's cap of 256 tables: the datagrams "
        "fed in order to a fresh listener (its wall clock "
        f"{WALL} ms plus `now`), as in beacons.json; table n's key is seed "
        f"0x{FIRST_SEED:02x} + n // 4 (x 32), its id ca, n as two bytes, 13 zero bytes, "
        "its source 10.77.1.(n // 16 + 1), `addr` empty.  Tables 0 to 255 (0 at 0 s, "
        "the rest at 1 s) fill the list to 4 a key, 16 a source, 256 in all; table 256 "
        "(a 65th key, a 17th source) at 2 s is ignored (`full`); table 1 refreshed at "
        "2 s is taken (no new entry); table 256 again at 3.5 s is listed, table 0 "
        "(silent for more than 3 s) dropped first.  `listed` is the count at 3.5 s",
        "steps": steps,
        "at": 3.5,
        "listed": len(got["listed"]),
        "first_listed": first in listed,
        "newest_listed": newest in listed,
        "newest": entry_of(got["listed"], newest),
    }


def entry_of(listed: list[dict[str, Any]], which: tuple[str, str]) -> dict[str, Any] | None:
    return next((t for t in listed if (t["id"], t["key"]) == which), None)
