"""A tmux screen read again only when its program wrote to it, for the LAN tests that
watch a screen for a minute or more.

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
from pathlib import Path

from tests.ui.test_ui_tmux import Tmux

FRESH = 0.5


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
