"""Addresses on the LAN: this machine's, the one a beacon signs, a joiner's view of a
link-local peer, whether a group is multicast.  Route look-ups only: nothing is sent."""

from __future__ import annotations

import ipaddress
import socket


def lan_address(listen_host: str) -> str:
    """This machine's address for the others on the LAN: where joiners (and the host's
    own bots) reach its lobby.  The host screen shows it to be read out.

    A joiner's mesh address is the one the host sees it coming from, so a bot
    dialling 127.0.0.1 would be unreachable for players on other machines.
    """
    if listen_host not in ("", "0.0.0.0", "::"):
        return listen_host
    ipv6 = listen_host == "::"
    family, target, fallback = (
        (socket.AF_INET6, "2001:db8::1", "::1")
        if ipv6
        else (socket.AF_INET, "192.0.2.1", "127.0.0.1")
    )
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))  # picks the outgoing interface; sends nothing
            return str(probe.getsockname()[0])
    except OSError:
        # No route out (a link-local-only LAN): our bots then play for this machine only.
        return fallback


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


def is_multicast(group: str) -> bool:
    """Beacons go to a multicast group (DNS-SD too), or to one address (neither)."""
    try:
        return ipaddress.ip_address(group).is_multicast
    except ValueError:
        return False
