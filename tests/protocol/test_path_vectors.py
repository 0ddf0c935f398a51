"""The path vectors in protocol/vectors/paths: each verifies to what its JSON says, and
the code regenerates each byte for byte (protocol/vectors/README.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from p2pbelka.bench.path_vectors import PathVector, all_vectors, generate
from p2pbelka.table.verify import verify_bytes

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
}


def test_each_vector_shows_the_path_it_is_named_for() -> None:
    """What the README says each vector exercises, checked on its JSON."""
    described = {}
    for vector in all_vectors():
        text = (PATHS / f"{vector.name}.json").read_text(encoding="utf-8")
        described[vector.name] = json.loads(text)
    assert {n: d["verify"]["verdict"] for n, d in described.items()} == EXPECTED
    ok = described["game-ok"]
    assert [r["type"] for r in ok["records"][-4:]] == ["close"] * 4
    assert any("goli: all 120 card points" in d["notes"] for d in ok["deals"])
    belot = described["belot-2-game"]
    assert belot["players"] == 2 and len(belot["seat_keys"]) == 2
    results = {d.get("result") for d in belot["deals"]}
    assert {"made", "bait", "hanging", "claim"} <= results
    assert any(d["void"] for d in belot["deals"]) and any(d.get("paid") for d in belot["deals"])
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
