"""Fixtures for the screens."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def own_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test saves its games in a directory of its own: ``play`` keeps a local
    game's files in the data directory until the game ends, and tests leave early."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.delenv("P2PBELKA_HOME", raising=False)


@pytest.fixture(autouse=True)
def every_seat_here(one_process: None) -> None:
    """Every seat of a game played in this process (``play_local``, the lobbies) opens
    each envelope, checks each signature and computes each product once for all of
    them (``tests/oneprocess.py``)."""
