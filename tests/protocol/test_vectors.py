"""The game-protocol vectors in protocol/vectors: the code must reproduce them exactly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.bench.games.belka.scenarios import SCENARIOS as SCENARIOS_BY_NAME
from p2pbelka.bench.games.belka.scenarios import Scenario
from p2pbelka.bench.games.belka.scenarios import generate as generate_scenario
from p2pbelka.bench.games.belka.segments import REFUSED_ID, SEAT_BACK, SEAT_CHANGE
from p2pbelka.bench.games.belka.segments import generate as generate_segment_vector
from p2pbelka.bench.vectors import generate, seed_of, vector_name
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.ids import game_id_of
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
    """The file regenerates byte for byte, and so does its description, which holds what
    ``verify`` says of those bytes (verified once, by the generator: a scenario's
    verification is a good part of its time)."""
    data = (SCENARIOS / f"{scenario.name}.p2pb").read_bytes()
    description = json.loads((SCENARIOS / f"{scenario.name}.json").read_text(encoding="utf-8"))
    assert [r.envelope.digest.hex() for r in iter_records(data)] == [
        r["hash"] for r in description["records"]
    ]
    regenerated, regenerated_description = generate_scenario(scenario)
    assert regenerated == data, "the scenario no longer regenerates byte for byte"
    assert regenerated_description == description, "the scenario's description changed"
    assert description["verify"]["records"] == len(description["records"])


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


def _scenario_file(name: str) -> tuple[bytes, dict[str, Any]]:
    data = (SCENARIOS / f"{name}.p2pb").read_bytes()
    return data, json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))


def test_the_seat_change_vector_holds_both_segments_and_regenerates() -> None:
    data, description = _scenario_file(SEAT_CHANGE.name)
    assert hashlib.sha256(data).hexdigest() == description["transcript_sha256"]
    records = [r.envelope for r in iter_records(data)]
    assert [e.digest.hex() for e in records] == [r["hash"] for r in description["records"]]
    assert [e.game.hex() for e in records] == [r["segment"] for r in description["records"]]
    report = verify_bytes(data)
    expected = description["verify"]
    assert report.error is None and not report.aborted
    assert report.verdict.split(":", 1)[0] == expected["verdict"] == "INCOMPLETE"
    assert report.records == expected["records"] == len(records)
    assert report.change_lines == expected["changes"] and len(expected["changes"]) == 1
    assert [d.to_json() for d in report.deals] == description["deals"]
    # two segments, each under the id its own table derives; the new holder's nonce
    # and every remaining seat's agreement are in the continuation
    first, second = description["segments"]
    assert first["record"] == 0 and first["id"] == first["derived_id"]
    assert second["id"] == second["derived_id"] != first["id"]
    opening, continuation = records[0].msg, records[second["record"]].msg
    assert isinstance(opening, m.TableMsg) and isinstance(continuation, m.TableMsg)
    assert continuation.after is not None and continuation.after.segment == records[0].game
    lost = continuation.after.seat
    assert continuation.nonces[lost] != opening.nonces[lost]
    assert [s for s, _ in continuation.after.agreed] == [s for s in range(4) if s != lost]
    # at least one deal audited in the new segment
    new_deals = {r.deal for r in records[second["record"] :]} - {0}
    assert new_deals & {d.deal_id for d in report.deals}
    assert (data, description) == generate_segment_vector(SEAT_CHANGE)


def test_the_deal_after_three_redeals_is_dealt_by_the_same_dealer_and_played() -> None:
    """SPEC section 10.4: the third re-deal's point is in its own ``awarded``, and the
    dealer of all three deals the next deal."""
    _data, description = _scenario_file("three-redeals")
    *_, first, second, third, after = description["deals"]
    assert [d["redeal_claim"] is not None for d in (first, second, third)] == [True] * 3
    assert any("three re-deals" in note for note in third["notes"]) and 1 in third["awarded"]
    assert after["redeal_claim"] is None and after["tricks"]
    assert {d["dealer"] for d in (first, second, third, after)} == {third["dealer"]}


def test_the_seat_back_vector_holds_three_segments_the_last_the_old_key_s() -> None:
    """A seat taken back (SPEC section 9.5): a second continuation gives seat 3 back to
    the key that held it in the first segment, and the third segment plays deal 3."""
    data, description = _scenario_file(SEAT_BACK.name)
    assert hashlib.sha256(data).hexdigest() == description["transcript_sha256"]
    records = [r.envelope for r in iter_records(data)]
    assert [e.digest.hex() for e in records] == [r["hash"] for r in description["records"]]
    report = verify_bytes(data)
    assert report.error is None and report.verdict.split(":", 1)[0] == "INCOMPLETE"
    assert report.records == description["verify"]["records"] == len(records)
    assert report.change_lines == description["verify"]["changes"]
    given, back = report.change_lines
    assert "replaced by Bot" in given and "seat 3 handed back to Nurlan" in back
    first, second, third = (records[s["record"]].msg for s in description["segments"])
    assert isinstance(first, m.TableMsg) and isinstance(third, m.TableMsg)
    assert isinstance(second, m.TableMsg) and second.seats[3].key != first.seats[3].key
    assert third.seats[3].key == first.seats[3].key and third.after is not None
    assert third.after.deal == 3 and third.nonces[3] not in (first.nonces[3], second.nonces[3])
    assert [d["deal_id"] for d in description["deals"]] == [1, 2, 3]
    assert [d.to_json() for d in report.deals] == description["deals"]
    assert (data, description) == generate_segment_vector(SEAT_BACK)


def test_the_refused_id_vector_is_invalid_at_its_first_record_and_regenerates() -> None:
    data, description = _scenario_file(REFUSED_ID.name)
    records = [r.envelope for r in iter_records(data)]
    assert [e.type for e in records] == ["table", "sit"]
    assert [e.digest.hex() for e in records] == [r["hash"] for r in description["records"]]
    table = records[0].msg
    assert isinstance(table, m.TableMsg) and table.flow >= 3 and table.after is None
    derived = game_id_of(table.nonces).hex()
    assert description["derived_game_id"] == derived != records[0].game.hex()
    report = verify_bytes(data)
    expected = description["verify"]
    assert report.verdict.split(":", 1)[0] == expected["verdict"] == "INVALID"
    assert report.records == expected["records"] == 1
    assert report.error == expected["error"]
    assert report.error is not None and report.error.startswith("record 0 ")
    assert derived in report.error and records[0].game.hex() in report.error
    assert (data, description) == generate_segment_vector(REFUSED_ID)


def test_the_no_record_vector_is_invalid_with_exit_status_2() -> None:
    """The magic and no record: the file regenerates byte for byte, and the real
    command says INVALID and exits 2 (SPEC.md section 5.1), the path the vector names."""
    from p2pbelka.bench.vectors import NO_RECORD, no_record
    from p2pbelka.cli.main import main

    data, description = no_record()
    path = VECTORS / f"{NO_RECORD}.p2pb"
    assert path.read_bytes() == data
    text = json.dumps(description, indent=1, ensure_ascii=False) + "\n"
    assert (VECTORS / f"{NO_RECORD}.json").read_text(encoding="utf-8") == text
    assert description["verify"]["records"] == 0
    assert description["verify"]["verdict"].startswith("INVALID")
    assert main(["verify", str(path)]) == description["verify"]["exit_status"] == 2
