from __future__ import annotations

import pytest

from p2pbelka.fairdeal import SUPPORTED_VERSIONS


@pytest.fixture(params=SUPPORTED_VERSIONS, ids=[f"v{v}" for v in SUPPORTED_VERSIONS])
def version(request: pytest.FixtureRequest) -> int:
    """Every fair-deal version passes the same deck and audit tests."""
    value: int = request.param
    return value


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """A deal's seats and its audits all run in the test's process (``tests/oneprocess.py``;
    the benches, which count one seat's work, are marked ``counts_work``)."""
