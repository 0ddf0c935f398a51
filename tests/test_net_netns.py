"""Discovery and a secure channel between two network namespaces on one bridge.

Needs root and iproute2; skipped with the reason otherwise. Every name is
unique to the run, every address is inside the 10.77.0.0/24 network the test
creates, and the namespaces and bridge are removed even when the test fails.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.netns

HELPER = Path(__file__).with_name("net_netns_helper.py")
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Lan:
    namespaces: list[str]
    addresses: list[str]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@pytest.fixture
def lan() -> Iterator[Lan]:
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    if shutil.which("ip") is None:
        pytest.skip("iproute2 'ip' is not installed")
    tag = secrets.token_hex(3)
    bridge = f"pbkbr{tag}"
    names = [f"pbk-{tag}-{n}" for n in "ab"]
    addresses = ["10.77.0.1", "10.77.0.2"]
    made_ns: list[str] = []
    made_bridge = False
    try:
        try:
            _ip("link", "add", bridge, "type", "bridge")
            made_bridge = True
            _ip("link", "set", bridge, "up")
            for n, (ns, addr) in enumerate(zip(names, addresses, strict=True)):
                _ip("netns", "add", ns)
                made_ns.append(ns)
                inner, outer = f"pbk{tag}v{n}", f"pbk{tag}b{n}"
                _ip("link", "add", inner, "type", "veth", "peer", "name", outer)
                _ip("link", "set", inner, "netns", ns)
                _ip("link", "set", outer, "master", bridge, "up")
                _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", inner)
                _ip("-n", ns, "link", "set", inner, "up")
                _ip("-n", ns, "link", "set", "lo", "up")
                # Without this route a multicast send fails with ENETUNREACH.
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", inner)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            stderr = getattr(exc, "stderr", b"") or b""
            pytest.skip(f"cannot build network namespaces here: {stderr.decode().strip()}")
        yield Lan(made_ns, addresses)
    finally:
        for ns in made_ns:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        if made_bridge:
            subprocess.run(["ip", "link", "del", bridge], capture_output=True, timeout=10)


def _spawn(ns: str, *args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen(
        ["ip", "netns", "exec", ns, sys.executable, str(HELPER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # own process group, so cleanup can kill all of it
    )


def _kill(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=5)


def test_beacon_crosses_bridge_and_channel_connects(lan: Lan) -> None:
    port = str(40000 + secrets.randbelow(20000))  # each namespace has its own ports
    (ns_host, ns_join), (addr_host, addr_join) = lan.namespaces, lan.addresses
    joiner = _spawn(ns_join, "join", "--interface", addr_join, "--port", port, "--seconds", "8")
    host = None
    try:
        assert joiner.stdout is not None
        assert json.loads(joiner.stdout.readline()) == {"listening": True}
        host = _spawn(ns_host, "host", "--interface", addr_host, "--port", port, "--seconds", "10")
        out, err = joiner.communicate(timeout=15)
        result = json.loads(out.strip().splitlines()[-1])
        assert result["heard"], err
        assert result["host"] == addr_host
        assert result["reply"] == "echo:ping", err
        assert host.stdout is not None
        announced = json.loads(host.stdout.readline())
        assert announced["host_key"] == result["host_key"]
    finally:
        _kill(joiner)
        if host is not None:
            _kill(host)
