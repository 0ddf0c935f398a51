"""A table heard by DNS-SD first and by its signed beacon a moment later is shown
signed on the joiner's screen (it stayed marked "DNS-SD, unsigned" while nothing
else about it changed).  The host's beacons are held back by its routes: mDNS's
224.0.0.0/24 has one, the beacons' 239.255.0.0/16 none (and two addresses, so no
one address is taken instead) until the test adds it.  Real processes in network
namespaces the test makes, the joiner's screen in tmux (root; skipped otherwise).
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet
from tests.netns import namespace_lan
from tests.ui.test_ui_lobby_tmux import _gone  # the screen once a text is off it
from tests.ui.test_ui_tmux import Tmux, wait_for
from tests.ui.test_ui_tmux_resume import run, shell

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def test_a_hint_then_its_beacon_shows_the_table_signed(tmp_path: Path) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    with namespace_lan(2, "10.81.0") as lan, PeerSet(tmp_path) as peers:
        (ns0, ns1), if0 = lan.namespaces, lan.interfaces[0]
        _ip("-n", ns0, "route", "del", "224.0.0.0/4")
        _ip("-n", ns0, "route", "add", "224.0.0.0/24", "dev", if0)  # mDNS only
        _ip("-n", ns0, "addr", "add", "10.81.1.1/24", "dev", if0)
        host = peers.spawn(
            "host", "host", "--auto-approve", "--bot", "random", "--text", "--table",
            "Both ways", "--beacon-port", beacon, netns=ns0,
        )  # fmt: skip
        host.wait_for(r"lobby port \d+", 30)
        joiner = Tmux(f"p2pbelka-race-{os.getpid()}")
        try:
            (tmp_path / "joiner").mkdir()
            shell(joiner, tmp_path / "joiner")
            command = [
                "ip", "netns", "exec", ns1, sys.executable, "-m", "p2pbelka.cli.main", "join",
                "--beacon-port", beacon, "--player", "Bolat", "--lang", "en",
            ]  # fmt: skip
            run(joiner, shlex.join(command))
            hinted = wait_for(joiner, "(DNS-SD,")  # "unsigned" may wrap to the next line
            assert "Both ways" in hinted, hinted
            assert "cannot send beacon" in host.log(), host.dump()  # held back so far
            _ip("-n", ns0, "route", "add", "239.255.0.0/16", "dev", if0)
            signed = _gone(joiner, "DNS-SD")
            assert "Both ways" in signed and "10.81.0.1:" in signed, signed
        finally:
            joiner("kill-server")
