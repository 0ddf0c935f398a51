"""Tables announced and found by DNS-SD (mDNS), so standard tools list them too.

``avahi-browse -r _p2pbelka._tcp`` or ``dns-sd -B _p2pbelka._tcp`` show the
tables a host announces here.  DNS-SD records are not signed: an entry heard
this way is only a *hint* of where a table is.  What the program trusts is the
signed beacon (:mod:`p2pbelka.net.beacon`) and, in the end, the handshake:
a joiner who picks a DNS-SD entry pins the host key its TXT record names, so
the connection proves that key or fails, and the person still compares the
fingerprint with the host's screen.

python-zeroconf runs its own thread; trio talks to it only through
``trio.to_thread`` (blocking calls: register, update, resolve, close) and
``trio.from_thread`` (its browser's callbacks), never blocking trio's loop.

TXT record keys (all values ASCII): ``v`` protocol version, ``game`` the variant
(``belka``), ``name`` the table's name (UTF-8), ``id`` the table id in hex,
``seats``, ``free`` the free seats, ``fp`` the host key's fingerprint (16 hex
digits), ``key`` the whole host key (64 hex digits); ``watch`` the places left for
watchers, only when above 0 (a table in play may still be watched).
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

import trio

from .beacon import (
    MAX_NAME_CHARS,
    MAX_SEATS,
    MAX_VARIANT_CHARS,
    MAX_WATCH,
    MIN_SEATS,
    TABLE_ID_SIZE,
    TableAd,
)
from .directory import TableInfo
from .handshake import PROTOCOL_VERSION
from .identity import Identity, fingerprint, is_sound_key

if TYPE_CHECKING:  # imported where used: a program that never asks mDNS loads none of it
    from zeroconf import ServiceBrowser, ServiceInfo, Zeroconf

__all__ = [
    "SERVICE_TYPE",
    "announce_dnssd",
    "browse_dnssd",
    "instance_name",
    "local_addresses",
    "table_from_txt",
    "txt_record",
]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_p2pbelka._tcp.local."
MAX_INSTANCE_BYTES = 63
"""An instance name is one DNS label (RFC 6763 section 4.1.1): at most 63 bytes."""
_DECIMAL = re.compile(r"[0-9]{1,3}")
_HEX = re.compile(r"[0-9a-f]*")


def _decimal(text: str) -> int:
    """A TXT number: 1 to 3 ASCII digits (no sign, space or other script's digits)."""
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"not a number of 1 to 3 ASCII digits: {text!r:.20}")
    return int(text)


def _hex(text: str, size: int) -> bytes:
    """``size`` bytes written as ``2 * size`` lower-case hex digits, nothing else."""
    if len(text) != 2 * size or not _HEX.fullmatch(text):
        raise ValueError(f"not {2 * size} lower-case hex digits")
    return bytes.fromhex(text)


def instance_name(host_key: bytes, name: str) -> str:
    """The service instance: the table's name and the first 8 digits of the host's
    fingerprint (two hosts' "Kitchen" kept apart), the name cut at a code point so the
    label fits its 63 bytes of UTF-8 (a longer one is refused by every mDNS stack)."""
    digits = "".join(fingerprint(host_key).split())[:8]
    room = MAX_INSTANCE_BYTES - 1 - len(digits)
    while len(name.encode()) > room:
        name = name[:-1]
    return f"{name} {digits}"


RESOLVE_MS = 3000


def txt_record(identity: Identity, ad: TableAd) -> dict[str, str]:
    txt = {
        "v": str(PROTOCOL_VERSION),
        "game": ad.variant,
        "name": ad.name,
        "id": ad.table_id.hex(),
        "seats": str(ad.seats),
        "free": str(ad.free_seats),
        "fp": "".join(identity.fingerprint.split()),
        "key": identity.public_key.hex(),
    }
    if ad.watch:  # as in the beacon: a listener of an earlier version ignores the key
        txt["watch"] = str(ad.watch)
    return txt


def table_from_txt(
    properties: dict[bytes, bytes | None], host: str, port: int, now: float
) -> TableInfo | None:
    """A DNS-SD hint as a table entry (``via="dns-sd"``); None if the TXT record is not
    one of ours or is malformed (transport.md section 5.4: every rule of the beacon's
    fields, numbers in ASCII decimal, hex in lower case).  Never raises: records come
    from anyone."""
    try:
        txt = {k.decode(): (v or b"").decode() for k, v in properties.items()}
        key, table_id = _hex(txt["key"], 32), _hex(txt["id"], TABLE_ID_SIZE)
        seats, free = _decimal(txt["seats"]), _decimal(txt["free"])
        name, game = txt["name"], txt["game"]
        watch = _decimal(txt.get("watch", "0"))
    except (KeyError, ValueError, UnicodeDecodeError):
        return None
    if txt["v"] != str(PROTOCOL_VERSION) or not is_sound_key(key):
        return None
    if "".join(fingerprint(key).split()) != txt["fp"]:
        return None
    if not (0 <= free <= seats and MIN_SEATS <= seats <= MAX_SEATS and 0 <= watch <= MAX_WATCH):
        return None
    if not all(
        1 <= len(text) <= limit and text.isprintable()
        for text, limit in ((name, MAX_NAME_CHARS), (game, MAX_VARIANT_CHARS))
    ):
        return None
    return TableInfo(
        table_id=table_id,
        name=name,
        variant=game,
        seats=seats,
        free_seats=free,
        host=host,
        port=port,
        host_key=key,
        seq=0,
        last_seen=now,
        source=host,
        address_signed=False,
        via="dns-sd",
        watch=watch,
    )


def _zeroconf(interface: str | None, ipv6: bool) -> Zeroconf:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    # zeroconf logs socket trouble with tracebacks; a user sees our one line instead.
    if not logging.getLogger().isEnabledFor(logging.INFO):
        logging.getLogger("zeroconf").setLevel(logging.CRITICAL)
    version = IPVersion.V6Only if ipv6 else IPVersion.V4Only
    interfaces: list[str] | InterfaceChoice = (
        [interface] if interface and not ipv6 else InterfaceChoice.All
    )
    return Zeroconf(interfaces=interfaces, ip_version=version)


def _service_info(identity: Identity, ad: TableAd, addresses: list[str]) -> ServiceInfo:
    from zeroconf import ServiceInfo

    instance = instance_name(identity.public_key, ad.name)
    return ServiceInfo(
        SERVICE_TYPE,
        f"{instance}.{SERVICE_TYPE}",
        port=ad.port,
        properties=txt_record(identity, ad),
        parsed_addresses=addresses,
        server=f"p2pbelka-{''.join(identity.fingerprint.split())}.local.",
    )


async def announce_dnssd(
    identity: Identity,
    ad: Callable[[], TableAd],
    addresses: list[str],
    *,
    interface: str | None = None,
    ipv6: bool = False,
    interval: float = 2.0,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Register the table's service and keep its TXT record current until cancelled.

    ``addresses`` are where the lobby listens.  Raises ``OSError`` (before
    ``started``) if mDNS cannot be used here; the caller logs it and goes on with
    beacons alone."""
    zc = await trio.to_thread.run_sync(_zeroconf, interface, ipv6)
    try:
        current = ad()
        info = _service_info(identity, current, addresses)
        await trio.to_thread.run_sync(
            lambda: zc.register_service(info, allow_name_change=True), abandon_on_cancel=True
        )
        task_status.started()
        while True:
            await trio.sleep(interval)
            latest = ad()
            if latest != current:
                current = latest
                info = _service_info(identity, current, addresses)
                await trio.to_thread.run_sync(zc.update_service, info, abandon_on_cancel=True)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            await trio.to_thread.run_sync(_close, zc, abandon_on_cancel=True)


def _close(zc: Zeroconf) -> None:
    try:
        zc.unregister_all_services()
    finally:
        zc.close()


async def browse_dnssd(
    on_table: Callable[[TableInfo], None],
    *,
    interface: str | None = None,
    ipv6: bool = False,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Resolve every ``_p2pbelka._tcp`` service heard and pass it to ``on_table`` (in
    trio) until cancelled.  Raises ``OSError`` before ``started`` if mDNS is unusable."""
    from zeroconf import ServiceBrowser, ServiceStateChange

    zc = await trio.to_thread.run_sync(_zeroconf, interface, ipv6)
    send, receive = trio.open_memory_channel[str](256)
    token = trio.lowlevel.current_trio_token()

    def changed(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        # zeroconf's thread: hand the name to trio and return at once.
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            try:
                trio.from_thread.run_sync(send.send_nowait, name, trio_token=token)
            except (trio.WouldBlock, trio.RunFinishedError):
                pass

    browser = None
    try:
        browser = await trio.to_thread.run_sync(
            lambda: ServiceBrowser(zc, SERVICE_TYPE, handlers=[changed])
        )
        task_status.started()
        async for name in receive:
            info = await trio.to_thread.run_sync(
                zc.get_service_info, SERVICE_TYPE, name, RESOLVE_MS, abandon_on_cancel=True
            )
            table = _resolved(info)
            if table is not None:
                on_table(table)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            await trio.to_thread.run_sync(_stop, browser, zc)
    raise AssertionError("unreachable")  # pragma: no cover


def _resolved(info: ServiceInfo | None) -> TableInfo | None:
    if info is None or not info.port:
        return None
    addresses = info.parsed_scoped_addresses()
    if not addresses:
        return None
    # IPv4 first: the more likely to be reachable on a mixed LAN.
    addresses.sort(key=lambda a: ":" in a)
    return table_from_txt(info.properties, addresses[0], info.port, trio.current_time())


def _stop(browser: ServiceBrowser | None, zc: Zeroconf) -> None:
    if browser is not None:
        browser.cancel()
    zc.close()


def local_addresses(listen_host: str, family: int = socket.AF_INET) -> list[str]:
    """Where a lobby listening on ``listen_host`` can be reached, for the A records."""
    if listen_host not in ("", "0.0.0.0", "::"):
        return [listen_host.split("%", 1)[0]]
    probe_target = ("ff02::fb", 9) if family == socket.AF_INET6 else ("224.0.0.251", 9)
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(probe_target)  # picks a route; sends nothing
            return [str(probe.getsockname()[0]).split("%", 1)[0]]
    except OSError:
        return []
