"""Another program holding a game's folder: a real process that takes the lock the way
a running p2pbelka does and waits, so a test can be that second program beside it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

HOLD = """
import sys
from pathlib import Path
from p2pbelka.peer import storelock
what, directory = sys.argv[1], Path(sys.argv[2])
if what == "store":
    from p2pbelka.peer.store import GameStore
    GameStore(directory).hold()
elif what == "local":
    from p2pbelka.peer.local_save import LocalSave
    LocalSave(directory).hold()
else:
    storelock.hold(directory)
print("held", flush=True)
sys.stdin.read()  # until the test closes our input or kills us
"""


def start(what: str, directory: Path) -> subprocess.Popen[str]:
    """A process that holds ``directory`` (``what``: "store", "local" or "dir") once it
    printed ``held``."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, what, str(directory)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == "held\n", f"the holder did not take the lock: {line!r}"
    return proc


def kill(proc: subprocess.Popen[str]) -> None:
    """``kill -9``, as a crash: nothing of the program runs after it."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


@contextlib.contextmanager
def holding(what: str, directory: Path) -> Iterator[subprocess.Popen[str]]:
    proc = start(what, directory)
    try:
        yield proc
    finally:
        kill(proc)
