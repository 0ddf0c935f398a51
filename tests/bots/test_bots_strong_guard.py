"""The strong bot decides as it did when the fingerprint was recorded (speed work guard).

If a change is meant to alter the strong bot's play, record the new value with
``python -m tests.bots.strong_guard`` and say so in the commit; a change meant
only to make it faster must leave it as is.  The slow test does the same over
whole tournament games (``tournament_lines``), against the heuristic level.
"""

from __future__ import annotations

import pytest

from tests.bots.strong_guard import decisions, fingerprint, tournament_lines

RECORDED = "c19ce01b3a9ea9539972e77a4eaf2c6d29457b3840c6530a3486a6313e962cce"

RECORDED_GAMES = {
    "classic": "5fcbffd20f1744e8af1ec8ee737bd07e11d0c2e22dedb5a11585f5e65a2b323b",
    "eyes": "1e608a8fef28bde9ade7329581b96668cf10a4f9d491de4184b160eb1b238474",
}


def test_strong_bot_decides_as_recorded() -> None:
    lines = decisions()
    assert fingerprint(lines) == RECORDED, "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "eyes"])
def test_strong_bot_plays_tournament_games_as_recorded(preset: str) -> None:
    lines = tournament_lines("heuristic", 2, preset)
    assert fingerprint(lines) == RECORDED_GAMES[preset], "\n".join(lines)
