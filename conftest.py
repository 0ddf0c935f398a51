"""Plain ``pytest`` from a fresh clone: the project's declared dependencies come first,
and the tests run on eight worker processes.

The README's test command installs them (``pip install -e '.[test]' && pytest``);
a bare ``pytest`` in an interpreter that lacks them would otherwise fail to
collect with one import error per test module.  So when a module that
``pyproject.toml`` declares is missing, this installs the project with its test
extras into the interpreter running pytest (saying so), and loads the trio
plugin that was not there when pytest started.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
# the import names of what pyproject.toml declares (dependencies and the test extras)
DECLARED = (
    "trio",
    "msgpack",
    "cryptography",
    "nacl",
    "coincurve",
    "prompt_toolkit",
    "zeroconf",
    "shtab",
    "argparse_manpage",
    "openskill",
    "pytest_trio",
    "hypothesis",
    "xdist",
)
WORKERS = 8
"""Worker processes for a plain ``pytest``: much of the suite's time is peers and
screens waiting on each other, so more workers than cores overlap the waits (two
workers kept about 1.3 of two cores busy; four, 1.6; six, 1.7), and beside two CPU
burners more workers hold a larger share of the cores (measured on two cores, the
same tree: six workers 3:02 quiet and 4:00 beside the burners, eight 3:04 and 3:53;
each worker's collection costs about 2.7 CPU-seconds)."""


def _missing() -> list[str]:
    return [name for name in DECLARED if importlib.util.find_spec(name) is None]


def _install(missing: list[str]) -> None:
    print(
        f"conftest: {', '.join(missing)} not installed; running"
        f" {sys.executable} -m pip install -e '.[test]' first",
        file=sys.stderr,
        flush=True,
    )
    command = [sys.executable, "-m", "pip", "install", "-q", "-e", f"{ROOT}[test]"]
    if subprocess.run(command, check=False).returncode != 0:
        pytest.exit("could not install the test dependencies: run pip install -e '.[test]'", 4)
    importlib.invalidate_caches()


def _keep_compiled_code() -> None:
    """Compiled code is kept between runs, in pytest's own cache directory, when the
    environment says not to write it beside the sources (``PYTHONDONTWRITEBYTECODE``).
    Without it every worker rewrites the asserts of every test module at each run (five
    or six CPU-seconds a worker), and every program a test starts compiles again each
    module of the package it finds no compiled copy of.  The sources stay clean; a
    prefix the environment names is kept."""
    if not sys.dont_write_bytecode or sys.pycache_prefix:
        return
    prefix = str(ROOT / ".pytest_cache" / "pycache")
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False
    # the workers and the programs the tests start inherit it
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_trio_plugin_was_loaded = importlib.util.find_spec("pytest_trio") is not None
if _missing():
    _install(_missing())
_keep_compiled_code()  # after pip, which keeps its own compiled code where it installs
# pytest loads pytest-trio by its entry point at start-up; installed just now, it is
# loaded here instead (from the top-level conftest, where pytest_plugins is allowed)
pytest_plugins = ["tests.timing", "tests.warmup"] + (
    [] if _trio_plugin_was_loaded else ["pytest_trio.plugin"]
)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n 4`` unless the command says otherwise (``-n 0`` runs in one process);
    before pytest-xdist reads the option.  Without the plugin (installed just now
    by this file), or under ``--pdb``, the run stays in one process.

    The workers share the tests by stealing (``--dist worksteal``) unless the
    command names a ``--dist``: the long tests run first (``tests/timing.py``),
    and a worker that runs out takes half of what the other has left, so neither
    waits for the other at the end."""
    if not config.pluginmanager.hasplugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if config.option.numprocesses is None and not config.getoption("usepdb", False):
        config.option.numprocesses = WORKERS
    if config.option.numprocesses and config.option.dist == "no":
        config.option.dist = "worksteal"
