"""The layout in a real terminal (tmux, 80×24): two-seat Belot with a long name.  The
trick's winner is said under the table, so the stock and the turned card keep their
frames; the long name is shown in full in the seats panel."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.ui.test_ui_belot_tmux import cards_in_hand, changed, start_belot
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
        taken, number = [], 0
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not any(f"{NAME[:13]}… takes it" in s for s in taken):
            screen = tmux.screen()
            if "takes it" in screen:
                taken.append(screen)
            keys: tuple[str, ...] = ()
            if "[Enter] continue" in screen:
                keys = ("Enter",)
            elif "Your call" in screen:
                keys = ("y",) if "[y] play" in screen else ("n",)
            elif "Enter declares" in screen:
                keys = ("Enter",)
            elif "Your turn" in screen or "Your lead" in screen or "cannot be played" in screen:
                number = number % cards_in_hand(screen) + 1
                keys = (str(number), "Enter")
            if keys:
                tmux.keys(*keys)
                changed(tmux, screen)
            time.sleep(0.02)
        assert taken, "no trick taken on screen:\n" + tmux.screen()
        for screen in taken:
            assert frames_intact(screen), screen
            assert NAME in screen, screen  # in full, in the seats panel
    finally:
        tmux("kill-server")
