"""The path vectors in protocol/vectors/paths: each verifies to what its JSON says, and
the code regenerates each byte for byte (protocol/vectors/README.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.bench.path_vectors import PathVector, all_vectors, generate
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table.replay import Replay
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes
from tests.protocol.test_ending_vectors import ENDINGS_EXPECTED
from tests.protocol.test_path_vectors_rules import RULES_VERDICTS
from tests.protocol.test_reporting_vectors import REPORTING

PATHS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "paths"


@pytest.mark.parametrize("vector", all_vectors(), ids=lambda v: v.name)
def test_the_path_vector_verifies_as_described_and_regenerates(vector: PathVector) -> None:
    data = (PATHS / f"{vector.name}.p2pb").read_bytes()
    description = json.loads((PATHS / f"{vector.name}.json").read_text(encoding="utf-8"))
    assert hashlib.sha256(data).hexdigest() == description["transcript_sha256"]
    assert len(data) == description["transcript_bytes"]
    report = verify_bytes(data)
    expected = description["verify"]
    assert report.verdict.split(":", 1)[0] == expected["verdict"]
    assert report.records == expected["records"]
    assert report.error == expected["error"]
    faults = [
        {"seat": f.seat, "what": f.what, "proven": f.proven, "fatal": f.fatal}
        for f in report.faults
    ]
    assert faults == expected["faults"]
    assert [d.to_json() for d in report.deals] == description["deals"]
    assert (data, description) == generate(vector), "no longer regenerates byte for byte"


EXPECTED = {
    "game-ok": "OK",
    "belot-2-game": "OK",
    "host-seat-2": "INCOMPLETE",
    "invalid-order": "INVALID",
    "invalid-signature": "INVALID",
    "view-ahead": "CHEATING PROVEN",
    "view-differs": "INVALID",
    "wrong-input": "CHEATING PROVEN",
    "false-dispute": "CHEATING PROVEN",
    "no-jack-claim": "CHEATING PROVEN",
    "wrong-share": "CHEATING PROVEN",
    "evidence-of-nothing": "CHEATING PROVEN",
    "dispute-odd-seats": "DISPUTED",
    "flow-1": "INCOMPLETE",
    "flow-2": "INCOMPLETE",
    "belot-fairdeal-1": "INCOMPLETE",
    "options": "INCOMPLETE",
    "belot-false-claim": "CHEATING PROVEN",
    "belot-false-declaration": "CHEATING PROVEN",
    "belot-false-unopened": "CHEATING PROVEN",
    "belot-share-outside-batch": "CHEATING PROVEN",
    "two-jack-claims": "CHEATING PROVEN",
    "card-in-two-hands": "CHEATING PROVEN",
    "eyes-reneges": "OK",
    "ace-renege": "INCOMPLETE",
    "eggs-four": "INCOMPLETE",
    "eggs-double": "INCOMPLETE",
    "eggs-none": "INCOMPLETE",
    "eggs-plus4": "INCOMPLETE",
    "belot-sequences": "INCOMPLETE",
    "belot-hanging-together": "INCOMPLETE",
    "belot-hanging-one-each": "INCOMPLETE",
    **ENDINGS_EXPECTED,
}
# Belot, continuations, rules and audits (issue 41 items 18-26)
EXPECTED.update(RULES_VERDICTS)


def test_each_vector_shows_the_path_it_is_named_for() -> None:
    """What the README says each vector exercises, checked on its JSON."""
    described = {}
    for vector in all_vectors():
        text = (PATHS / f"{vector.name}.json").read_text(encoding="utf-8")
        described[vector.name] = json.loads(text)
    reporting = {n: verdict for n, (verdict, _records, _error) in REPORTING.items()}
    assert {n: d["verify"]["verdict"] for n, d in described.items()} == EXPECTED | reporting
    ok = described["game-ok"]
    assert [r["type"] for r in ok["records"][-4:]] == ["close"] * 4
    assert any("goli: all 120 card points" in d["notes"] for d in ok["deals"])
    belot = described["belot-2-game"]
    assert belot["players"] == 2 and len(belot["seat_keys"]) == 2
    results = {d.get("result") for d in belot["deals"]}
    assert {"made", "bait", "hanging", "claim"} <= results
    assert any(d["void"] for d in belot["deals"]) and any(d.get("paid") for d in belot["deals"])
    outside = described["belot-share-outside-batch"]["verify"]["faults"]
    assert [(f["seat"], f["proven"], f["fatal"]) for f in outside] == [(2, True, True)]
    assert "positions dealt to others" in outside[0]["what"]
    host = described["host-seat-2"]
    assert host["host"] == 2 and host["records"][0] == {**host["records"][0], "seat": 2}
    assert [r["seat"] for r in host["records"][1:4]] == [0, 1, 3]
    faults = {
        n: [(f["seat"], f["proven"], f["fatal"]) for f in d["verify"]["faults"]]
        for n, d in described.items()
    }
    cheats = ("wrong-input", "false-dispute", "no-jack-claim", "wrong-share")
    belot_cheats = ("belot-false-unopened", "belot-false-claim", "belot-false-declaration")
    for name in (*cheats, *belot_cheats):
        assert faults[name] == [(2, True, True)], name
    whats = {n: described[n]["verify"]["faults"][0]["what"] for n in belot_cheats}
    assert whats["belot-false-claim"].startswith("false claim of 1001")
    assert whats["belot-false-declaration"].startswith("false declaration")
    first, second = described["options"]["deals"]
    assert second["trump"] in "DSH" and second["dealer"] == (first["dealer"] + 1) % 4
    assert first["tricks"][0]["leader"] == (first["dealer"] + 3) % 4
    assert first["awarded"] in ([2, 0], [0, 2]) and first["trump"] == "C"
    types = {n: [r["type"] for r in described[n]["records"]] for n in ("flow-1", "flow-2")}
    assert types["flow-1"].count("commit") == 8 and types["flow-2"].count("commit") == 4
    assert described["flow-1"]["flow"] == 1 and described["flow-2"]["flow"] == 2
    v1 = (PATHS / "belot-fairdeal-1.p2pb").read_bytes()
    assert b"fairdeal" not in v1[:400]  # version 1 is written by leaving the key out
    assert faults["view-ahead"] == [(0, True, True)]
    assert faults["evidence-of-nothing"] == [(1, True, True)]
    assert faults["dispute-odd-seats"] == [(0, False, True), (2, False, True)]
    assert described["dispute-odd-seats"]["records"][-1]["type"] == "dispute"
    assert "false dispute" in described["false-dispute"]["verify"]["faults"][0]["what"]
    assert described["invalid-signature"]["verify"]["error"].startswith("byte ")
    assert described["invalid-order"]["verify"]["error"].startswith("record 2 ")
    assert described["view-differs"]["verify"]["error"].startswith("record 10 ")


def _replayed(name: str) -> tuple[list[m.Message], list[str]]:
    """A vector's messages, and the disputes its last deal raised (replayed by an
    observer table, as verify does)."""
    envelopes = [r.envelope for r in iter_records((PATHS / f"{name}.p2pb").read_bytes())]
    table = Table(envelopes[0].game)
    replay = Replay(table)
    for envelope, following in zip(envelopes, [*envelopes[1:], None], strict=True):
        replay.feed(envelope, following)
    disputes = table.state.round.disputes
    return [e.msg for e in envelopes], [f"{f.seat}: {f.what}" for f in disputes]


def test_a_card_in_two_hands_is_a_dispute_the_audit_settles() -> None:
    """The J♣ in two hands: two seats claim it, the second claim opens a card already
    shown (a dispute, never a second claim: SPEC section 10.3); another card in two
    hands shows when its second holder plays it.  Either way the lock pass's author."""
    msgs, disputes = _replayed("two-jack-claims")
    claims = [msg for msg in msgs if isinstance(msg, m.TrumpMsg) and msg.jack is not None]
    assert len(claims) == 2 and disputes == ["2: opened JC, already shown by seat 1"]
    msgs, disputes = _replayed("card-in-two-hands")
    assert len(disputes) == 1 and "already shown by seat" in disputes[0]
    assert not disputes[0].endswith("JC") and isinstance(msgs[-5], m.PlayMsg)
    for name in ("two-jack-claims", "card-in-two-hands"):
        (fault,) = json.loads((PATHS / f"{name}.json").read_text(encoding="utf-8"))["verify"][
            "faults"
        ]
        assert (fault["seat"], fault["proven"], fault["fatal"]) == (2, True, True)
        assert fault["what"].startswith("lock check failed")


def _deals(name: str) -> list[dict[str, Any]]:
    deals: list[dict[str, Any]] = json.loads((PATHS / f"{name}.json").read_text(encoding="utf-8"))[
        "deals"
    ]
    return deals


def test_the_reneges_are_charged_and_the_eyes_counted() -> None:
    """Renege charges (fatal false, proven, with their deal) in both counts, the ace
    rule's among them; the eyes variant's +1 under 30 and its all-tricks win."""
    eyes = json.loads((PATHS / "eyes-reneges.json").read_text(encoding="utf-8"))
    charges = [(f["seat"], f["proven"], f["fatal"]) for f in eyes["verify"]["faults"]]
    assert charges == [(2, True, False)] * 2
    first, second = eyes["deals"]
    assert first["offenses"] == ["seat 2: follow_suit with 9D"]
    # an eye against the reneging team 0; 2 against team 1: the trump team won 92:28
    assert first["trump_team"] == 0 and first["card_points"] == [92, 28]
    assert first["awarded"] == [1, 2]
    assert "all eight tricks" in second["notes"] and eyes["records"][-1]["type"] == "close"
    ace = _deals("ace-renege")[0]
    assert ace["offenses"] == ["seat 2: no_unled_ace_discard with AD"]
    assert ace["awarded"] == [0, 2] and ace["card_points"][1] <= 90  # 1 point, and the charge


def test_the_eggs_bonus_of_each_kind() -> None:
    """The same 60:60 and the same next deal (1 point to team 0) under each eggs rule;
    plus4 is the winners' choice, in the next deal's score (SPEC section 10.4)."""
    awarded = {}
    for eggs in ("four", "double", "none", "plus4"):
        deals = _deals(f"eggs-{eggs}")
        assert deals[0]["notes"] == ["60:60, eggs"] and deals[0]["awarded"] == [0, 0]
        awarded[eggs] = deals[1]["awarded"]
    assert awarded == {"four": [4, 0], "double": [2, 0], "none": [1, 0], "plus4": [1, 0]}
    plus4 = json.loads((PATHS / "eggs-plus4.json").read_text(encoding="utf-8"))
    assert [r["deal"] for r in plus4["records"] if r["type"] == "choice"] == [2]
    third = plus4["deals"][2]
    assert third["score"] == [1 + 4 + third["awarded"][0], third["awarded"][1]]


def test_belot_sequences_are_compared_between_seats() -> None:
    """A terz, a berz and a quint, one a seat: only the best one's owner scores."""
    (deal,) = _deals("belot-sequences")
    names = {d["seat"]: d["name"] for d in deal["declarations"]}
    assert names == {0: "terz", 1: "quint", 2: "berz"}
    assert deal["combinations"] == [0, 100, 0]


def test_two_hanging_deals_are_paid_both_ways() -> None:
    """hanging_twice: two hanging sums (42 and 53) wait; the next deal's top seat gets
    both (``together``) or the first only, the second waiting on (``one_each``)."""
    paid = {}
    for way in ("together", "one-each"):
        first, second, third = _deals(f"belot-hanging-{way}")
        assert [d["result"] for d in (first, second)] == ["hanging"] * 2
        assert (first["hanging"], second["hanging"]) == (42, 95) and third["result"] != "hanging"
        paid[way] = (third["paid"], third["hanging"])
    assert paid == {"together": (95, 0), "one-each": (42, 53)}
