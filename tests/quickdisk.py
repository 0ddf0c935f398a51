"""A disk that acknowledges every sync at once: for the tests that do not test durability.

A seat syncs its transcript and journal before each send (``GameStore.sync``): on a
real disk that is a wait of milliseconds, thousands of times a game, and nothing a
test can observe (only a power cut shows what a sync did, and the power-cut tests
watch the syncs themselves: ``tests/peer/powercut.py``).  So by default every test's
``os.fdatasync`` and ``os.fsync`` only check that the descriptor is open (as the real
calls fail on a closed one) and return; the code calls them exactly as it would.
A test marked ``real_disk`` keeps the real calls, and so do the processes it starts.

Processes a test starts (``tests.lan.helpers.PeerSet``) get the disk the test has:
``python -m tests.quickdisk MODULE ARGS`` runs ``python -m MODULE ARGS`` on it.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # not imported by the processes a test starts
    import pytest

NAMES = tuple(name for name in ("fsync", "fdatasync") if hasattr(os, name))
REAL = {name: getattr(os, name) for name in NAMES}
"""The real calls, as the interpreter started with them."""


def acknowledged(fd: int) -> None:
    """A sync the disk answers at once: a bad descriptor still fails (``OSError``)."""
    os.fstat(fd)


def use(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's syncs return at once (undone with the test's ``monkeypatch``)."""
    for name in NAMES:
        monkeypatch.setattr(os, name, acknowledged)


def in_use() -> bool:
    """Whether this process's syncs are the quick ones (so a child's should be too)."""
    return bool(NAMES) and all(getattr(os, name) is acknowledged for name in NAMES)


def main() -> None:
    """``python -m tests.quickdisk MODULE ARGS``: ``python -m MODULE ARGS``, quick syncs."""
    from tests import quickdisk  # this file by its name, not as __main__: one ``acknowledged``

    for name in NAMES:
        setattr(os, name, quickdisk.acknowledged)
    module, sys.argv = sys.argv[1], sys.argv[1:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
