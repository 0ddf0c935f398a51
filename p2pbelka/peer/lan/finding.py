"""Finding tables: the signed beacons hosts send, and DNS-SD records as hints."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial

import trio

from p2pbelka.net.directory import TableDirectory, TableInfo
from p2pbelka.net.discovery import listen_for_tables
from p2pbelka.net.dnssd import browse_dnssd
from p2pbelka.peer.lan.addresses import is_multicast
from p2pbelka.peer.lan.events import OnLobby, TablesHeard, ignore
from p2pbelka.peer.seat import NetOptions
from p2pbelka.rules import registry

log = logging.getLogger(__name__)

HINT_LIFETIME = 120.0
"""Seconds a DNS-SD hint is listed after it was last resolved."""


async def discover_tables(
    seconds: float,
    *,
    net: NetOptions | None = None,
    on_lobby: OnLobby = ignore,
    until: Callable[[list[TableInfo]], bool] | None = None,
    dnssd: bool = False,
) -> list[TableInfo]:
    """Listen for beacons of tables for ``seconds`` (or until ``until`` says enough);
    beacons of games this version does not play are ignored (other versions never
    decode).

    With ``dnssd``, tables announced by DNS-SD are listed too (``via="dns-sd"``),
    after the beacon tables and only where no signed beacon names the same table
    and key: they are hints, and joining one pins the key its record names."""
    net = net or NetOptions()
    directory = TableDirectory()
    hints: dict[tuple[bytes, bytes], TableInfo] = {}
    seen: tuple[TableInfo, ...] = ()
    found: list[TableInfo] = []

    def hint(table: TableInfo) -> None:
        hints[(table.table_id, table.host_key)] = table

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(
                    listen_for_tables,
                    directory,
                    group=net.group,
                    port=net.beacon_port,
                    interface=net.interface,
                )
            )
            if dnssd and is_multicast(net.group):
                nursery.start_soon(_browse, hint, net)
            while True:
                now = trio.current_time()
                found = _merged(directory.tables(now), hints, now)
                current = tuple(found)
                if [_listing(t) for t in current] != [_listing(t) for t in seen]:
                    seen = current
                    await on_lobby(TablesHeard(current))
                if until is not None and until(found):
                    nursery.cancel_scope.cancel()
                    break
                await trio.sleep(0.1)
    return found


Find = Callable[[bytes, bytes, float], Awaitable[tuple[str, int] | None]]
"""Where the host with this key announces the table with this table id now (its
address and lobby port), heard within the seconds given; None if not heard."""


def find_announced(net: NetOptions) -> Find:
    """A ``Find`` by the signed beacons alone (a DNS-SD record is a hint anyone may
    send): a watcher's host that came back on another lobby port is found by them."""

    async def find(host_key: bytes, table_id: bytes, seconds: float) -> tuple[str, int] | None:
        def ours(table: TableInfo) -> bool:
            return table.host_key == host_key and table.table_id == table_id

        try:
            tables = await discover_tables(
                seconds, net=net, until=lambda found: any(ours(t) for t in found)
            )
        except OSError as exc:  # the beacon port is not ours to listen on: dial as before
            log.info("cannot listen for the host's beacons: %s", exc)
            return None
        return next(((t.host, t.port) for t in tables if ours(t)), None)

    return find


def _merged(
    beacons: list[TableInfo], hints: dict[tuple[bytes, bytes], TableInfo], now: float
) -> list[TableInfo]:
    for key in [k for k, t in hints.items() if now - t.last_seen > HINT_LIFETIME]:
        del hints[key]
    signed = {(t.table_id, t.host_key) for t in beacons}
    extra = [t for k, t in sorted(hints.items()) if k not in signed]
    return [t for t in beacons + extra if t.variant in registry.names()]


async def _browse(hint: Callable[[TableInfo], None], net: NetOptions) -> None:
    try:
        await browse_dnssd(hint, interface=net.interface, ipv6=":" in net.group)
    except Exception as exc:  # an optional extra: beacons go on without it
        log.warning("cannot browse DNS-SD: %s: %s", type(exc).__name__, exc)


def _listing(table: TableInfo) -> tuple[bytes, bytes, int, str, int, str, int, int]:
    """What a joiner's list shows of a table: a change in any of it redraws the list."""
    return (
        table.table_id,
        table.host_key,
        table.free_seats,
        table.host,
        table.port,
        table.variant,
        table.seats,
        table.watch,
    )
