"""``p2pbelka replay --coach``: one seat's costly plays after the verdict, in the
player's language, the same for the same file and seed, a bad seat refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.ui.cli import run_main, saved_game

LINE = re.compile(r"^deal \d+, trick \d+: \S+ played, \S+ was better by \d+\.\d\d game points")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return saved_game(tmp_path_factory.mktemp("coach"))


def test_the_coach_prints_the_seat_s_costly_plays_the_same_each_time(
    saved: Path, tmp_path: Path
) -> None:
    args = ("replay", "--coach", str(saved), "--seat", "2", "--worlds", "8", "--seed", "1")
    done = run_main(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("OK: every deal was dealt fairly")
    assert lines[1].startswith("Coach for ") and "8 deals of the hidden cards" in lines[1]
    flagged = [line for line in lines if LINE.match(line)]
    assert flagged, done.stdout  # random players: some play was costly
    assert re.fullmatch(rf"{len(flagged)} of \d+ decisions flagged", lines[-1])
    assert run_main(tmp_path, *args).stdout == done.stdout


def test_the_coach_speaks_the_player_s_language_and_refuses_a_seat_not_at_the_table(
    saved: Path, tmp_path: Path
) -> None:
    args = ("--worlds", "4", "--threshold", "5", "--lang", "ru")
    ru = run_main(tmp_path, "replay", "--coach", str(saved), *args)
    assert ru.returncode == 0, ru.stderr
    assert "Coach for" not in ru.stdout and "decisions flagged" not in ru.stdout
    bad = run_main(tmp_path, "replay", "--coach", str(saved), "--seat", "7")
    assert bad.returncode == 2 and "--seat 7" in bad.stderr and "Traceback" not in bad.stderr
