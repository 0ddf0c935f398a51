"""Discovery and a secure channel between two network namespaces on one bridge.

Needs root and iproute2; skipped with the reason otherwise. Every name is
unique to the run, every address is inside the 10.77.0.0/24 network the test
creates, and the namespaces and bridge are removed even when the test fails.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

HELPER = Path(__file__).with_name("net_netns_helper.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def lan() -> Iterator[Lan]:
    """Two namespaces on one bridge."""
    with namespace_lan(2, "10.77.0") as built:
        yield built


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
