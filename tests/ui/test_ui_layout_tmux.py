"""The layout in a real terminal (tmux, 80×24): two-seat Belot with a long name.  The
trick's winner is said under the table, so the stock and the turned card keep their
frames; the long name is shown in full in the seats panel."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.test_ui_belot_tmux import play_until_the_verdict, start_belot
from tests.ui.test_ui_tmux import Tmux

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

NAME = "Heuristic bot 12"


def frames_intact(screen: str) -> bool:
    """The stock and the turned card: two boxes side by side, top and bottom whole."""
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if "stock" in line)
    return all(lines[at - d].count(edge) >= 2 for d, edge in ((3, "┌───┐"), (1, "└───┘")))


def test_a_taken_trick_leaves_the_turned_card_whole(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-layout-{os.getpid()}")
    start_belot(tmux, tmp_path, name=NAME, pace="0.3", size="80x24")
    try:
        taken: list[str] = []

        def watch(screen: str) -> bool:
            if "takes it" in screen:
                taken.append(screen)
            return f"{NAME[:13]}… takes it" in screen

        play_until_the_verdict(tmux, watch)
        assert taken, "no trick taken on screen:\n" + tmux.screen()
        for screen in taken:
            assert frames_intact(screen), screen
            assert NAME in screen, screen  # in full, in the seats panel
    finally:
        tmux("kill-server")
