"""Fixtures for the peer drivers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.oneprocess import share_the_work


@pytest.fixture(autouse=True)
def one_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every seat of a test's tables in this process opens each envelope once
    (``tests/oneprocess.py``)."""
    yield from share_the_work(request)
