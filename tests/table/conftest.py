"""Fixtures for the table tests.  Helpers: ``helpers`` (a seeded game run synchronously, dishonest
tables, forked chains).
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """Every test here plays its tables in this process (``tests/oneprocess.py``)."""
