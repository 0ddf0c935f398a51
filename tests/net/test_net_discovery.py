"""Beacons: encoding, validation, the table list, and real sockets on loopback."""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

import msgpack
import pytest
import trio

import p2pbelka.net
from p2pbelka.net.beacon import MAX_BEACON_SIZE, TableAd, decode_beacon, encode_beacon, new_table_id
from p2pbelka.net.directory import TableDirectory, look_alikes, matching_tables
from p2pbelka.net.discovery import DEFAULT_GROUP, announce_table, listen_for_tables
from p2pbelka.net.errors import BeaconError
from p2pbelka.net.identity import Identity

HOST = Identity.generate("host")
OTHER = Identity.generate("other")
LOOPBACK = "127.0.0.1"


def ad(**kw: object) -> TableAd:
    fields: dict[str, object] = dict(
        table_id=bytes(16), name="Kitchen table", variant="belka", seats=4, free_seats=3, port=5000
    )
    fields.update(kw)
    return TableAd(**fields)  # type: ignore[arg-type]


def resign(datagram: bytes, mutate: Callable[[dict[str, object]], None]) -> bytes:
    """Re-encode a beacon body after ``mutate`` and sign it properly with HOST."""
    body = msgpack.unpackb(datagram[69:])
    mutate(body)
    packed: bytes = msgpack.packb(body, use_bin_type=True)
    header = datagram[:5]
    return header + HOST.sign(b"p2pbelka/v1 beacon" + header + packed) + packed


@pytest.mark.parametrize("module", ["beacon", "directory"])
def test_the_beacon_format_and_the_directory_touch_no_socket(module: str) -> None:
    """Sans-IO: only ``discovery.py`` may import trio or sockets (or read a clock)."""
    path = Path(p2pbelka.net.__file__).parent / f"{module}.py"
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & {"trio", "socket", "time", "asyncio", "selectors"}, imported


def test_roundtrip() -> None:
    a = ad(address="10.1.2.3")
    b = decode_beacon(encode_beacon(HOST, a, seq=7, timestamp_ms=123))
    assert b.ad == a and b.host_key == HOST.public_key and b.seq == 7 and b.timestamp_ms == 123


@pytest.mark.parametrize(
    "mutate",
    [
        lambda b: b.update(seats=True),  # bool is not an int here
        lambda b: b.update(free=5),  # more free seats than seats
        lambda b: b.update(name="evil\x1b[2Jname"),  # terminal escape in a name
        lambda b: b.update(name=""),
        lambda b: b.update(port=0),
        lambda b: b.update(addr="not-an-ip"),
        lambda b: b.update(id=b"short"),
        lambda b: b.update(key=b"\x00" * 31),
        lambda b: b.update(seq=-1),
        lambda b: b.pop("port"),
        lambda b: b.update(variant=msgpack.ExtType(5, b"x")),
    ],
)
def test_invalid_fields_rejected_even_when_signed(
    mutate: Callable[[dict[str, object]], None],
) -> None:
    good = encode_beacon(HOST, ad(), 1, 1)
    with pytest.raises(BeaconError):
        decode_beacon(resign(good, mutate))


def test_signature_covers_everything() -> None:
    good = encode_beacon(HOST, ad(), 1, 1)
    for pos in range(len(good)):
        bad = good[:pos] + bytes([good[pos] ^ 0x04]) + good[pos + 1 :]
        with pytest.raises(BeaconError):
            decode_beacon(bad)


def test_other_version_and_junk_ignored() -> None:
    good = encode_beacon(HOST, ad(), 1, 1)
    for junk in (
        b"",
        b"PBKB",
        good[:4] + b"\x02" + good[5:],  # a future protocol version
        b"PBKB\x01" + os.urandom(200),
        good[:69] + msgpack.packb([1, 2, 3]),
        good + b"\x00",  # trailing bytes break both msgpack and the signature
        b"x" * (MAX_BEACON_SIZE + 1),
    ):
        with pytest.raises(BeaconError):
            decode_beacon(junk)


def test_directory_replay_stale_and_a_squatter_beside_the_real_table() -> None:
    d = TableDirectory(stale_after=3.0)
    tid = new_table_id()
    b5 = encode_beacon(HOST, ad(table_id=tid), 5, 0)
    assert d.handle_datagram(b5, "10.0.0.9", now=0.0) is not None
    (entry,) = d.tables(now=1.0)
    assert entry.host == "10.0.0.9" and entry.free_seats == 3 and not entry.address_signed
    assert d.handle_datagram(b5, "10.0.0.9", now=1.0) is None  # replay
    assert d.stats["replayed"] == 1
    # A stranger re-signs the table under his own key: listed beside it, never instead.
    squatter = encode_beacon(OTHER, ad(table_id=tid), 99, 0)
    assert d.handle_datagram(squatter, "10.0.0.66", now=1.0) is not None
    newer = encode_beacon(HOST, ad(table_id=tid, free_seats=1), 6, 0)
    assert d.handle_datagram(newer, "10.0.0.9", now=2.0) is not None
    tables = d.tables(now=2.5)
    assert {t.host_key for t in tables} == {HOST.public_key, OTHER.public_key}
    assert d.get(tid, HOST.public_key, now=2.5).free_seats == 1  # type: ignore[union-attr]
    assert look_alikes(tables) == {(tid, HOST.public_key), (tid, OTHER.public_key)}
    assert d.tables(now=5.1) == []  # stale after 3 s of silence


def test_a_fast_squatter_never_hides_the_real_table() -> None:
    """The attack seen: the public beacon re-signed and sent every 20 ms from the start."""
    d = TableDirectory()
    tid = new_table_id()
    now = 0.0
    for n in range(500):
        now = n * 0.02
        fake = encode_beacon(OTHER, ad(table_id=tid), 1000 + n, 0)
        d.handle_datagram(fake, "10.0.0.66", now=now)
        if n % 15 == 0:
            real = encode_beacon(HOST, ad(table_id=tid), n, 0)
            d.handle_datagram(real, "10.0.0.9", now=now)
    found = matching_tables(d.tables(now), "Kitchen table")
    assert {t.host_key for t in found} == {HOST.public_key, OTHER.public_key}


def test_the_signed_address_wins_over_the_datagram_source() -> None:
    d = TableDirectory()
    beacon = encode_beacon(HOST, ad(address="10.0.0.9"), 1, 0)
    info = d.handle_datagram(beacon, "10.0.0.66", now=0.0)
    assert info is not None and info.host == "10.0.0.9" and info.address_signed
    assert info.source == "10.0.0.66"


def test_beacons_hours_off_the_clock_are_dropped() -> None:
    d = TableDirectory()
    hour = 3_600_000
    wall = 1_800_000_000_000
    old = encode_beacon(HOST, ad(table_id=new_table_id()), 1, wall - 3 * hour)
    future = encode_beacon(HOST, ad(table_id=new_table_id()), 1, wall + 2 * hour)
    fresh = encode_beacon(HOST, ad(table_id=new_table_id()), 1, wall - 20_000)
    for beacon in (old, future):
        assert d.handle_datagram(beacon, "10.0.0.9", now=0.0, wall_ms=wall) is None
    assert d.handle_datagram(fresh, "10.0.0.9", now=0.0, wall_ms=wall) is not None
    assert d.stats["off_clock"] == 2


def test_entries_are_capped_per_key_and_per_source() -> None:
    d = TableDirectory(max_per_key=2, max_per_source=3)
    for n in range(4):
        d.handle_datagram(encode_beacon(HOST, ad(table_id=new_table_id()), n, 0), "h1", now=0.0)
    assert d.stats["key_full"] == 2
    for n in range(4):
        someone = Identity.generate()
        d.handle_datagram(encode_beacon(someone, ad(table_id=new_table_id()), n, 0), "h2", 0.0)
    assert d.stats["source_full"] == 1
    # a newcomer from elsewhere still gets in
    late = encode_beacon(OTHER, ad(table_id=new_table_id(), name="Late"), 1, 0)
    assert d.handle_datagram(late, "h3", now=0.0) is not None


def test_look_alike_names_and_ambiguous_choices() -> None:
    d = TableDirectory()
    d.handle_datagram(encode_beacon(HOST, ad(table_id=new_table_id()), 1, 0), "h1", now=0.0)
    # Cyrillic К and е, and extra spaces: reads as "Kitchen  table" to a person
    fake = ad(table_id=new_table_id(), name="Кitchеn  Table")
    d.handle_datagram(encode_beacon(OTHER, fake, 1, 0), "h2", now=0.0)
    other = ad(table_id=new_table_id(), name="Garden")
    d.handle_datagram(encode_beacon(OTHER, other, 2, 0), "h2", now=0.0)
    tables = d.tables(now=0.0)
    assert len(look_alikes(tables)) == 2
    assert len(matching_tables(tables, "kitchen table")) == 2
    (by_key,) = matching_tables(tables, HOST.fingerprint)
    assert by_key.host_key == HOST.public_key


def test_junk_costs_little() -> None:
    d = TableDirectory()
    good = encode_beacon(HOST, ad(), 1, 1)
    forged = good[:5] + bytes(64) + good[69:]
    junk = [os.urandom(n % 1300) for n in range(2000)] + [forged] * 2000 + [good] * 2000
    for datagram in junk:
        d.handle_datagram(datagram, "10.0.0.1", now=0.0)
    # The cost is counted, not timed: one signature check per forged beacon, none for
    # junk that fails the cheap checks, none for the 1999 replays of the good one.
    assert d.stats["accepted"] == 1 and d.stats["bad_signature"] == 2000
    assert d.stats["replayed"] == 1999
    assert d.stats["malformed"] == 2000


async def _run_discovery(
    group: str, listener_interface: str | None, sender_interface: str, listeners: int = 1
) -> list[TableDirectory]:
    """Announce one table and wait until every listener (all on one port) hears it."""
    dirs = [TableDirectory() for _ in range(listeners)]
    table = ad(table_id=new_table_id())
    async with trio.open_nursery() as nursery:
        port = 0
        for d in dirs:
            port = await nursery.start(
                partial(listen_for_tables, d, group=group, port=port, interface=listener_interface)
            )
        await nursery.start(
            partial(
                announce_table,
                HOST,
                lambda: table,
                group=group,
                port=port,
                interface=sender_interface,
                interval=0.05,
            )
        )
        with trio.move_on_after(60):
            while not all(d.tables(trio.current_time()) for d in dirs):
                await trio.sleep(0.02)
        nursery.cancel_scope.cancel()
    return dirs


async def test_unicast_to_loopback() -> None:
    (directory,) = await _run_discovery(LOOPBACK, None, LOOPBACK)
    (entry,) = directory.tables(trio.current_time())
    assert entry.host == LOOPBACK and entry.host_key == HOST.public_key


async def test_multicast_on_loopback_interface() -> None:
    # The sender is pinned to lo (IP_MULTICAST_IF), so nothing leaves the machine.
    try:
        (directory,) = await _run_discovery(DEFAULT_GROUP, LOOPBACK, LOOPBACK)
    except OSError as exc:
        pytest.skip(f"multicast on loopback unavailable here: {exc}")
    (entry,) = directory.tables(trio.current_time())
    assert entry.host == LOOPBACK and entry.name == "Kitchen table"


async def test_two_listeners_share_a_port() -> None:
    try:
        dirs = await _run_discovery(DEFAULT_GROUP, LOOPBACK, LOOPBACK, listeners=2)
    except OSError as exc:
        pytest.skip(f"multicast on loopback unavailable here: {exc}")
    assert all(len(d.tables(trio.current_time())) == 1 for d in dirs)


async def test_flood_of_junk_does_not_starve_the_loop() -> None:
    directory = TableDirectory()
    ticks = 0
    table = ad(table_id=new_table_id())
    good = encode_beacon(HOST, table, 1, 0)
    forged = good[:5] + bytes(64) + good[69:]

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await trio.sleep(0.01)
            ticks += 1

    async def flood(port: int) -> None:
        with trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM) as s:
            n = 0
            while True:
                n += 1
                junk = forged if n % 2 else os.urandom(n % 1500)
                try:
                    await s.sendto(junk, (LOOPBACK, port))
                except OSError:
                    await trio.sleep(0)  # receive buffer full: that is the point

    async with trio.open_nursery() as nursery:
        port = await nursery.start(partial(listen_for_tables, directory, group=LOOPBACK, port=0))
        nursery.start_soon(ticker)
        nursery.start_soon(flood, port)
        await trio.sleep(0.3)
        await nursery.start(
            partial(announce_table, HOST, table, group=LOOPBACK, port=port, interval=0.05)
        )
        # Events with a generous timeout, not a time limit: a starved loop would
        # never hear the table nor let the ticker run, and fail here after 120 s.
        with trio.fail_after(120):
            while not directory.tables(trio.current_time()):
                await trio.sleep(0.02)
            start = ticks
            while ticks < start + 20:
                await trio.sleep(0.02)
        nursery.cancel_scope.cancel()
    assert directory.tables(trio.current_time()), dict(directory.stats)
    assert directory.stats["malformed"] + directory.stats["bad_signature"] > 100


async def test_beacons_over_ipv6() -> None:
    """The IPv6 code path of announcer and listener (unicast to ::1 here; the IPv6-only
    LAN test in tests/lan uses the multicast group)."""
    d = TableDirectory()
    table = ad(table_id=new_table_id())
    async with trio.open_nursery() as nursery:
        try:
            port = await nursery.start(partial(listen_for_tables, d, group="::1", port=0))
        except OSError as exc:
            pytest.skip(f"no IPv6 here: {exc}")
        await nursery.start(
            partial(announce_table, HOST, table, group="::1", port=port, interval=0.05)
        )
        with trio.fail_after(120):  # a hang, not a speed limit
            while not d.tables(trio.current_time()):
                await trio.sleep(0.02)
        nursery.cancel_scope.cancel()
    (heard,) = d.tables(trio.current_time())
    assert heard.host == "::1" and heard.address_signed and heard.host_key == HOST.public_key


def test_a_beacon_says_how_many_may_still_watch_and_an_old_one_says_none() -> None:
    watched = ad(free_seats=0, watch=5)
    beacon = encode_beacon(HOST, watched, 1, 1)
    assert decode_beacon(beacon).ad == watched
    assert b"watch" not in encode_beacon(HOST, ad(), 1, 1), "absent when nobody may watch"
    assert decode_beacon(encode_beacon(HOST, ad(), 1, 1)).ad.watch == 0
    for bad in (-1, 256, True, "5"):
        with pytest.raises(BeaconError):
            decode_beacon(resign(beacon, lambda b, bad=bad: b.update(watch=bad)))  # type: ignore[misc]
    info = TableDirectory().handle_datagram(beacon, LOOPBACK, 0.0)
    assert info is not None and info.watch == 5


def test_a_capture_played_back_after_the_table_fell_silent_is_not_listed() -> None:
    """The directory remembers a table's last seq and clock lag after its entry goes."""
    d = TableDirectory(stale_after=3.0)
    tid = new_table_id()
    early = encode_beacon(HOST, ad(table_id=tid), 100, 1_000_000)
    assert d.handle_datagram(early, "10.0.0.9", now=0.0, wall_ms=1_000_050) is not None
    late = encode_beacon(HOST, ad(table_id=tid), 101, 1_000_300)
    assert d.handle_datagram(late, "10.0.0.9", now=0.3, wall_ms=1_000_350) is not None
    assert d.tables(now=10.0) == []  # silent: dropped
    # ten minutes on, the early beacon again, from the replayer's address
    assert d.handle_datagram(early, "10.0.0.66", now=600.0, wall_ms=1_600_050) is None
    assert d.stats["replayed"] == 1
    # a later capture (a seq never heard) of a beacon signed long ago: too old
    later = encode_beacon(HOST, ad(table_id=tid), 500, 1_100_000)
    assert d.handle_datagram(later, "10.0.0.66", now=600.0, wall_ms=1_600_050) is None
    assert d.stats["old"] == 1 and d.tables(now=600.0) == []
    # the table itself, announcing again, is listed at once
    again = encode_beacon(HOST, ad(table_id=tid), 2_000, 1_600_000)
    assert d.handle_datagram(again, "10.0.0.9", now=600.0, wall_ms=1_600_050) is not None


async def test_a_beacon_recorded_off_the_air_and_played_back_later_is_not_listed() -> None:
    """Real sockets: a table announces to a recorder, which passes the beacons on to a
    listener and keeps the first; the table stops; once its entry has gone, the
    recording is sent again from another loopback address."""
    directory = TableDirectory(stale_after=0.5)
    table = ad(table_id=new_table_id())
    recorded: list[bytes] = []
    with (
        trio.socket.socket(type=trio.socket.SOCK_DGRAM) as recorder,
        trio.socket.socket(type=trio.socket.SOCK_DGRAM) as replayer,
    ):
        await recorder.bind((LOOPBACK, 0))
        await replayer.bind(("127.0.0.66", 0))
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(listen_for_tables, directory, group=LOOPBACK, port=0)
            )

            async def record() -> None:
                while True:
                    data, _source = await recorder.recvfrom(2048)
                    recorded.append(data)
                    await replayer.sendto(data, (LOOPBACK, port))  # passed on as heard

            nursery.start_soon(record)
            nursery.start_soon(
                partial(
                    announce_table,
                    HOST,
                    lambda: table,
                    group=LOOPBACK,
                    port=recorder.getsockname()[1],
                    interval=0.05,
                )
            )
            with trio.fail_after(60):  # a hang guard only
                while len(recorded) < 10 or not directory.tables(trio.current_time()):
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()  # the table falls silent
        with trio.fail_after(60):
            while directory.tables(trio.current_time()):
                await trio.sleep(0.05)
        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                partial(listen_for_tables, directory, group=LOOPBACK, port=0)
            )
            heard = directory.stats["replayed"]
            for _ in range(5):
                await replayer.sendto(recorded[0], (LOOPBACK, port))
            with trio.fail_after(60):
                while directory.stats["replayed"] < heard + 5:
                    await trio.sleep(0.02)
            assert directory.tables(trio.current_time()) == []
            # A listener that never heard the table lists the same recording
            # (transport.md 5.2 says why that is safe: the join fails at the key check).
            fresh = TableDirectory()
            port = await nursery.start(partial(listen_for_tables, fresh, group=LOOPBACK, port=0))
            await replayer.sendto(recorded[0], (LOOPBACK, port))
            with trio.fail_after(60):
                while not fresh.tables(trio.current_time()):
                    await trio.sleep(0.02)
            (entry,) = fresh.tables(trio.current_time())
            assert entry.source == "127.0.0.66" and entry.host_key == HOST.public_key
            nursery.cancel_scope.cancel()
