"""Exchange vectors of discovery: the beacon listener's rules (transport.md section 5.2).

``beacons()`` gives cases of transport.md section 5.2: datagrams fed in order to a
fresh listener (``TableDirectory``, the reference's sans-IO list), each with the rule
that takes or ignores it, and the list a joiner sees at the end (``exchange_dnssd.py``
shares its host).  Every expected outcome is written here, by the case, and checked
against the real code when the vectors are made (``exchange_vectors.py``), and again
when the suite replays the file: a case that stops taking its path fails.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgpack

from p2pbelka.net.beacon import MAGIC, SIGNATURE_PREFIX, TableAd, encode_beacon
from p2pbelka.net.directory import TableDirectory, TableInfo
from p2pbelka.net.identity import Identity
from p2pbelka.rules import registry as _rules

GAME = _rules.names()[0]
"""The table's game in these vectors: the first registered (the wire is the same for each)."""
HOST_SEED = 0x03
"""transport.md section 8.2's host."""
OTHER_SEED = 0x04
TABLE_ID = bytes(range(16))
WALL = 1_700_000_000_000
"""The listener's wall clock (ms) at ``now`` 0; each step's clock is this plus ``now``."""
SOURCE = "10.77.0.1"
AD = TableAd(TABLE_ID, "Kitchen table", GAME, 4, 3, 5000, "10.77.0.1")
NEUTRAL = bytes([1]) + bytes(31)

RULES = {
    "off_clock": 4,
    "replayed": 5,
    "old": 5,
    "key_full": 6,
    "source_full": 6,
    "full": 6,
    "bad_signature": 7,
    "accepted": 8,
}
"""transport.md section 5.2's rule behind each outcome (``malformed`` is rule 1, 2 or 3:
the case says which)."""


def identity(seed: int) -> Identity:
    return Identity.from_seed(bytes([seed]) * 32)


def beacon(seed: int = HOST_SEED, seq: int = 1000, ts: int = WALL, **changes: Any) -> bytes:
    return encode_beacon(identity(seed), replace(AD, **changes), seq, ts)


def signed_body(fields: dict[str, Any], seed: int = HOST_SEED, version: int = 1) -> bytes:
    """A datagram of any body and version byte, signed as a host would: the beacons a
    sender's own checks would never let out."""
    header = MAGIC + bytes([version])
    body: bytes = msgpack.packb(fields, use_bin_type=True)
    return header + identity(seed).sign(SIGNATURE_PREFIX + header + body) + body


def _fields(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "id": TABLE_ID,
        "name": AD.name,
        "variant": AD.variant,
        "seats": AD.seats,
        "free": AD.free_seats,
        "addr": AD.address,
        "port": AD.port,
        "key": identity(HOST_SEED).public_key,
        "seq": 1000,
        "ts": WALL,
    }
    fields.update(changes)
    return fields


Step = tuple[bytes, str, float, str, int]
"""A datagram, its source address, the listener's ``now`` (s), the outcome the case
expects (``TableDirectory.stats``'s key) and the rule of section 5.2 behind it."""


def _step(datagram: bytes, expect: str, now: float = 0.0, rule: int = 0, src: str = SOURCE) -> Step:
    return (datagram, src, now, expect, rule or RULES[expect])


def _flip_signature(datagram: bytes) -> bytes:
    return datagram[:10] + bytes([datagram[10] ^ 1]) + datagram[11:]


def _beacon_cases() -> list[tuple[str, str, list[Step], float]]:
    """(name, what it shows, steps, the time the list is read)."""
    first = beacon()
    many_keys = [beacon(seed=0x40 + n, address="") for n in range(17)]
    return [
        (
            "watch",
            "a beacon with `watch` (3 places for watchers, `free` 0): listed with it",
            [_step(beacon(free_seats=0, watch=3), "accepted")],
            0.0,
        ),
        (
            "no-watch",
            "section 8.2's beacon: no `watch` key, 0 places",
            [_step(first, "accepted")],
            0.0,
        ),
        (
            "rule-1-short",
            "69 bytes: under the 70 of a header and one body byte",
            [_step(first[:69], "malformed", rule=1)],
            0.0,
        ),
        (
            "rule-1-long",
            "1201 bytes",
            [_step(first + bytes(1201 - len(first)), "malformed", rule=1)],
            0.0,
        ),
        (
            "rule-1-magic",
            "`PBKC` for `PBKB`",
            [_step(b"PBKC" + first[4:], "malformed", rule=1)],
            0.0,
        ),
        (
            "rule-2-version",
            "version byte 2, signed as such",
            [_step(signed_body(_fields(), version=2), "malformed", rule=2)],
            0.0,
        ),
        (
            "rule-3-weak-key",
            "`key` the neutral element (not sound)",
            [_step(signed_body(_fields(key=NEUTRAL)), "malformed", rule=3)],
            0.0,
        ),
        (
            "rule-3-watch-256",
            "`watch` 256",
            [_step(signed_body(_fields(watch=256)), "malformed", rule=3)],
            0.0,
        ),
        (
            "rule-3-boolean",
            "`seats` true: a boolean is not an integer",
            [_step(signed_body(_fields(seats=True)), "malformed", rule=3)],
            0.0,
        ),
        (
            "rule-3-array",
            "an array in the body",
            [_step(signed_body(_fields(extra=[1])), "malformed", rule=3)],
            0.0,
        ),
        (
            "rule-3-missing",
            "no `ts`",
            [
                _step(
                    signed_body({k: v for k, v in _fields().items() if k != "ts"}),
                    "malformed",
                    rule=3,
                )
            ],
            0.0,
        ),
        (
            "rule-3-name",
            "a name of 41 code points",
            [_step(signed_body(_fields(name="x" * 41)), "malformed", rule=3)],
            0.0,
        ),
        (
            "unknown-key",
            "an unknown key, signed: ignored, the beacon listed",
            [_step(signed_body(_fields(colour="green")), "accepted")],
            0.0,
        ),
        (
            "rule-4-clock",
            "`ts` one hour and 1 ms ahead of the listener: ignored; exactly "
            "one hour behind: listed",
            [
                _step(beacon(ts=WALL + 3_600_001), "off_clock"),
                _step(beacon(seq=1001, ts=WALL - 3_600_000), "accepted"),
            ],
            0.0,
        ),
        (
            "rule-5-replay",
            "the same datagram again, then a lower `seq`: replays; after the "
            "entry went stale (3.5 s) the old `seq` is still a replay; a higher one is listed",
            [
                _step(first, "accepted"),
                _step(first, "replayed", 0.5),
                _step(beacon(seq=999), "replayed", 0.6),
                _step(first, "replayed", 3.5),
                _step(beacon(seq=1001, ts=WALL + 3500), "accepted", 3.5),
            ],
            3.5,
        ),
        (
            "rule-5-old",
            "a higher `seq` whose `ts` lags 3.001 s more than the table's least "
            "lag: old; one lagging 3 s more is listed",
            [
                _step(first, "accepted"),
                _step(beacon(seq=1001, ts=WALL + 1000 - 3001), "old", 1.0),
                _step(beacon(seq=1002, ts=WALL + 1000 - 3000), "accepted", 1.0),
            ],
            1.0,
        ),
        (
            "rule-5-side-by-side",
            "another key's beacon under the same table id: both listed",
            [_step(first, "accepted"), _step(beacon(seed=OTHER_SEED), "accepted")],
            0.0,
        ),
        (
            "rule-5-replay-before-signature",
            "a replayed `seq` with a broken signature: "
            "ignored as a replay (rule 5 comes before rule 7)",
            [_step(first, "accepted"), _step(_flip_signature(first), "replayed", 0.1)],
            0.1,
        ),
        (
            "rule-6-key",
            "a fifth table id under one key: refused while the key has 4 entries",
            [
                _step(beacon(table_id=bytes([n]) * 16), "accepted" if n < 4 else "key_full")
                for n in range(5)
            ],
            0.0,
        ),
        (
            "rule-6-source",
            'a 17th new entry from one source address (17 keys, `addr` ""): '
            "refused while the address has 16",
            [_step(b, "accepted" if n < 16 else "source_full") for n, b in enumerate(many_keys)],
            0.0,
        ),
        (
            "rule-6-after-stale",
            "a key's 4 entries gone stale (3.1 s): its fifth table is listed",
            [
                *(_step(beacon(table_id=bytes([n]) * 16), "accepted") for n in range(4)),
                _step(beacon(table_id=bytes([4]) * 16, ts=WALL + 3100), "accepted", 3.1),
            ],
            3.1,
        ),
        (
            "rule-7-signature",
            "one signature bit flipped",
            [_step(_flip_signature(first), "bad_signature")],
            0.0,
        ),
        (
            "stale",
            "an entry not refreshed for more than 3 s is dropped (listed at 3.0 s, gone "
            "at 3.001 s)",
            [_step(first, "accepted")],
            3.001,
        ),
    ]


def entry(table: TableInfo) -> dict[str, Any]:
    return {
        "id": table.table_id.hex(),
        "key": table.host_key.hex(),
        "name": table.name,
        "variant": table.variant,
        "seats": table.seats,
        "free": table.free_seats,
        "host": table.host,
        "port": table.port,
        "seq": table.seq,
        "watch": table.watch,
        "via": table.via,
    }


def replay_beacons(steps: list[dict[str, Any]], at: float) -> dict[str, Any]:
    """Feed ``steps`` to a fresh listener: each one's outcome, then the list at ``at``."""
    listener = TableDirectory()
    outcomes = []
    for step in steps:
        before = dict(listener.stats)
        listener.handle_datagram(
            bytes.fromhex(step["datagram"]),
            step["source"],
            step["now"],
            WALL + round(step["now"] * 1000),
        )
        grew = [k for k, n in listener.stats.items() if n != before.get(k, 0)]
        outcomes.append(grew[0] if len(grew) == 1 else "?")
    return {"outcomes": outcomes, "listed": [entry(t) for t in listener.tables(at)]}


def beacons() -> dict[str, Any]:
    cases = []
    for name, what, steps, at in _beacon_cases():
        rows = [
            {"datagram": d.hex(), "source": src, "now": now, "outcome": expect, "rule": rule}
            for d, src, now, expect, rule in steps
        ]
        got = replay_beacons(rows, at)
        if got["outcomes"] != [row["outcome"] for row in rows]:
            raise AssertionError(f"beacon case {name}: {got['outcomes']}")
        cases.append({"name": name, "path": what, "steps": rows, "at": at, **got})
        del cases[-1]["outcomes"]
    return {
        "about": "transport.md section 5.2: each case's datagrams fed in order to a fresh "
        "listener (256 tables, 4 a key, 16 a source address, 3 s stale, one hour of clock); "
        f"its wall clock is {WALL} ms plus `now`; `outcome` is what the listener does "
        "(accepted = listed or refreshed; malformed, off_clock, replayed, old, key_full, "
        "source_full, bad_signature = ignored), `rule` the rule of section 5.2 that decides; "
        "`listed` is what a joiner's list holds at `at`",
        "hosts": {
            f"{seed:02x}": identity(seed).public_key.hex() for seed in (HOST_SEED, OTHER_SEED)
        },
        "cases": cases,
    }
