"""End to end in a real terminal: ``p2pbelka play --game belot`` in tmux, a whole deal
played with keys through to the audit's verdict.

The test reads the screen as a person would (``tmux capture-pane``) and types
as a person would (``tmux send-keys``): ``y`` to play the turned suit, ``d``
and Enter to declare at its lead, a card's number and Enter (the next number
when the table refuses a card).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from p2pbelka.table.verify import verify_bytes
from tests.ui.test_ui_tmux import ROOT, Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

SEED = 3
"""A seed where seat 0 is asked to call, then declares at its lead."""


def start_belot(
    tmux: Tmux, tmp_path: Path, *, name: str = "Tester", pace: str = "0", size: str = "100x30"
) -> Path:
    """``play --game belot --players 2`` (seed :data:`SEED`, random bot) in a new tmux
    session of ``size``; the transcript's path."""
    transcript = tmp_path / "game.transcript"
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main play --game belot --players 2"
        f" --seed {SEED} --bot-level random --pace {pace} --lang en --name {shlex.quote(name)}"
        f" --transcript {transcript}; echo EXIT=$?; sleep 30"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    columns, rows = size.split("x")
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", columns, "-y", rows,
         command],
        check=True, env=env,
    )  # fmt: skip
    return transcript


def test_play_a_belot_deal_in_tmux(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-belot-{os.getpid()}")
    transcript = start_belot(tmux, tmp_path)
    try:
        screen, seen = play_until_the_verdict(tmux)
        assert "Your call" in seen and "Enter declares" in seen
        assert "Hands as dealt" in screen and "Stock:" in screen and "Tester" in screen
        assert "Combinations: Tester" in screen
        tmux.keys("q")
        wait_for(tmux, "Leave the game?")
        tmux.keys("y")
        screen = wait_for(tmux, "EXIT=")
        assert "EXIT=0" in screen and "Transcript saved to" in screen
        report = verify_bytes(transcript.read_bytes())
        assert report.error is None and report.deals and not report.faults
    finally:
        tmux("kill-server")


def play_until_the_verdict(
    tmux: Tmux, watch: Callable[[str], bool] | None = None
) -> tuple[str, str]:
    """Answer what the screen asks until a played deal's page shows the verdict (or
    ``watch``, shown each screen, says enough); return that screen and every prompt
    seen on the way."""
    deadline = time.monotonic() + 180
    number, seen = 0, ""
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if "Fair deal verified" in screen and "Tricks (leader" in screen:
            return screen, seen
        if watch is not None and watch(screen):
            return screen, seen
        keys: tuple[str, ...] = ()
        if "[Enter] continue" in screen:  # a void deal: all passed twice
            keys = ("Enter",)
        elif "Your call" in screen:
            seen += screen
            keys = ("y",) if "[y] play" in screen else ("n",)
        elif "Enter declares" in screen:
            seen += screen
            keys = ("Enter",)
        elif "[d] declare" in screen:
            keys = ("d",)
        elif "Your turn" in screen or "Your lead" in screen or "cannot be played" in screen:
            number = number % cards_in_hand(screen) + 1
            keys = (str(number), "Enter")
        if keys:
            tmux.keys(*keys)
            changed(tmux, screen)  # one answer per question, whatever the machine's speed
        time.sleep(0.05)
    raise AssertionError("no verdict on screen:\n" + tmux.screen())


def cards_in_hand(screen: str) -> int:
    """How many cards the hand shows (the numbers under them; nine if none are drawn):
    a number beyond the hand changes nothing on the screen, so it would only wait."""
    numbers = [
        left.split()
        for left in (line.split("│")[0] for line in screen.splitlines())
        if re.fullmatch(r"\s*1(\s+\d)*\s*", left)
    ]
    return len(numbers[-1]) if numbers else 9


def changed(tmux: Tmux, before: str, timeout: float = 5) -> None:
    """Wait until the screen is no longer ``before`` (or a moment passed: a card number
    beyond the hand changes nothing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and tmux.screen() == before:
        time.sleep(0.02)
