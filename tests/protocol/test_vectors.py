"""The game-protocol vectors in protocol/vectors: the code must reproduce them exactly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from p2pbelka.bench.belka_scenarios import SCENARIOS as SCENARIOS_BY_NAME
from p2pbelka.bench.belka_scenarios import Scenario
from p2pbelka.bench.belka_scenarios import generate as generate_scenario
from p2pbelka.bench.vectors import generate, seed_of, vector_name
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table.verify import VerifiedDeal, verify_bytes

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
BELOT_NAME = vector_name("belot")
BELOT_SEED = seed_of("belot")


def test_first_deal_vector_verifies_and_matches_its_description() -> None:
    data = (VECTORS / "first-deal.p2pb").read_bytes()
    description = json.loads((VECTORS / "first-deal.json").read_text(encoding="utf-8"))
    assert hashlib.sha256(data).hexdigest() == description["transcript_sha256"]
    records = list(iter_records(data))
    assert [r.envelope.digest.hex() for r in records] == [r["hash"] for r in description["records"]]
    report = verify_bytes(data)
    assert report.error is None and not report.aborted
    assert report.deals[0].to_json() == description["first_deal"]
    assert VerifiedDeal.from_json(description["first_deal"], "belka") == report.deals[0]
    expected = description["verify"]
    assert report.verdict.split(":", 1)[0] == expected["verdict"] == "INCOMPLETE"
    assert report.records == expected["records"] == len(records)
    assert [str(f) for f in report.faults] == expected["faults"] == []
    first = description["first_deal"]
    assert first["number"] == first["deal_id"] - 1
    assert first["deal_id"] == description["records"][-1]["deal"] == 1


def test_the_seeded_game_regenerates_the_same_bytes() -> None:
    data, description = generate()
    assert data == (VECTORS / "first-deal.p2pb").read_bytes()
    assert description == json.loads((VECTORS / "first-deal.json").read_text(encoding="utf-8"))


SCENARIOS = VECTORS / "scenarios"


@pytest.mark.parametrize("scenario", SCENARIOS_BY_NAME, ids=lambda s: s.name)
def test_scenario_vectors_verify_and_regenerate(scenario: Scenario) -> None:
    data = (SCENARIOS / f"{scenario.name}.p2pb").read_bytes()
    description = json.loads((SCENARIOS / f"{scenario.name}.json").read_text(encoding="utf-8"))
    report = verify_bytes(data)
    assert report.verdict.split(":", 1)[0] == description["verify"]["verdict"]
    assert report.records == len(description["records"])
    assert [r.envelope.digest.hex() for r in iter_records(data)] == [
        r["hash"] for r in description["records"]
    ]
    regenerated, _ = generate_scenario(scenario)
    assert regenerated == data, "the scenario no longer regenerates byte for byte"


def test_the_belot_vector_verifies_and_regenerates() -> None:
    data = (VECTORS / f"{BELOT_NAME}.p2pb").read_bytes()
    description = json.loads((VECTORS / f"{BELOT_NAME}.json").read_text(encoding="utf-8"))
    assert hashlib.sha256(data).hexdigest() == description["transcript_sha256"]
    report = verify_bytes(data)
    assert report.error is None and not report.aborted
    first = report.deals[0].to_json()
    assert first == {"deal_id": 1, **description["first_deal"]}
    assert first["declarations"] and first["turned"] and first["stock"]
    assert VerifiedDeal.from_json(first, "belot") == report.deals[0]
    types = {r["type"] for r in description["records"]}
    assert {"turned", "bid", "declare", "shares", "play", "deal_end"} <= types
    assert (data, description) == generate(BELOT_SEED, "belot", 3)
