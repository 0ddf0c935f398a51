"""The game-end page's ratings: each side's, with the change the game made, from the
player's ledger, within 80 columns; nothing without a ledger (and none is made)."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.bench.ladder import club, member_seed
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.net.identity import Identity
from p2pbelka.ui.ladder import end_of_game_ratings, game_rating_lines
from p2pbelka.ui.words import i18n

MEMBERS = [Identity.from_seed(member_seed(4, n)).public_key for n in range(12)]
NAMES = ["Asel", "Bolat", "Saule", "Nurlan"]


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
def test_each_side_s_ratings_with_the_change(tmp_path: Path, lang: str) -> None:
    i18n.set_language(lang)
    with Ledger(tmp_path / "ladder.sqlite") as ledger:
        for c in club(60, 4):
            ledger.add(c.raw, "given")
        results = ledger.results("belka")
    lines = game_rating_lines("belka", MEMBERS[:4], NAMES, 1, results, 0)
    assert len(lines) == 3 and all(len(line) <= 80 for line in lines)
    winners, losers = lines[2], lines[1]  # side 1 (seats 1 and 3) won
    assert "Bolat" in winners and "(+" in winners and "(-" in losers, lines


def test_no_ledger_no_lines_and_none_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("P2PBELKA_HOME", str(tmp_path))
    assert end_of_game_ratings("belka", MEMBERS[:4], NAMES, 0) == []
    assert not (tmp_path / "ladder.sqlite").exists()
    Ledger(tmp_path / "ladder.sqlite").close()
    lines = end_of_game_ratings("belka", MEMBERS[:4], NAMES, 0)
    assert lines[1] == " Asel 2.4 (+2.4), Saule 2.4 (+2.4)"  # two new players won
