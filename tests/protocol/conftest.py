"""Fixtures for the codec, envelope and spec tests.  Helpers: ``strategies`` (hypothesis strategies
for every message body).
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """The vectors' generators play every seat in this process, then verify what they
    made, and the tests verify the files too (``tests/oneprocess.py``)."""
