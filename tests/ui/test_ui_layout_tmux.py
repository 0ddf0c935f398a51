"""The layout in a real terminal (tmux, 80×24): two-seat Belot with a long name.  The
trick's winner is said under the table, so the stock and the turned card keep their
frames; the long name is shown in full in the seats panel."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ui.test_ui_belot_tmux import SEED, cards_in_hand, changed
from tests.ui.test_ui_tmux import ROOT, Tmux

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
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main play --game belot --players 2"
        f" --seed {SEED} --bot-level random --pace 0.3 --lang en --name '{NAME}'"
        f" --transcript {tmp_path / 'game.transcript'}; echo EXIT=$?; sleep 30"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", "80", "-y", "24",
         command],
        check=True, env=env,
    )  # fmt: skip
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
