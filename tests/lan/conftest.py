"""Fixtures for whole games over sockets.  Helpers: ``helpers`` (peer processes), ``relay`` (a
faulty link), ``flood`` (strangers at the door).
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """The tables a test plays in its own process share their seats' work
    (``tests/oneprocess.py``); the peer processes it starts each do their own."""
