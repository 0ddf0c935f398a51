"""The help page at a real terminal (tmux) scrolls no further than its last line: held
down past its end, the page still ends at the bottom with its last line, never a blank
page (the real program, ``play`` at 80x24)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.ui.test_cli_exits_tmux import PLAY, start
from tests.ui.test_ui_tmux import Tmux, wait_for

HANG = 60.0  # seconds: only stops a hang


def until_changed(tmux: Tmux, before: str) -> str:
    """The screen once it is no longer ``before``."""
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if screen != before:
            return screen
        time.sleep(0.02)
    raise AssertionError(f"the screen did not change:\n{before}")


pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

LAST_LINE = "layout press the same keys"  # the keyboard-layout note ends the page
BEFORE_LAST = "Every key works by its place on the keyboard"


def test_the_help_page_scrolls_no_further_than_its_end(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-help-{os.getpid()}")
    start(tmux, tmp_path, PLAY, size=(80, 24))
    try:
        wait_for(tmux, "Score (to 12)")
        tmux.keys("?")
        first = wait_for(tmux, "Belka in brief")  # the page is up, at its top
        assert LAST_LINE not in first  # longer than the screen
        screen = first
        while LAST_LINE not in screen:  # down a line at a time to the page's end
            tmux.keys("Down")
            screen = until_changed(tmux, screen)
        assert len([row for row in screen.splitlines() if row.strip()]) > 10, screen
        # one more line down changes nothing (the page ends at the bottom), so the line
        # up after it takes the last line off the bottom
        tmux.keys("Down", "Up")
        up = until_changed(tmux, screen)
        assert LAST_LINE not in up and BEFORE_LAST in up, up
        tmux.keys("Escape")
    finally:
        tmux("kill-server")
