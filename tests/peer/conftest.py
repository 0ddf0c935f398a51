"""Fixtures for the peer drivers."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """Every test here plays its tables in this process (``tests/oneprocess.py``)."""
