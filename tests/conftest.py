"""What every test shares: a disk that acknowledges syncs at once (``tests/quickdisk.py``),
unless the test is marked ``real_disk``; and the games' locks a test's process took
let go of at its end (a program holds them until it exits: ``peer/storelock.py``); and
the language a test chose put back after it (a screen test in Russian left the next test
in the same process reading Russian words); no worker threads under a mock clock; and a
garbage collector that leaves what collection made alone (``pytest_collection_finish``)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from p2pbelka.peer import disk, storelock
from p2pbelka.ui.words import i18n
from tests import quickdisk
from tests.oneprocess import share_the_work

T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "real_disk: fsync and fdatasync wait for the real disk, in the test and in the"
        " processes it starts (every other test's return at once: tests/quickdisk.py)",
    )
    config.addinivalue_line(
        "markers",
        "counts_work: the test measures one peer's work, so its tables share no envelope"
        " opened, signature checked or product computed (tests/oneprocess.py)",
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every test module, its items, the package) is there for
    the whole run: frozen out of the collector's sight, and the young generation let
    grow further before a collection.  A game makes and drops objects by the million;
    each collection walked the whole heap of a worker: 7% of the table tests' CPU
    time, 3% after (peak memory moves little: the objects are freed as they go)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


@pytest.fixture
def one_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every seat of the test's tables in this process opens each envelope once, checks
    each signature once and computes each product once (``tests/oneprocess.py``):
    autouse in the table, peer, protocol and fair-deal tests, asked for by other tests
    that play games."""
    yield from share_the_work(request)


@pytest.fixture(autouse=True)
def quick_disk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("real_disk") is None:
        quickdisk.use(monkeypatch)


class InlineDisk(disk.RealDisk):
    """The real disk, its blocking work run inline: under trio's mock clock a worker
    thread's round trip lets the clock jump meanwhile (autojump), by as long as the
    thread took on a busy machine, so a bound of seconds would pass in an instant."""

    threads = False

    async def blocking(self, work: Callable[[], T]) -> T:
        return work()


@pytest.fixture(autouse=True)
def no_threads_under_a_mock_clock(request: pytest.FixtureRequest) -> Iterator[None]:
    if {"autojump_clock", "mock_clock"}.isdisjoint(request.fixturenames):
        yield
        return
    with disk.use(InlineDisk()):
        yield


@pytest.fixture(autouse=True)
def let_go_of_games() -> Iterator[None]:
    yield
    storelock.release_all()


@pytest.fixture(autouse=True)
def keep_the_language() -> Iterator[None]:
    before = i18n.language()
    yield
    if i18n.language() != before:
        i18n.set_language(before)
