"""End to end in two real terminals (tmux): a person hosts a two-seat Belot table, a
person joins it by address.  The joiner's lobby has no chat line; the wait for the
host's answer ends once a seat is given; a joiner the host turns away sees only why,
and leaves with the reason printed and exit status 3.  Who presses Ctrl-C while the
host decides (to sit or to watch) leaves the host's list of requests at once."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.ui.test_ui_lan_belot_tmux import screen_matching
from tests.ui.test_ui_tmux import Tmux, wait_for
from tests.ui.test_ui_tmux_resume import P2PBELKA, exited, run, shell

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)


def _hosting(tmp_path: Path, test: str) -> tuple[Tmux, Tmux, str]:
    """Two terminals: Asel hosting a two-seat Belot table in the first, a shell in the
    second; the host's lobby port."""
    host, other = (Tmux(f"p2pbelka-{test}-{who}-{os.getpid()}") for who in ("host", "other"))
    try:
        for tmux, who in ((host, "host"), (other, "other")):
            (tmp_path / who).mkdir()
            shell(tmux, tmp_path / who)
        run(
            host,
            f"{P2PBELKA} host --game belot --players 2 --no-announce --listen 127.0.0.1"
            " --player Asel --lang en --no-seat-bot",
        )
        return host, other, screen_matching(host, r"Lobby port (\d+)").group(1)
    except BaseException:
        host("kill-server")
        other("kill-server")
        raise


def test_a_joiner_let_in_then_turned_away(tmp_path: Path) -> None:
    host, joiner, port = _hosting(tmp_path, "lobby")
    try:
        join = f"{P2PBELKA} join --connect 127.0.0.1:{port} --player Bolat --lang en"

        run(joiner, join)
        waiting = wait_for(joiner, "The host is deciding whether to let you in")
        assert "chat>" not in waiting
        wait_for(host, "Asking to sit down")
        host.keys("y")
        seated = wait_for(joiner, "(you)")
        assert "deciding whether" not in seated and "chat>" not in seated
        assert "r ready" in seated
        joiner.keys("q")
        left = exited(joiner)
        assert "EXIT=0" in left and "left before the game started" in left

        run(joiner, join)
        wait_for(host, "Asking to sit down")
        host.keys("n")
        refused = wait_for(joiner, "The lobby closed")
        assert "Press q to leave" in refused
        assert "Seats" not in refused and "r ready" not in refused
        joiner.keys("q")
        left = exited(joiner)
        assert "EXIT=3" in left and "p2pbelka join: the host did not let you in" in left
    finally:
        host("kill-server")
        joiner("kill-server")


def _gone(tmux: Tmux, text: str, timeout: float = 90) -> str:
    """The screen once ``text`` is no longer on it."""
    deadline = time.monotonic() + timeout
    while text in (screen := tmux.screen()):
        assert time.monotonic() < deadline, f"{text!r} stayed:\n{screen}"
        time.sleep(0.05)
    return screen


def test_who_presses_ctrl_c_while_the_host_decides_leaves_the_host_s_list(
    tmp_path: Path,
) -> None:
    """Bolat asks to sit down and Dana to watch; each presses Ctrl-C before the host
    answers: the host's request line goes at once, not when the host answers."""
    host, other, port = _hosting(tmp_path, "leave")
    try:
        dial = f"--connect 127.0.0.1:{port} --lang en"
        for command, shown, waiting in (
            (f"join {dial} --player Bolat", "Bolat", "The host is deciding"),
            (f"watch {dial} --name Dana", "wants to watch", "waiting for the host"),
        ):
            run(other, f"{P2PBELKA} {command}")
            wait_for(other, waiting)
            assert shown in wait_for(host, "Asking to sit down")
            other.keys("C-c")
            assert "EXIT=" in exited(other)
            left = _gone(host, "Asking to sit down")
            assert shown not in left and "Lobby port" in left, left
    finally:
        host("kill-server")
        other("kill-server")
