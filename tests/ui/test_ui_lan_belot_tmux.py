"""End to end in a real terminal: ``p2pbelka host --game belot --players 2`` in tmux
with a ``join --bot`` process at the table; a deal played by keys on Belot's screen to
its verdict, the game left with ``q`` ``y``, and ``p2pbelka resume`` reopening Belot's
screen for the next deal.

The test reads the screen (``tmux capture-pane``) and types (``tmux send-keys``) as
a person would; the bot is a separate process, as on a LAN.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import time
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, bot_args
from tests.ui.test_ui_belot_tmux import play_until_the_verdict
from tests.ui.test_ui_tmux import Tmux
from tests.ui.test_ui_tmux_resume import P2PBELKA, exited, run, shell

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

PATIENT = ("--give-up-after", "600", "--linger", "1")
"""The bot waits for the person, who leaves and comes back."""


def screen_matching(tmux: Tmux, pattern: str, timeout: float = 60) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, tmux.screen())
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never on screen: {pattern}\n" + tmux.screen())


def test_host_a_belot_table_play_a_deal_leave_and_resume(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-lanbelot-{os.getpid()}")
    person = tmp_path / "person"
    person.mkdir()
    with PeerSet(tmp_path) as peers:
        shell(tmux, tmp_path)
        try:
            tmux.keys(f"export P2PBELKA_HOME={shlex.quote(str(person))}", "Enter")
            host = (
                f"{P2PBELKA} host --game belot --players 2 --auto-approve --no-announce"
                f" --listen 127.0.0.1 --player Person --lang en {' '.join(PATIENT)}"
            )
            run(tmux, host)
            port = screen_matching(tmux, r"Lobby port (\d+)").group(1)
            assert "Belot for 2" in tmux.screen()
            bot = peers.spawn("bot", "join", "--connect", f"127.0.0.1:{port}", *bot_args(*PATIENT))
            # no key for the joiner (--auto-approve): the game starts on Belot's screen
            screen, _seen = play_until_the_verdict(tmux)
            # Belot's deal page: the stock, the hands as dealt, the verdict
            assert "Stock:" in screen and "Hands as dealt" in screen and "Person" in screen
            tmux.keys("q")
            screen_matching(tmux, "Leave the game?")
            tmux.keys("y")
            left = exited(tmux)
            assert "EXIT=0" in left
            command = re.search(r"left the game: (p2pbelka resume [0-9a-f]{12})", left)
            assert command, left

            run(tmux, command.group(1).replace("p2pbelka", P2PBELKA, 1) + " --lang en")
            # Belot's screen again, filled from the game so far
            screen_matching(tmux, r"Score \(to 1001\)")
            screen_matching(tmux, r"p2pbelka · Belot · deal \d")
            screen_matching(tmux, "Person")
            screen, _seen = play_until_the_verdict(tmux)
            assert "Deal 2" in screen  # the deal after the one left
            tmux.keys("q")
            screen_matching(tmux, "Leave the game?")
            tmux.keys("y")
            assert "EXIT=0" in exited(tmux)
        finally:
            tmux("kill-server")
        assert "Traceback" not in bot.log(), bot.dump()
