"""The real ``p2pbelka`` program as a subprocess, in a home of its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def cli_env(home: Path) -> dict[str, str]:
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
    return env


def run_cli(home: Path, *argv: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``p2pbelka ARGV`` with its config, data and cache under ``home``, no terminal."""
    env = cli_env(home)
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


def first_line_matching(
    home: Path, needle: str, *argv: str, timeout: float = 120.0
) -> tuple[str, str]:
    """Start ``p2pbelka ARGV``, wait for an output line containing ``needle``, stop the
    program; return that line and everything it wrote (for a program that waits on)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "p2pbelka.cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(home),
        cwd=home,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        for line in proc.stdout:
            seen.append(line)
            if needle in line:
                return line.strip(), "".join(seen)
            if time.monotonic() > deadline:
                break
        raise AssertionError(f"no line with {needle!r}:\n{''.join(seen)}")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
