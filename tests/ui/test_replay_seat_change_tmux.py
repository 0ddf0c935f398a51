"""``p2pbelka replay`` of a game in which a bot took a seat, at a real terminal (tmux):
the deals before the change name the player who sat there, the deals from it on the
bot that played them (the vector ``scenarios/seat-change``: Nurlan's seat 3 is played
by "Bot" from deal 2)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.test_cli_exits_tmux import ROOT, start
from tests.ui.test_ui_tmux import Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

SEAT_CHANGE = ROOT / "protocol" / "vectors" / "scenarios" / "seat-change.p2pb"


def test_the_replay_names_the_bot_that_played_a_deal(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-replay-bot-{os.getpid()}")
    start(tmux, tmp_path, f"replay --lang en {SEAT_CHANGE}", size=(100, 30))
    try:
        first = wait_for(tmux, "deal 1 of")
        assert "Nurlan" in first and "Bot" not in first, first
        tmux.keys("]")
        second = wait_for(tmux, "deal 2 of")
        assert "Bot" in second and "Nurlan" not in second, second
        tmux.keys("[")
        again = wait_for(tmux, "deal 1 of")
        assert "Nurlan" in again and "Bot" not in again, again
        tmux.keys("q")
        wait_for(tmux, "EXIT=")
    finally:
        tmux("kill-server")
