"""The help page at a real terminal (tmux) scrolls no further than its last line: held
down past its end, the page still ends at the bottom with its last line, never a blank
page (the real program, ``play`` at 80x24)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.test_cli_exits_tmux import PLAY, start
from tests.ui.test_ui_tmux import Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

LAST_LINE = "q quits (the game is saved), Esc closes this help."


def test_the_help_page_scrolls_no_further_than_its_end(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-help-{os.getpid()}")
    start(tmux, tmp_path, PLAY, size=(80, 24))
    try:
        wait_for(tmux, "Score (to 12)")
        tmux.keys("?")
        first = wait_for(tmux, "Belka in brief")  # the page is up, at its top
        assert LAST_LINE not in first  # longer than the screen
        for _ in range(60):
            tmux.keys("Down")
        bottom = wait_for(tmux, LAST_LINE)
        assert len([row for row in bottom.splitlines() if row.strip()]) > 10, bottom
        tmux.keys("Up")
        up = wait_for(tmux, "Keys:")
        assert "Belka in brief" not in up, up
        tmux.keys("Escape")
    finally:
        tmux("kill-server")
