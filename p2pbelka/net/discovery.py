"""LAN discovery's trio edge: the sockets that send and hear table beacons.

A host announces its table a few times a second (``announce_table``); a joining
player listens (``listen_for_tables``) and feeds what it hears, with the time, into a
``directory.TableDirectory``.  The beacon's format is ``beacon.py`` and the list of
tables ``directory.py``, both sans-IO; only this module touches sockets.
"""

from __future__ import annotations

import contextlib
import dataclasses
import ipaddress
import logging
import socket as stdlib_socket
import struct
import time
from collections.abc import Callable
from typing import Any, NoReturn

import trio

from .beacon import MAX_BEACON_SIZE, TableAd, encode_beacon
from .directory import TableDirectory
from .identity import Identity

__all__ = [
    "DEFAULT_GROUP",
    "DEFAULT_GROUP6",
    "DEFAULT_INTERVAL",
    "DEFAULT_PORT",
    "announce_table",
    "listen_for_tables",
    "local_address_towards",
    "open_beacon_listener",
    "receive_beacons",
]

log = logging.getLogger(__name__)

DEFAULT_GROUP = "239.255.42.99"  # organisation-local scope (RFC 2365)
DEFAULT_GROUP6 = "ff02::7062:6b62"  # link-local scope: every host on the LAN segment
DEFAULT_PORT = 47474
DEFAULT_INTERVAL = 0.3


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


async def open_beacon_listener(
    *,
    group: str = DEFAULT_GROUP,
    port: int = DEFAULT_PORT,
    interface: str | None = None,
    bind_address: str = "",
) -> trio.socket.SocketType:
    """A socket bound to ``port`` that has joined ``group`` (for
    :func:`receive_beacons`).  Several listeners on one host can share the port.
    ``interface`` is the local address (IPv6: the interface) that joins the group;
    by default the kernel's choice by its multicast route.  Raises :class:`OSError`
    if the group cannot be joined: ``ENODEV`` where no route leads to the group and
    no ``interface`` is given; the caller may then name one, or dial by hand."""
    family = _family(group)
    sock = trio.socket.socket(family, trio.socket.SOCK_DGRAM)
    try:
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
    except BaseException:
        sock.close()
        raise
    return sock


async def receive_beacons(sock: trio.socket.SocketType, directory: TableDirectory) -> NoReturn:
    """Feed the beacons ``sock`` receives into ``directory`` until cancelled."""
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
    bound port is reported (useful with ``port=0`` in tests).  Raises
    :class:`OSError` before starting if the group cannot be joined (see
    :func:`open_beacon_listener`).
    """
    listener = open_beacon_listener(
        group=group, port=port, interface=interface, bind_address=bind_address
    )
    with await listener as sock:
        task_status.started(sock.getsockname()[1])
        await receive_beacons(sock, directory)
