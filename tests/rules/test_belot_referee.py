"""``p2pbelka referee`` on Belot records: good, illegal and malformed, through the real command."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.rules.belot import belot_options
from p2pbelka.rules.belot.randomplay import play_random_game
from p2pbelka.rules.belot.records import game_to_record
from tests.rules.belot_helpers import A_EXTRA, A_FIRST, A_TURNED
from tests.rules.referee_helpers import referee

DEAL_FIELDS = {
    "dealer", "void", "declarer", "trump", "tricks", "card_points", "last_trick",
    "combinations", "totals", "result", "written", "hanging", "score",
}  # fmt: skip

CLUBS = ["JC", "9C", "AC", "TC", "KC", "QC", "8C", "7C"]


def deal_a(plays: list[str], **extra: Any) -> dict[str, Any]:
    """Deal A: seat 1 names clubs in round 2 and holds all eight."""
    deal: dict[str, Any] = {
        "hands": [h.split() for h in A_FIRST],
        "turned": A_TURNED,
        "bids": ["pass", "pass", "pass", "C"],
        "extra": [h.split() for h in A_EXTRA],
        "declarations": [],
        "plays": plays,
    }
    deal.update(extra)
    return deal


def record(*deals: dict[str, Any], **options: str) -> dict[str, Any]:
    return {
        "game": "belot",
        "players": 3,
        "rules": {"options": options},
        "first_dealer": 0,
        "deals": list(deals),
    }


def all_clubs() -> list[str]:
    """Deal A's nine tricks: clubs from seat 1; the others throw in a fixed order."""
    seat2 = "8S 9S QS JS JD QD KD AD TD".split()
    seat0 = "7D 8D 9D 7H 8H 9H TH KS AS".split()
    plays = []
    for k, lead in enumerate([*CLUBS, "AH"]):
        plays += [lead, seat2[k], seat0[k]]
    return plays


def test_random_games_pass_the_referee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seen = set()
    for seed in range(8):
        players = 2 + seed % 2
        options = belot_options({"hanging_twice": ("together", "one_each")[seed // 4]})
        game = play_random_game(options, random.Random(seed), players, seed % players)
        code, out = referee(tmp_path, game_to_record(game), capsys)
        assert code == 0, out
        report = json.loads(out)
        assert set(report) == {"deals", "score", "winner"}
        assert report["score"] == list(game.score) and report["winner"] == game.winner
        for entry, result in zip(report["deals"], game.history, strict=True):
            seen.add(entry.get("result"))
            if entry["void"]:
                assert entry == {"dealer": result.dealer, "void": True}
                continue
            assert set(entry) == DEAL_FIELDS
            assert len(entry["card_points"]) == players == len(entry["written"])
            assert entry["hanging"] == result.hanging
    assert {"made", "bait", "hanging", "claim"} <= seen


def test_a_whole_deal_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    decl = [{"seat": 1, "trick": 0, "cards": CLUBS}, {"seat": 1, "trick": 0, "cards": ["KC", "QC"]}]
    code, out = referee(tmp_path, record(deal_a(all_clubs(), declarations=decl)), capsys)
    assert code == 0, out
    deal = json.loads(out)["deals"][0]
    assert deal["declarer"] == 1 and deal["trump"] == "C" and deal["result"] == "made"
    assert deal["tricks"][0] == {"leader": 1, "cards": ["JC", "8S", "7D"], "winner": 1}
    assert deal["card_points"] == [0, 133, 0] and deal["last_trick"] == 1
    assert deal["combinations"] == [0, 120, 0] and deal["totals"] == [0, 263, 0]
    assert deal["written"] == [0, 263, 0] and deal["hanging"] == 0 and deal["score"] == [0, 263, 0]


def test_a_void_deal_then_a_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    void = {
        "hands": [h.split() for h in A_FIRST],
        "turned": A_TURNED,
        "bids": ["pass"] * 6,
    }
    # Deal 1 is dealt by seat 1: seat 2 bids first and leads.
    played = deal_a(
        ["JC", "8S", "7D"],
        bids=["pass", "pass", "pass", "pass", "pass", "C"],
        declarations=[{"seat": 1, "trick": 1, "cards": ["7C", "8C", "9C", "TC"]}],
        claim={"seat": 1, "trick": 0},
    )
    code, out = referee(tmp_path, record(void, played), capsys)
    assert code == 1 and "deal 1, trick 1, seat 2, card JC" in out  # seat 2 leads there
    played["plays"] = ["JD", "7D", "JC"]  # seat 2 leads, seat 0 follows, seat 1 trumps
    game = record(void, played)
    game["deals"][0]["hands"] = [h.split() for h in A_FIRST]
    code, out = referee(tmp_path, game, capsys)
    assert code == 1 and "[false_claim]" in out and "seat 1" in out
    # The berz declared before the claim counts (seat 1 took a trick).
    assert "written 0 + cards 22 + combinations 50 = 72" in out


ILLEGAL: list[tuple[Callable[[dict[str, Any]], None], list[str]]] = [
    (
        lambda d: d.update(bids=["pass", "pass", "pass", "H"]),
        ["deal 0", "seat 1", "call H", "[bid]"],
    ),
    (lambda d: d.update(bids=["pass", "play", "pass"]), ["call pass", "[not_bidding]"]),
    (lambda d: d["plays"].__setitem__(1, "7S"), ["trick 1", "seat 2", "card 7S", "[not_in_hand]"]),
    (lambda d: d["plays"].__setitem__(0, "TH"), ["seat 1", "card TH", "[not_in_hand]"]),
    (lambda d: d["plays"][:3].__init__(), []),
    (
        lambda d: d.update(declarations=[{"seat": 0, "trick": 0, "cards": ["7H", "8H", "9H"]}]),
        ["trick 1", "seat 0", "[declare_moment]"],
    ),
    (
        lambda d: d.update(declarations=[{"seat": 1, "trick": 0, "cards": ["7C", "8C", "TC"]}]),
        ["seat 1", "[not_a_combination]"],
    ),
    (
        lambda d: d.update(declarations=[{"seat": 1, "trick": 0, "cards": ["KH", "QH", "JH"]}]),
        ["seat 1", "[not_in_hand]"],
    ),
    (
        lambda d: d.update(
            declarations=[
                {"seat": 1, "trick": 0, "cards": ["7C", "8C", "9C"]},
                {"seat": 1, "trick": 0, "cards": ["9C", "TC", "JC"]},
            ]
        ),
        ["seat 1", "card 9C", "[sequence_overlap]"],
    ),
    (
        lambda d: d.update(declarations=[{"seat": 1, "trick": 9, "cards": ["7C", "8C", "9C"]}]),
        [],  # malformed: a trick field runs 0..8 (nine tricks), 9 is none
    ),
    (
        lambda d: d.update(declarations=[{"seat": 1, "trick": 8, "cards": ["7C", "8C", "9C"]}]),
        ["trick 9", "seat 1", "[not_in_hand]"],
    ),
    (lambda d: d.update(claim={"seat": 1, "trick": 3}), ["seat 1", "[claim_moment]"]),
    (lambda d: d.update(claim={"seat": 1, "trick": 8}), ["[deal_over]"]),
    (lambda d: d.pop("extra"), ["deal 0", "[no_extra]"]),
]


@pytest.mark.parametrize(("change", "words"), ILLEGAL)
def test_illegal_actions_exit_1_naming_them(
    change: Callable[[dict[str, Any]], None],
    words: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    deal = deal_a(all_clubs())
    change(deal)
    code, out = referee(tmp_path, record(deal), capsys)
    if not words:
        assert code in (0, 2), out
        return
    assert code == 1, out
    assert out.startswith("referee: illegal action: ") and "Traceback" not in out
    for word in words:
        assert word in out, out


def test_an_unfinished_deal_is_a_game_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = referee(tmp_path, record(deal_a(all_clubs()[:7])), capsys)
    assert code == 0, out
    report = json.loads(out)
    assert report["winner"] is None and report["deals"][0]["finished"] is False
    second = deal_a(all_clubs())
    code, out = referee(tmp_path, record(deal_a(all_clubs()[:7]), second), capsys)
    assert code == 1 and "[deal_not_finished]" in out


MALFORMED: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda r: r.update(players=4), "players"),
    (lambda r: r.update(players="3"), "players"),
    (lambda r: r.update(first_dealer=3), "first_dealer"),
    (lambda r: r["rules"]["options"].update(four_sevens=50), "rules.options.four_sevens"),
    (lambda r: r["rules"]["options"].update(hanging_twice="x"), "rules.options.hanging_twice"),
    (lambda r: r["rules"]["options"].update(bogus="1"), "rules.options.bogus"),
    (lambda r: r["deals"][0]["hands"].pop(), "deals[0].hands"),
    (lambda r: r["deals"][0]["hands"][2].pop(), "deals[0].hands[2]"),
    (lambda r: r["deals"][0]["hands"][1].__setitem__(0, "7H"), "deals[0].hands[1][0]"),
    (lambda r: r["deals"][0].update(turned="AS"), "deals[0].turned"),
    (lambda r: r["deals"][0].update(turned=None), "deals[0].turned"),
    (lambda r: r["deals"][0]["bids"].__setitem__(0, "PLAY"), "deals[0].bids[0]"),
    (lambda r: r["deals"][0]["extra"][0].__setitem__(2, "JH"), "deals[0].extra[0][2]"),
    (lambda r: r["deals"][0]["plays"].__setitem__(4, "10C"), "deals[0].plays[4]"),
    (lambda r: r["deals"][0].update(claim={"seat": 1}), "deals[0].claim.trick"),
    (lambda r: r["deals"][0].update(claim={"seat": 5, "trick": 1}), "deals[0].claim.seat"),
    (
        lambda r: r["deals"][0].update(declarations=[{"seat": 1, "trick": True, "cards": []}]),
        "deals[0].declarations[0].trick",
    ),
    (lambda r: r["deals"][0].update(declarations={}), "deals[0].declarations"),
    (
        lambda r: r["deals"][0].update(
            declarations=[{"seat": 1, "trick": 0, "cards": ["7C", "8C", "9C", "8C"]}]
        ),
        "deals[0].declarations[0].cards[3]",
    ),
    (lambda r: r["deals"][0].update(dealer=0), "deals[0].dealer"),
    (lambda r: r.update(deals=None), "deals"),
]


@pytest.mark.parametrize(("change", "path"), MALFORMED)
def test_malformed_records_exit_2_naming_where(
    change: Callable[[dict[str, Any]], None],
    path: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    rec = copy.deepcopy(record(deal_a(all_clubs())))
    change(rec)
    code, out = referee(tmp_path, rec, capsys)
    assert code == 2, out
    assert out.startswith(f"referee: malformed record: {path}:"), out


def test_not_json_and_not_an_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = referee(tmp_path, "{", capsys)
    assert code == 2 and "not JSON" in out
    code, out = referee(tmp_path, "[]", capsys)
    assert code == 2 and "malformed" in out


def _mutations(rec: dict[str, Any], rng: random.Random) -> None:
    """A few random edits anywhere in a record: values swapped for cards, calls, seats,
    numbers, wrong types; keys dropped."""
    values: list[object] = ["JC", "7H", "AS", "play", "pass", "H", 0, 1, 2, 5, -1, None, [], {}]
    for _ in range(rng.randrange(1, 4)):
        deal = rng.choice(rec["deals"])
        key = rng.choice(sorted(deal))
        target = deal[key]
        if isinstance(target, list) and target and rng.random() < 0.7:
            inner = rng.randrange(len(target))
            if isinstance(target[inner], list) and target[inner]:
                target[inner][rng.randrange(len(target[inner]))] = rng.choice(values)
            elif isinstance(target[inner], dict):
                target[inner][rng.choice(["seat", "trick", "cards"])] = rng.choice(values)
            else:
                target[inner] = rng.choice(values)
        elif rng.random() < 0.3:
            del deal[key]
        else:
            deal[key] = rng.choice(values)


def test_mutated_records_never_crash_the_referee() -> None:
    from p2pbelka.rules.belot.records import parse_record, replay_record, report
    from p2pbelka.rules.common.errors import RuleViolation
    from p2pbelka.rules.common.recordio import RecordError

    outcomes = set()
    for seed in range(150):
        rng = random.Random(seed)
        game = play_random_game(belot_options(), rng, 2 + seed % 2, max_deals=3)
        rec = game_to_record(game)
        _mutations(rec, rng)
        try:
            report(replay_record(parse_record(rec)))
            outcomes.add(0)
        except RuleViolation:
            outcomes.add(1)
        except RecordError:
            outcomes.add(2)
    assert outcomes == {0, 1, 2}
