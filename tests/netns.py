"""A LAN inside this machine for tests: network namespaces on one bridge.

``namespace_lan(n, subnet)`` builds n namespaces, each with a veth on a fresh
bridge, an address in ``subnet`` (a /24 the test owns, like ``10.77.0``) and the
multicast route, and removes everything on exit, even when the test fails.
It skips the test, with the reason, where that cannot be done (not root, no
iproute2, the kernel refuses).  Names are unique per run.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest


@dataclass
class Lan:
    namespaces: list[str]
    addresses: list[str]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@contextlib.contextmanager
def namespace_lan(n: int, subnet: str, *, ipv6_only: bool = False) -> Iterator[Lan]:
    """``ipv6_only``: ``subnet`` is an IPv6 /64 prefix (like ``fd77:0:0:1``); the
    namespaces get only IPv6 addresses (``PREFIX::k``), no IPv4 at all."""
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    if shutil.which("ip") is None:
        pytest.skip("iproute2 'ip' is not installed")
    tag = secrets.token_hex(3)
    bridge = f"pbkbr{tag}"
    sep = "::" if ipv6_only else "."
    lan = Lan([f"pbk-{tag}-{k}" for k in range(n)], [f"{subnet}{sep}{k + 1}" for k in range(n)])
    with contextlib.ExitStack() as undo:
        try:
            _ip("link", "add", bridge, "type", "bridge")
            undo.callback(subprocess.run, ["ip", "link", "del", bridge], capture_output=True)
            _ip("link", "set", bridge, "up")
            for k, (ns, addr) in enumerate(zip(lan.namespaces, lan.addresses, strict=True)):
                _ip("netns", "add", ns)
                undo.callback(subprocess.run, ["ip", "netns", "del", ns], capture_output=True)
                inner, outer = f"pbk{tag}v{k}", f"pbk{tag}b{k}"
                _ip("link", "add", inner, "type", "veth", "peer", "name", outer)
                _ip("link", "set", inner, "netns", ns)
                _ip("link", "set", outer, "master", bridge, "up")
                if ipv6_only:
                    # nodad: usable at once, not after duplicate address detection
                    _ip("-n", ns, "addr", "add", f"{addr}/64", "dev", inner, "nodad")
                else:
                    _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", inner)
                _ip("-n", ns, "link", "set", inner, "up")
                _ip("-n", ns, "link", "set", "lo", "up")
                if not ipv6_only:
                    # Without this route a multicast send fails with ENETUNREACH.
                    _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", inner)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            stderr = getattr(exc, "stderr", b"") or b""
            pytest.skip(f"cannot build network namespaces here: {stderr.decode().strip()}")
        yield lan
