"""``p2pbelka games`` lists the saved games where the docs say they are, each with
the commands to resume, verify or replay it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pbelka.peer.store import GameMeta, games_dir
from p2pbelka.protocol.transcript import iter_records
from tests.ui.cli import Ran, run_main, selfplayed

GAME_ID = "3e395f24e1102c96f575b61ff0e6df0d"


def run(home: Path, *argv: str) -> Ran:
    return run_main(home, *argv, check=True)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished local game, and a LAN game left after a few envelopes."""
    home = tmp_path_factory.mktemp("home")
    meta = GameMeta(GAME_ID, 2, [], ["Asel", "Bolat", "Saule", "Nurlan"], [], "0.0.0.0", 0)
    meta.started = 1_900_000_000.0  # later than the local game
    _saved_games(home, meta)
    return home


def _saved_games(home: Path, meta: GameMeta) -> None:
    """A finished local game in the data directory, and the first 40 envelopes of it
    as the transcript of a LAN game with ``meta``."""
    games = home / "data" / "p2pbelka" / "games"
    games.mkdir(parents=True)
    finished = games / "belka-20261130-211000.transcript"
    selfplayed(finished)
    data = finished.read_bytes()
    cut = next(r.offset for r in iter_records(data) if r.index == 40)
    lan = games / meta.game_id
    lan.mkdir()
    (lan / "transcript.p2pb").write_bytes(data[:cut])
    (lan / "game.json").write_text(json.dumps(meta.__dict__))


def test_games_lists_each_game_with_its_commands(home: Path) -> None:
    out = run(home, "games").stdout
    games = home / "data" / "p2pbelka" / "games"
    assert f"Saved games in {games}, newest first" in out
    lan, local = out.split("\n\n")[1:3]
    assert "not finished (0 deals played)" in lan  # 40 envelopes: not one deal to its end
    assert f"resume: p2pbelka resume {GAME_ID[:12]}" in lan
    assert f"verify: p2pbelka verify {games / GAME_ID / 'transcript.p2pb'}" in lan
    assert "2026-11-30 21:10  Asel & Saule " in local and "Bolat & Nurlan" in local
    assert "finished (13 deals played): Bolat & Nurlan won" in local and "resume" not in local
    assert f"replay: p2pbelka replay {games / 'belka-20261130-211000.transcript'}" in local
    # the second listing reads the cache, and says the same
    assert run(home, "games").stdout == out


def test_no_games_says_how_to_start_one(tmp_path: Path) -> None:
    out = run(tmp_path, "games").stdout
    assert out.startswith("No saved games in") and "`p2pbelka` opens a table" in out


def test_games_live_in_the_data_directory_and_identity_in_the_config_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("P2PBELKA_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert games_dir() == tmp_path / "data" / "p2pbelka" / "games"
    from p2pbelka.net.identity import config_dir

    assert config_dir() == tmp_path / "config" / "p2pbelka"


def test_games_says_why_a_lan_game_ended(tmp_path: Path) -> None:
    """A seat that stopped its game keeps the reason beside it; ``games`` shows it."""
    meta = GameMeta(GAME_ID, 2, [], ["Asel", "Bolat", "Saule", "Nurlan"], [], "0.0.0.0", 0)
    meta.finished = True
    meta.ended = "seat 1 (Bolat) silent for 120 s"
    _saved_games(tmp_path, meta)
    out = run(tmp_path, "games").stdout
    assert "  ended: seat 1 (Bolat) silent for 120 s" in out
    assert "resume" not in out
