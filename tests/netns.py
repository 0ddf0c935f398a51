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
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest


@dataclass
class Lan:
    namespaces: list[str]
    addresses: list[str]
    cables: list[str] = field(default_factory=list)  # each namespace's veth, bridge side
    interfaces: list[str] = field(default_factory=list)  # the same veths, inside

    def link(self, k: int, up: bool) -> None:
        """Pull namespace ``k``'s cable out of the switch (or plug it back in): its own
        interface stays configured, what it sends is lost, and its connections hang."""
        _ip("link", "set", self.cables[k], "up" if up else "down")

    def limit(self, k: int, rate: str) -> None:
        """Namespace ``k``'s cable carries ``rate`` (like ``100kbit``) each way (tbf)."""
        shape = ["root", "tbf", "rate", rate, "burst", "16kbit", "latency", "500ms"]
        _tc(self.cables[k], shape)
        _tc(self.interfaces[k], shape, self.namespaces[k])


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def _tc(device: str, qdisc: list[str], netns: str | None = None) -> None:
    inside = ["ip", "netns", "exec", netns] if netns else []
    command = [*inside, "tc", "qdisc", "add", "dev", device, *qdisc]
    subprocess.run(command, check=True, capture_output=True, timeout=10)


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
                lan.cables.append(outer)
                lan.interfaces.append(inner)
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


def wait_for_link_local(ns: str) -> None:
    """Until duplicate address detection has passed for ``ns``'s fe80:: address."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        shown = subprocess.run(
            ["ip", "-n", ns, "-6", "addr", "show", "scope", "link"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        if "fe80::" in shown.stdout and "tentative" not in shown.stdout:
            return
        time.sleep(0.1)
    raise AssertionError(f"no usable link-local address in {ns}")
