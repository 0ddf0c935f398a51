"""Running code in a real process with the compiled searches switched off, as where
numba is missing (``P2PBELKA_NO_JIT=1``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_without_jit(code: str) -> str:
    """Run ``code`` in a fresh interpreter from the project's root; its output (the
    process must succeed)."""
    env = dict(os.environ, P2PBELKA_NO_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
