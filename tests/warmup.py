"""What every program of a run compiles, compiled once before any test of a run on
workers: the games' compiled searches.

numba compiles a kernel on its first call in a process and keeps it on disk
(``cache=True``: beside the sources, in ``__pycache__``), where every later
process loads it in well under a second.  A fresh clone has no such copy: the
first test of each worker that searches, and each program a test starts with a
searching seat or the coach, compiled the kernels again side by side (Belka's
five CPU-seconds, Belot's three), as none of them found the others' copy yet:
about twenty CPU-seconds of a run went to compiling the same code.

So a run on workers (``-n``, the default: ``conftest.py``) starts this module as
programs while the workers start and collect (one for each game's search), and
lets no test start before they are done: each is compiled once, and every process
after loads it.  When the copies on disk are
there already (and newer than their sources), no program is started.  A run
in one process (``-n 0``) compiles, as before, where it is first needed.  Nothing
a test checks changes: the same code runs, compiled the same way.

``python -m tests.warmup belka`` (or ``belot``) compiles one of them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _warm_belka() -> None:
    from p2pbelka.bots.belka import fastsolver
    from p2pbelka.cards import parse_cards, to_mask

    # an ending of two cards a hand (tests/bots/test_bots_endgames.py), at a lead
    # and in a trick: the entry points' every argument type
    hands = [to_mask(parse_cards(h)) for h in ("KD JH", "8S AS", "JC QC", "JD AD")]
    fastsolver.solve(hands, 0, [], 3)
    led = (hands[0] & -hands[0]).bit_length() - 1
    fastsolver.solve([hands[0] & ~(1 << led), *hands[1:]], 0, [led], 3, 10)


def _warm_belot() -> None:
    from p2pbelka.bots.belot import fastsolver
    from tests.bots.test_belot_solver import endgame

    sim = endgame(7, 3, 4)
    sim.led = 7  # every seat past its lead: the compiled search takes it
    fastsolver.solve(sim, 1)


def warm(part: str) -> None:
    {"belka": _warm_belka, "belot": _warm_belot}[part]()


def _jit_wanted() -> bool:
    return not os.environ.get("P2PBELKA_NO_JIT") and importlib.util.find_spec("numba") is not None


def _kept(part: str) -> bool:
    """Whether what ``part`` compiles is on disk already, newer than its sources (a
    second run of the same tree starts no program for it)."""
    bots = ROOT / "p2pbelka" / "bots"
    entry = {"belka": "bisect", "belot": "search"}[part]
    sources = [bots / part / "jitsearch.py", bots / "common" / "jitkit.py"]
    index = sorted((bots / part / "__pycache__").glob(f"jitsearch.{entry}-*.nbi"))
    newest = max(source.stat().st_mtime for source in sources)
    return bool(index) and all(i.stat().st_mtime >= newest for i in index)


def parts_to_warm() -> list[str]:
    wanted = ["belka", "belot"] if _jit_wanted() else []
    return [part for part in wanted if not _kept(part)]


def _wanted(config: pytest.Config) -> bool:
    """A run on workers, in the controller."""
    return not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", 0))


class Warming:
    """The warm-up programs, started at configuration and waited for once the first
    worker has collected (no test is handed out before every worker has); a program
    that fails says why, and the tests compile what it would have."""

    def __init__(self) -> None:
        self.programs = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.warmup", part],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for part in parts_to_warm()
        ]

    def wait(self) -> None:
        for program in self.programs:
            _, errors = program.communicate()
            if program.returncode:
                sys.stderr.write(f"tests/warmup.py: {errors.decode(errors='replace')}")
        self.programs = []

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self) -> None:
        self.wait()

    def pytest_unconfigure(self) -> None:
        for program in self.programs:
            program.kill()
            program.wait()


def pytest_configure(config: pytest.Config) -> None:
    if _wanted(config):
        config.pluginmanager.register(Warming(), "warm-up")


if __name__ == "__main__":
    warm(sys.argv[1])
