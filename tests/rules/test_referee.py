"""``p2pbelka referee``: good, illegal and malformed records, through the real command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.cli.main import main
from p2pbelka.rules.belka import options_from
from p2pbelka.rules.belka.randomplay import play_random_game
from p2pbelka.rules.belka.records import game_to_record, parse_record, replay_record
from tests.rules.referee_helpers import referee

HANDS = [
    "AC TC KC 7D 8D AH 7S 8S".split(),
    "JC JD QC 9D TD KH 9S TS".split(),
    "9C 8C AD KD 7H 8H QS KS".split(),
    "JH JS 7C QD 9H TH QH AS".split(),
]


def record(plays: list[str], **extra: Any) -> dict[str, Any]:
    hands = [list(h) for h in HANDS]
    deal: dict[str, Any] = {"hands": hands, "plays": plays, **extra}
    return {"game": "belka", "rules": {"preset": "classic"}, "first_dealer": 0, "deals": [deal]}


def test_random_games_pass_the_referee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen_choice = seen_redeal = False
    for seed in (*range(9), 26, 33, 37):  # 26, 33 and 37 have a 60:60 and a choice
        preset = "eyes" if seed % 3 == 0 and seed < 9 else "classic"
        game = play_random_game(options_from(preset), random.Random(seed))
        rec = game_to_record(game)
        seen_choice |= any("eggs_choice" in d for d in rec["deals"])
        seen_redeal |= any("redeal_claim" in d for d in rec["deals"])
        code, out = referee(tmp_path, rec, capsys)
        assert code == 0, out
        report = json.loads(out)
        assert report["score"] == list(game.score) and report["winner"] == game.winner
        assert len(report["deals"]) == len(game.history)
        first = report["deals"][0]
        assert first["trump"] == "C" and first["dealer"] == 0
        for deal in report["deals"]:
            assert {
                "dealer",
                "trump",
                "trump_team",
                "tricks",
                "card_points",
                "awarded",
                "score",
            } <= set(deal)
            if "redeal_claim" not in deal:
                assert sum(deal["card_points"]) == 120 and len(deal["tricks"]) == 8
    assert seen_redeal and seen_choice


def test_unfinished_last_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = referee(tmp_path, record(["9S", "QS", "AS", "7S", "JS"]), capsys)
    assert code == 0, out
    report = json.loads(out)
    deal = report["deals"][0]
    assert deal["finished"] is False and deal["trump"] == "C" and deal["trump_team"] == 1
    assert deal["tricks"] == [{"leader": 1, "cards": ["9S", "QS", "AS", "7S"], "winner": 3}]
    assert report["winner"] is None


def test_renege_is_illegal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = referee(tmp_path, record(["9S", "9C"]), capsys)
    assert code == 1
    assert "deal 0, trick 1, seat 2, card 9C" in out and "follow_suit" in out
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("plays", "extra", "words"),
    [
        (["AC"], {}, ["seat 1", "card AC", "not_in_hand"]),
        ([], {"redeal_claim": 1}, ["seat 1", "redeal_not_qualified"]),
        ([], {"eggs_choice": "plus4"}, ["deal_not_finished"]),
    ],
)
def test_illegal_actions(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    plays: list[str],
    extra: dict[str, Any],
    words: list[str],
) -> None:
    code, out = referee(tmp_path, record(plays, **extra), capsys)
    assert code == 1, out
    for word in words:
        assert word in out


def test_plays_after_a_redeal_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = record([], redeal_claim=0)
    rec["deals"][0]["hands"] = [
        "QC 9C 8C 7C KD 9D 8D 7D".split(),
        "JC JD QD TD KH 9S TS AS".split(),
        "TC KC AC AD 7H 8H QS KS".split(),
        "JH JS 9H TH QH AH 7S 8S".split(),
    ]
    code, out = referee(tmp_path, rec, capsys)
    assert code == 0, out
    assert json.loads(out)["deals"][0]["redeal_claim"] == 0
    rec["deals"][0]["plays"] = ["9S"]
    code, out = referee(tmp_path, rec, capsys)
    assert code == 1 and "deal_over" in out


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda r: r["deals"][0]["hands"][2].__setitem__(5, "10C"), "deals[0].hands[2][5]"),
        (lambda r: r["deals"][0]["hands"][1].pop(), "deals[0].hands[1]"),
        (lambda r: r["deals"][0]["hands"][3].__setitem__(0, "AC"), "deals[0].hands[3][0]"),
        (lambda r: r["deals"][0]["plays"].__setitem__(1, 7), "deals[0].plays[1]"),
        (lambda r: r["deals"][0].__setitem__("redeal_claim", 4), "deals[0].redeal_claim"),
        (lambda r: r["deals"][0].__setitem__("eggs_choice", "both"), "deals[0].eggs_choice"),
        (lambda r: r["deals"][0].__setitem__("bid", 1), "deals[0].bid"),
        (lambda r: r["rules"].__setitem__("options", {"eggs": "triple"}), "rules.options.eggs"),
        (lambda r: r["rules"].__setitem__("preset", "belot"), "rules.preset"),
        (lambda r: r.__setitem__("game", "whist"), "game"),
        (lambda r: r.__setitem__("first_dealer", True), "first_dealer"),
        (lambda r: r.pop("deals"), "deals"),
    ],
)
def test_malformed_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate: Any, path: str
) -> None:
    rec = record(["9S", "QS"])
    mutate(rec)
    code, out = referee(tmp_path, rec, capsys)
    assert code == 2, out
    assert f"malformed record: {path}:" in out
    assert "Traceback" not in out


def test_not_json_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = referee(tmp_path, "{not json", capsys)
    assert code == 2 and "not JSON" in out
    assert main(["referee", str(tmp_path / "absent.json")]) == 2
    assert "absent.json does not exist" in capsys.readouterr().err


def test_stdin_through_a_real_process() -> None:
    game = play_random_game(options_from("classic"), random.Random(7))
    proc = subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", "referee", "-"],
        input=json.dumps(game_to_record(game)),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["winner"] == game.winner
    bad = subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", "referee", "-"],
        input=json.dumps(record(["9S", "9C"])),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1 and "follow_suit" in bad.stderr and "Traceback" not in bad.stderr


def test_record_round_trip_keeps_options() -> None:
    opts = options_from("classic", {"eggs": "double", "no_unled_ace_discard": "on"})
    game = play_random_game(opts, random.Random(3))
    again = replay_record(parse_record(json.loads(json.dumps(game_to_record(game)))))
    assert again.options == opts and again.score == game.score and again.history == game.history
