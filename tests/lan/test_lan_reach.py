"""Reaching a host by hand, through the real program: a wrong address is tried for the
stated time with the reason in words, then given up on with exit status 3 (text and
screen, and ``q`` while trying); a host on a LAN with no default route shows the
address its joiners can dial, never loopback, and a joiner dialling it plays."""

from __future__ import annotations

import re
import secrets
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, verify
from tests.netns import Lan, namespace_lan
from tests.ui.test_ui_tmux import Tmux
from tests.ui.test_ui_tmux_resume import P2PBELKA, exited, run, shell

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, read back, closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_text_join_to_a_wrong_address_gives_up_with_status_3(tmp_path: Path) -> None:
    wrong = f"127.0.0.1:{closed_port()}"
    with PeerSet(tmp_path) as peers:
        joiner = peers.spawn(
            "joiner", "join", "--connect", wrong, "--bot", "random", "--connect-wait", "3"
        )
        assert peers.wait([joiner], 90) == [3], joiner.dump()
    assert re.search(
        r"does not answer \(.+\); trying again in .* giving up in \d+ s", joiner.text()
    )
    assert "no table reached" in joiner.log() and "given up" in joiner.log(), joiner.dump()


@needs_tmux
@pytest.mark.parametrize("leave", [False, True], ids=["given-up", "q"])
def test_screen_join_to_a_wrong_address_says_why_then_exits_3(tmp_path: Path, leave: bool) -> None:
    tmux = Tmux(f"p2pbelka-reach-{secrets.token_hex(4)}")
    shell(tmux, tmp_path)
    try:
        wait = "600" if leave else "5"  # given up on while the test reads the screen
        run(tmux, f"{P2PBELKA} join --connect 127.0.0.1:{closed_port()} --connect-wait {wait}")
        deadline_text = r"The host does not answer \(.+\); trying again in \d+ s, giving up in"
        screen = _screen_matching(tmux, deadline_text)
        assert "q stops now" in screen.replace("\n", "")
        assert "r ready" not in screen  # no seat to be ready in yet
        if leave:
            tmux.keys("q")
        screen = exited(tmux)
        assert "EXIT=3" in screen, screen
        assert "no table reached" in screen, screen
    finally:
        tmux("kill-server")


def _screen_matching(tmux: Tmux, pattern: str) -> str:
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if re.search(pattern, screen.replace("\n", "")):
            return screen
        time.sleep(0.05)
    raise AssertionError(f"no {pattern!r} on the screen:\n{tmux.screen()}")


@pytest.fixture
def lan() -> Iterator[Lan]:
    """Two namespaces on one bridge: a link and the multicast route, no default route."""
    with namespace_lan(2, "10.83.0") as built:
        yield built


@pytest.mark.netns
def test_a_host_without_a_default_route_shows_the_address_joiners_dial(
    lan: Lan, tmp_path: Path
) -> None:
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    table = ["--game", "belot", "--players", "2"]
    (ns0, ns1), (addr0, _addr1) = lan.namespaces, lan.addresses
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--auto-approve", *table, *bots, netns=ns0)
        shown = host.wait_for(r"this machine is (\S+): join with p2pbelka join --connect (\S+)", 30)
        assert shown.group(1) == addr0, host.dump()
        assert "this machine is 127.0.0.1" not in host.text()
        joiner = peers.spawn("joiner", "join", "--connect", shown.group(2), *bots, netns=ns1)
        assert peers.wait([host, joiner], 180) == [0, 0], host.dump() + joiner.dump()
        assert verify(host.transcript()).startswith("OK")
