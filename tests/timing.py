"""The longest tests first, so that the two workers finish together.

Most of the suite is short; a few dozen tests (real processes, namespaces, tmux)
take most of its time.  Left in collection order, one of those can start on a
worker when the other has little left, and the run waits for it alone.  So the
tests ``tests/durations.txt`` lists as long run first, longest first, and the
workers share out the rest by stealing (``--dist worksteal``, set in the
top-level ``conftest.py``).

``tests/durations.txt`` holds one ``seconds<TAB>node id`` per line (setup, call
and teardown together), only the tests of a second or more.  A test it does not
name keeps its place among the short ones, in collection order, so module
fixtures stay shared; an entry for a test that is gone is ignored.  Refresh it
after adding a long test: ``pytest --record-durations tests/durations.txt``.
The figures only order the run; nothing is asserted on them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

DURATIONS = Path(__file__).resolve().parent / "durations.txt"
LONG = 1.0
"""Seconds from which a test is moved to the front (and written to the file)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        metavar="FILE",
        default=None,
        help="write each test of a second or more (setup, call, teardown) to FILE,"
        " longest first: the order the next runs start in (tests/durations.txt)",
    )


def read_durations(path: Path = DURATIONS) -> dict[str, float]:
    """The recorded seconds per node id; no file, or a line that does not parse,
    only loses the ordering, never the run."""
    durations: dict[str, float] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return durations
    for line in lines:
        seconds, _, nodeid = line.partition("\t")
        try:
            durations[nodeid] = float(seconds)
        except ValueError:
            continue
    return durations


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # every worker sorts its own collection: a stable sort of the same items on the
    # same file gives the same order, as pytest-xdist requires
    durations = read_durations()
    items.sort(key=lambda item: -durations.get(item.nodeid, 0.0))


class Recorder:
    """Adds up each test's phases as the reports arrive (from the workers, under
    xdist) and writes the long ones at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] += report.duration

    def pytest_sessionfinish(self) -> None:
        long = sorted(
            ((s, nodeid) for nodeid, s in self.seconds.items() if s >= LONG), reverse=True
        )
        self.path.write_text("".join(f"{s:.1f}\t{nodeid}\n" for s, nodeid in long), "utf-8")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--record-durations")
    # the workers' reports reach the controller, which writes the file alone
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(Path(path)), "record-durations")
