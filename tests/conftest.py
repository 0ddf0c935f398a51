"""What every test shares: a disk that acknowledges syncs at once (``tests/quickdisk.py``),
unless the test is marked ``real_disk``; and the games' locks a test's process took
let go of at its end (a program holds them until it exits: ``peer/storelock.py``); and
the language a test chose put back after it (a screen test in Russian left the next test
in the same process reading Russian words)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pbelka.peer import storelock
from p2pbelka.ui.words import i18n
from tests import quickdisk


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


@pytest.fixture(autouse=True)
def quick_disk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("real_disk") is None:
        quickdisk.use(monkeypatch)


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
