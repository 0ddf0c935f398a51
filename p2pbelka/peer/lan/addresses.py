"""Addresses on the LAN: this machine's, the one a beacon signs, a joiner's view of a
link-local peer, whether a group is multicast, where to hear a group that no route
leads to.  Route look-ups only: nothing is sent."""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING

from p2pbelka.net.discovery import local_address_towards

if TYPE_CHECKING:
    import ifaddr


def lan_addresses(listen_host: str, group: str, beacon_port: int) -> list[str]:
    """This machine's addresses for the others on the LAN, the likeliest first: where
    joiners (and the host's own bots) reach its lobby.  The host screen shows them all
    to be read out.

    The first is the one the beacons carry (the address that sends towards their
    group), then the one with the default route, then every other address of the
    listening family.  On an IPv6 LAN with link-local addresses only, those, with
    their zone (``fe80::1%eth0``: a joiner puts its own interface there).  Loopback
    only when there is nothing else: a LAN with no default route has its link's
    addresses all the same.  A joiner's mesh address is
    the one the host sees it coming from, so a bot dialling 127.0.0.1 would be
    unreachable for players on other machines.
    """
    if listen_host not in ("", "0.0.0.0", "::"):
        return [listen_host]
    ipv6 = listen_host == "::"
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
    found = [
        local_address_towards(group, beacon_port) if (":" in group) == ipv6 else "",
        _towards(family, "2001:db8::1" if ipv6 else "192.0.2.1"),
        *_interface_addresses(ipv6),
    ]
    usable = [a for a in dict.fromkeys(found) if a and _joinable(a)]
    return usable or own_addresses(ipv6) or ["::1" if ipv6 else "127.0.0.1"]


def own_addresses(ipv6: bool) -> list[str]:
    """This machine's addresses of one family but loopback; an IPv6 link-local one with
    its zone (``fe80::1%eth0``), without which it cannot be dialled or listened on."""
    out = []
    for adapter in _adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple) != ipv6:
                continue
            address = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            parsed = ipaddress.ip_address(address.split("%", 1)[0])
            if parsed.is_loopback or parsed.is_unspecified:
                continue
            if ipv6 and parsed.is_link_local:
                address = f"{address.split('%', 1)[0]}%{adapter.name}"
            out.append(address)
    return out


def multicast_interface(group: str, port: int, interface: str | None) -> str | None:
    """Where to send to and hear ``group``: ``interface`` if given; else the kernel's
    choice (None) where a route leads to the group; else, with no such route (a LAN
    with no default route), this machine's one address (IPv6: its one interface), if
    it has only one: the only way there is.  None if it has several (the player names
    one with --interface) or none."""
    if interface is not None or not is_multicast(group) or local_address_towards(group, port):
        return interface
    ipv6 = ":" in group
    ways = {a.rsplit("%", 1)[-1] if ipv6 else a for a in own_addresses(ipv6)}
    if ipv6:  # a global address names no interface: the link-local one beside it does
        ways = {w for w in ways if ":" not in w}
    return ways.pop() if len(ways) == 1 else None


def _towards(family: int, target: str) -> str:
    """The address a datagram to ``target`` would leave from ("" if no route)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))  # picks the outgoing interface; sends nothing
            return str(probe.getsockname()[0]).split("%", 1)[0]
    except OSError:
        return ""


def _interface_addresses(ipv6: bool) -> list[str]:
    """Every address of that family on this machine's interfaces."""
    out = []
    for adapter in _adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple) == ipv6:
                out.append(ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip)
    return out


def _adapters() -> list[ifaddr.Adapter]:
    """This machine's interfaces.  ``ifaddr`` is imported here, when they are listed
    (a host listening on every interface, a multicast group no route leads to): a
    seat that listens on one address never lists them, and the import costs a
    hundredth of a CPU-second at every start."""
    import ifaddr

    return list(ifaddr.get_adapters())


def _joinable(address: str) -> bool:
    """Not loopback (this machine only), not link-local (its scope means nothing to
    a joiner, who gives its own: a beacon reaches it with that)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified)


def beacon_address(listen_host: str) -> str:
    """The address to sign into the beacon when the host listens on one address only
    ("" lets the announcer find it): a joiner must dial where the lobby listens."""
    try:
        address = ipaddress.ip_address(listen_host.split("%", 1)[0])
    except ValueError:
        return ""
    if address.is_unspecified or address.is_link_local:
        return ""
    return str(address)


def rescoped(address: str, like: str) -> str:
    """An IPv6 link-local address the host saw, with the scope of our own way to the
    host: an interface name means nothing on another machine."""
    if "%" not in like:
        return address
    try:
        if not ipaddress.ip_address(address.split("%", 1)[0]).is_link_local:
            return address
    except ValueError:
        return address
    return address.split("%", 1)[0] + "%" + like.rsplit("%", 1)[1]


def scoped_here(address: str) -> str:
    """An IPv6 link-local address as typed from another machine's screen
    (``fe80::1%eth0``), with a zone this machine has: the zone given if it names one
    of ours, else our one interface with IPv6 (if we have only one), else as given."""
    bare, _, zone = address.partition("%")
    if not zone or zone.isdigit() or _is_interface(zone):
        return address
    try:
        if not ipaddress.ip_address(bare).is_link_local:
            return address
    except ValueError:
        return address
    zones = {a.rsplit("%", 1)[1] for a in own_addresses(True) if "%" in a}
    return f"{bare}%{zones.pop()}" if len(zones) == 1 else address


def _is_interface(name: str) -> bool:
    try:
        socket.if_nametoindex(name)
    except OSError:
        return False
    return True


def is_multicast(group: str) -> bool:
    """Beacons go to a multicast group (DNS-SD too), or to one address (neither)."""
    try:
        return ipaddress.ip_address(group).is_multicast
    except ValueError:
        return False
