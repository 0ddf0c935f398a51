"""End to end in a real terminal: a table of four bot processes on loopback (the host
with ``--auto-approve``) and ``p2pbelka watch --connect`` in tmux, there before the
game starts.  The watcher's screen shows the lobby, then a deal with every hand face
down, then the deal's verdict, and at the end the game's verdict; ``q`` leaves."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, bot_args
from tests.ui.test_ui_tmux import Tmux
from tests.ui.test_ui_tmux_resume import P2PBELKA, exited, run, shell

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

BACKS = re.compile(r"▒▒ ▒▒ ▒▒")
VERDICT = re.compile(r"deal (\d+) verified: the shuffle was fair and every card checked")


def seen(tmux: Tmux, pattern: re.Pattern[str], timeout: float = 900) -> str:
    """The screen once ``pattern`` is on it (a safety net, not a limit: a game of bot
    processes moves on its own, so the screen is read as often as it can be; a whole
    game of four processes took over 240 s beside a loaded parallel run)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if pattern.search(screen):
            return screen
        time.sleep(0.02)
    raise AssertionError(f"never on screen: {pattern.pattern}\n" + tmux.screen())


def test_a_watcher_in_a_terminal_sees_a_deal_face_down_and_its_verdict(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-watch-{os.getpid()}")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--table", "Kitchen", "--no-announce", *bot_args()
        )
        port = host.wait_for(r"lobby port (\d+)", 60).group(1)
        shell(tmux, tmp_path)
        try:
            run(tmux, f"{P2PBELKA} watch --connect 127.0.0.1:{port} --name Dana --lang en")
            lobby = seen(tmux, re.compile("you watch it"), 60)
            assert "watching" in lobby and "q stop watching" in lobby
            joiners = [
                peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bot_args())
                for n in range(3)
            ]
            table = seen(tmux, BACKS)
            assert "Score (to 12)" in table and "Seats in play order" in table
            page = seen(tmux, VERDICT)
            assert "Hands as dealt" in page or "Score" in page
            # the rest of the game: waited for on the seats' exits, then the screen read
            assert peers.wait([host, *joiners], 900) == [0, 0, 0, 0]
            end = seen(tmux, re.compile(r"OK: every deal was dealt fairly and played legally"))
            assert "Transcript saved to" in end or "Check it again" in end
            tmux.keys("q")
            assert "EXIT=0" in exited(tmux)
        finally:
            tmux("kill-server")
    for peer in peers.peers:
        assert "Traceback" not in peer.log(), peer.dump()
