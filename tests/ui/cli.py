"""The real ``p2pbelka`` program as a subprocess, in a home of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(home: Path, *argv: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``p2pbelka ARGV`` with its config, data and cache under ``home``, no terminal."""
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        USER="tester",
    )
    env.pop("P2PBELKA_HOME", None)
    env.pop("P2PBELKA_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=check,
    )
