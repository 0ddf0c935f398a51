"""Finding tables: the signed beacons hosts send, and DNS-SD records as hints."""

from __future__ import annotations

import dataclasses
import errno
import logging
from collections.abc import Awaitable, Callable

import trio

from p2pbelka.net.directory import TableDirectory, TableInfo, shown
from p2pbelka.net.discovery import open_beacon_listener, receive_beacons
from p2pbelka.net.dnssd import browse_dnssd
from p2pbelka.peer.lan.addresses import is_multicast, multicast_interface, own_addresses
from p2pbelka.peer.lan.events import OnLobby, TablesHeard, ignore
from p2pbelka.peer.seat import NetOptions
from p2pbelka.rules import registry

log = logging.getLogger(__name__)


class NoMulticastRoute(OSError):
    """Beacons cannot be heard: no route leads to their group, and this machine has
    not one address to hear them on but ``addresses`` (any of which the player may
    name with --interface), or none."""

    def __init__(self, error: OSError, group: str, addresses: list[str]) -> None:
        super().__init__(error.errno, error.strerror)
        self.group = group
        self.addresses = addresses


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
    seen: tuple[TableInfo, ...] = ()
    found: list[TableInfo] = []

    net = dataclasses.replace(
        net, interface=multicast_interface(net.group, net.beacon_port, net.interface)
    )
    with await _listener(net) as sock, trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(receive_beacons, sock, directory)
            if dnssd and is_multicast(net.group):
                nursery.start_soon(_browse, directory.hint, net)
            while True:
                now = trio.current_time()
                found = [t for t in directory.listed(now) if t.variant in registry.names()]
                current = tuple(found)
                if [shown(t) for t in current] != [shown(t) for t in seen]:
                    seen = current
                    await on_lobby(TablesHeard(current))
                if until is not None and until(found):
                    nursery.cancel_scope.cancel()
                    break
                await trio.sleep(0.1)
    return found


async def _listener(net: NetOptions) -> trio.socket.SocketType:
    """The socket that hears beacons (opened outside any nursery, so its OSError
    reaches the caller as it is); :class:`NoMulticastRoute` where the kernel finds no
    way to the group (ENODEV) and there was no one address to take instead."""
    try:
        return await open_beacon_listener(
            group=net.group, port=net.beacon_port, interface=net.interface
        )
    except OSError as exc:
        if exc.errno == errno.ENODEV and net.interface is None:
            raise NoMulticastRoute(exc, net.group, own_addresses(":" in net.group)) from exc
        raise


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


async def _browse(hint: Callable[[TableInfo], None], net: NetOptions) -> None:
    try:
        await browse_dnssd(hint, interface=net.interface, ipv6=":" in net.group)
    except Exception as exc:  # an optional extra: beacons go on without it
        log.warning("cannot browse DNS-SD: %s: %s", type(exc).__name__, exc)
