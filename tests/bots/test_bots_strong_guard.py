"""The strong bot decides as it did when the fingerprint was recorded (speed work guard).

If a change is meant to alter the strong bot's play, record the new value with
``python -m tests.bots.strong_guard`` and say so in the commit; a change meant
only to make it faster must leave it as is.  The slow test does the same over
whole tournament games (``tournament_lines``), against the heuristic level.
"""

from __future__ import annotations

import pytest

from tests.bots.strong_guard import decisions, fingerprint, tournament_lines

RECORDED = "6e658ff35e44f6c95a3c6cafe716da25c6bdcc21d43e113cc8bb63090eac2344"

RECORDED_GAMES = {
    "classic": "6c82496f87ba30682d360e3a6b6527b6e2301f0450455cde64d6ef2921074b4f",
    "eyes": "3ffdd144659e1d2921e705762a579aa1c14db966a038f879e123578f87267e2c",
}


def test_strong_bot_decides_as_recorded() -> None:
    lines = decisions()
    assert fingerprint(lines) == RECORDED, "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "eyes"])
def test_strong_bot_plays_tournament_games_as_recorded(preset: str) -> None:
    lines = tournament_lines("heuristic", 2, preset)
    assert fingerprint(lines) == RECORDED_GAMES[preset], "\n".join(lines)
