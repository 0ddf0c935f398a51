"""The ``p2pbelka`` command in a home of its own: ``run_main`` calls ``main(argv)`` in
this process, for what a test checks of its exit status and output; ``run_cli`` and
``first_line_matching`` run the real program as a subprocess, for what is about the
program itself (its entry point, a program that waits on until stopped).
"""

from __future__ import annotations

import functools
import io
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from p2pbelka.cli.main import main
from p2pbelka.ui.words import i18n

NOT_INHERITED = ("P2PBELKA_HOME", "P2PBELKA_DEBUG")
"""Variables of the tester's own environment the command must not see."""


def home_env(home: Path) -> dict[str, str]:
    """The variables that put the command's config, data and cache under ``home``."""
    return {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "USER": "tester",
        "LANGUAGE": "en",  # what a test reads is English, whatever the tester's locale
    }


def cli_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(home_env(home))
    for name in NOT_INHERITED:
        env.pop(name, None)
    return env


@dataclass(frozen=True)
class Ran:
    """What ``main`` returned and wrote: read as a finished program's is."""

    returncode: int
    stdout: str
    stderr: str


def run_main(
    home: Path,
    *argv: str,
    check: bool = False,
    env_changes: dict[str, str | None] | None = None,
) -> Ran:
    """``p2pbelka ARGV`` as ``run_cli`` runs it (its environment, ``home`` as working
    directory, no terminal, nothing to read), but by calling ``main(argv)`` in this
    process: no interpreter to start and no package to import again.  ``env_changes``
    as ``run_cli``'s.

    What it logs goes to its ``stderr`` as in the program (the root logger starts
    without the test's handlers); the language and the logging set-up a command
    changes are put back.  (A command that should fail but waits would hang here:
    the checks run through this are the ones that end at once.)"""
    out, err = io.StringIO(), io.StringIO()
    language, root = i18n.language(), logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
            for name, value in home_env(home).items():
                patch.setenv(name, value)
            for name in NOT_INHERITED:
                patch.delenv(name, raising=False)
            for name, changed in (env_changes or {}).items():
                if changed is None:
                    patch.delenv(name, raising=False)
                else:
                    patch.setenv(name, changed)
            patch.setenv("COLUMNS", "80")  # help laid out as for a pipe, not this terminal
            patch.chdir(home)
            patch.setattr(sys, "stdin", io.StringIO())
            root.handlers[:] = []
            try:
                status = main(list(argv))
            except SystemExit as exc:  # argparse's usage errors, --help and --version
                status = _status(exc.code, err)
    finally:
        i18n.set_language(language)
        root.handlers[:], root.level = handlers, level
    ran = Ran(status, out.getvalue(), err.getvalue())
    if check and ran.returncode != 0:
        raise AssertionError(f"p2pbelka {' '.join(argv)} ended {ran.returncode}:\n{ran.stderr}")
    return ran


def _status(code: object, err: io.StringIO) -> int:
    """The exit status ``sys.exit(code)`` gives (a message is written, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=err)
    return 1


def run_cli(
    home: Path,
    *argv: str,
    check: bool = False,
    env_changes: dict[str, str | None] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``p2pbelka ARGV`` with its config, data and cache under ``home``, no terminal;
    ``env_changes`` sets variables (None: unsets them), ``cwd`` where it runs (``home``)."""
    env = cli_env(home)
    for name, value in (env_changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=home if cwd is None else cwd,
        stdin=subprocess.DEVNULL,
        timeout=300,
        check=check,
    )


def first_line_matching(
    home: Path,
    needle: str,
    *argv: str,
    timeout: float = 120.0,
    env_changes: dict[str, str] | None = None,
    stderr: IO[str] | None = None,
) -> tuple[str, str]:
    """Start ``p2pbelka ARGV``, wait for an output line containing ``needle``, stop the
    program; return that line and everything it wrote (for a program that waits on).
    ``env_changes``: variables set for it; ``stderr``: where its errors go (else they are
    read with its output)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "p2pbelka.cli.main", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if stderr is None else stderr,
        text=True,
        env={**cli_env(home), **(env_changes or {})},
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


def saved_game(home: Path, seed: int = 3) -> Path:
    """One seeded game between random bots, its transcript saved under ``home``."""
    return selfplayed(home / "game.transcript", seed)


def selfplayed(path: Path, seed: int = 3) -> Path:
    """The transcript ``p2pbelka selfplay --seed SEED --quiet --transcript PATH`` writes,
    written at ``path``.  The seed makes the keys, the deals and the bots' play, so the
    file is the same bytes every time: the game is played once per test process and
    each caller gets its own copy."""
    path.write_bytes(_selfplay_bytes(seed))
    return path


@functools.cache
def _selfplay_bytes(seed: int) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        path = home / "game.transcript"
        run_main(
            home, "selfplay", "--seed", str(seed), "--quiet", "--transcript", str(path), check=True
        )
        return path.read_bytes()
