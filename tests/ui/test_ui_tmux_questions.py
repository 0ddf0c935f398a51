"""End to end in a real terminal: no question about a hand is asked, nor answered by a
key, while the end-of-deal page of the deal before still covers the table.

``p2pbelka play --game belot --players 2`` in tmux: the first deal is played by keys
to its verdict; the next deal asks the person (a call, or a card) underneath the page.
The page says that the table asks, ``y`` changes nothing, and only once Enter shows the
table is the question on the status line.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.ui.test_ui_belot_tmux import changed, play_until_the_verdict, start_belot
from tests.ui.test_ui_tmux import Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

ASKED = ("Your call", "Your turn", "Your lead")


def test_the_next_deal_waits_for_the_last_deal_s_page(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-questions-{os.getpid()}")
    start_belot(tmux, tmp_path)
    try:
        play_until_the_verdict(tmux)
        # the next deal is dealt and asks the person, underneath the page
        page = wait_for(tmux, "The table asks you: press Enter")
        assert "Fair deal verified" in page and not any(q in page for q in ASKED)
        tmux.keys("y")  # a call, were the question on screen: here nothing
        tmux.keys("s")  # then the score sheet, so that y has surely been read
        sheet = wait_for(tmux, "Score sheet")
        assert not any(q in sheet for q in ASKED)
        tmux.keys("Enter")
        changed(tmux, sheet)
        table = wait_for(tmux, "Your ")
        assert any(q in table for q in ASKED), table
        assert "Deal 2" in table or "deal 2" in table
        tmux.keys("q")
        wait_for(tmux, "Leave the game?")
        tmux.keys("y")
        assert "EXIT=0" in wait_for(tmux, "EXIT=")
    finally:
        tmux("kill-server")
