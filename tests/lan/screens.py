"""A tmux screen read again only when its program wrote to it, for the LAN tests that
watch a screen for a minute or more, and a person who plays at such a screen.

``Tmux.screen`` runs ``tmux capture-pane``, a process each time: a test polling a
screen every 50 ms while a game plays for a minute starts over a thousand.  A
``PipedTmux`` also has tmux copy everything the pane's program writes to a file
(``pipe-pane``) and captures the pane again only when that file has grown since the
last capture, or when the last capture is ``FRESH`` seconds old (a bound on how
stale a screen can be, should the copy lag behind the pane).  Every change on a
screen is something its program wrote, so what a test reads is what ``Tmux.screen``
would have read, at most a poll later.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from tests.lan.helpers import HANG
from tests.ui.test_ui_tmux import Tmux
from tests.ui.test_ui_tmux_resume import hand_of

FRESH = 0.5
STOPPED = ("The game was stopped", "Game stopped:")


class PipedTmux(Tmux):
    def __init__(self, socket: str, copy: Path) -> None:
        """``copy``: the file the pane's output is copied to (its folder must exist)."""
        super().__init__(socket)
        self.copy = copy
        self.piped = False
        self.size = -1
        self.captured = ""
        self.at = 0.0

    def _pipe(self) -> None:
        """Start copying the pane's output once the session is there."""
        command = f"cat >> {shlex.quote(str(self.copy))}"
        done = subprocess.run(
            ["tmux", "-L", self.socket, "pipe-pane", "-o", "-t", "play", command],
            capture_output=True,
            check=False,
        )
        self.piped = done.returncode == 0

    def screen(self) -> str:
        if not self.piped:
            self._pipe()
        size = self.copy.stat().st_size if self.copy.exists() else 0
        now = time.monotonic()
        if not self.piped or size != self.size or now - self.at >= FRESH:
            self.captured, self.size, self.at = super().screen(), size, now
        return self.captured


class Person:
    """The person at a screen: plays a card when it is their turn, closes a page,
    says no to a re-deal, takes +4 after the eggs, and reads the screen after each key,
    as a person would."""

    def __init__(self, tmux: Tmux, also: Callable[[], object] = lambda: None) -> None:
        """``also``: what else the test does at each look (another seat typing)."""
        self.tmux, self.number, self.also = tmux, 0, also

    def screen(self) -> str:
        screen = self.tmux.screen()
        assert not any(stopped in screen for stopped in STOPPED), screen
        return screen

    def play_until(
        self, done: Callable[[str], bool], what: str, pages: bool = True, yes: bool = False
    ) -> str:
        """Play on until ``done(screen)``; ``pages``: close a page that is up (else leave
        it up); ``yes``: say yes to a question about a seat (else leave it)."""
        deadline = time.monotonic() + HANG
        while not done(screen := self.screen()):
            assert time.monotonic() < deadline, f"{what}: never\n{screen}"
            if "[y] yes" in screen:  # a question is up: never a stray key for it
                if yes:
                    self.tmux.keys("y")
            elif "[Enter] continue" in screen:
                if pages or "claimed a re-deal" in screen:
                    self.tmux.keys("Enter")
            elif "allows a re-deal" in screen:
                self.tmux.keys("n")
            elif "your pair chooses" in screen:  # after 60:60, as the deals fall
                self.tmux.keys("1")
            elif "Your turn" in screen or "cannot be played" in screen:
                self._card(screen)
            self.also()
            time.sleep(0.05)
        return screen

    def _card(self, screen: str) -> None:
        before = hand_of(screen)
        self.number = self.number % max(1, len(before)) + 1
        self.tmux.keys(str(self.number), "Enter")
        for _ in range(100):  # the screen moves on, or the card is refused
            time.sleep(0.02)
            now = self.tmux.screen()
            # A hand of one card has no row of numbers for ``hand_of`` to read: the last
            # card of a deal is seen to go by the turn leaving the status line.  (Waiting
            # for the hand to change, the person looked away for the whole loop, and the
            # question asked over the page that comes up then ran out unseen.)
            if hand_of(now) != before or "cannot be played" in now or "Your turn" not in now:
                return
