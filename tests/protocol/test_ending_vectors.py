"""The path vectors of refused records, the closing exchange, proofs and endings in a
file (protocol/SPEC.md sections 2.2, 4.7, 5 and 5.1): each one replayed record by
record, checking that it still reaches the path it is listed for (the record refused
and why, the record kinds it holds, the verdict, the seats named), so a vector that
stops reaching its path fails here even if it still regenerates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.observer import Observer
from p2pbelka.table.verify import verify_bytes

PATHS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "paths"

ENDINGS_EXPECTED = {
    "refused-chain": "DISPUTED",
    "refused-deal": "INCOMPLETE",
    "refused-turn": "CHEATING PROVEN",
    "refused-view-length": "DISPUTED",
    "refused-own-entry": "INCOMPLETE",
    "refused-close": "OK",
    "after-refused": "INVALID",
    "close-cut": "OK",
    "close-dispute": "OK",
    "deal-end-dispute": "OK",
    "close-dispute-proven": "CHEATING PROVEN",
    "evidence-in-close": "CHEATING PROVEN",
    "proof-pair": "CHEATING PROVEN",
    "proof-after-ok": "CHEATING PROVEN",
    "second-cheater": "CHEATING PROVEN",
    "proven-twice": "INVALID",
    "evidence-of-another-pair": "INVALID",
    "evidence-valid-pair": "CHEATING PROVEN",
    "ending-too-far": "INVALID",
    "ending-past-refused": "INVALID",
    "view-past-file": "DISPUTED",
    "view-too-far": "INVALID",
    "view-past-refused": "INVALID",
    "view-count-0-head": "INVALID",
    "belot-close-dispute-no-seat": "OK",
}
"""Every vector of the endings-and-proofs block, with its verdict (also checked, with
every other vector's, by ``test_path_vectors.py``)."""


def _json(name: str) -> dict[str, Any]:
    described: dict[str, Any] = json.loads((PATHS / f"{name}.json").read_text(encoding="utf-8"))
    return described


def _faults(name: str) -> list[tuple[int, bool, bool]]:
    return [(f["seat"], f["proven"], f["fatal"]) for f in _json(name)["verify"]["faults"]]


def _records(name: str) -> list[Envelope]:
    return [r.envelope for r in iter_records((PATHS / f"{name}.p2pb").read_bytes())]


def _refusals(name: str) -> list[tuple[int, str]]:
    """Every record an observer refused when due but kept (its index, the reason)."""
    observer = Observer()
    out = []
    for index, envelope in enumerate(_records(name)):
        events = observer.feed(envelope)
        out += [(index, e.reason) for e in events if isinstance(e, ev.Rejected)]
        if observer.stopped:
            break
    return out


def _seat(described: dict[str, Any], index: int) -> int:
    seat: int = described["records"][index]["seat"]
    return seat


def _types(name: str) -> list[str]:
    return [r["type"] for r in _json(name)["records"]]


def test_every_vector_of_the_block_has_its_verdict() -> None:
    verdicts = {n: _json(n)["verify"]["verdict"] for n in ENDINGS_EXPECTED}
    assert verdicts == ENDINGS_EXPECTED


REFUSED = {
    "refused-chain": "broken hash chain",
    "refused-deal": "belongs to deal 1",
    "refused-turn": "out of turn: a lot_commit",
    "refused-view-length": "its view lists 3 seats",
    "refused-own-entry": "its view of its own chain",
    "refused-close": "its close's view is not the one the closing exchange began with",
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_refused_record_of_each_kind_is_kept_in_the_file(name: str) -> None:
    """The record due next, refused when due, is kept at its place: counted, never
    INVALID, and what follows it is an ending, a proof record or the end of the file."""
    refusals = _refusals(name)
    described = _json(name)
    assert len(refusals) == 1 and REFUSED[name] in refusals[0][1], refusals
    index = refusals[0][0]
    assert _seat(described, index) == 2 and described["verify"]["error"] is None
    after = _types(name)[index + 1 :]
    assert after in ([], ["dispute"], ["lot_reveal", "evidence"]), after
    if after == ["lot_reveal", "evidence"]:  # another envelope for the refused place
        assert _faults(name) == [(2, True, True)]
    elif after == ["dispute"]:
        assert _faults(name) == [(2, False, True)]


def test_after_a_refused_record_no_envelope_of_the_phase_is_due() -> None:
    refusals = _refusals("after-refused")
    error = _json("after-refused")["verify"]["error"]
    assert [i for i, _ in refusals] == [10] and error.startswith("record 11 ")
    assert _types("after-refused")[10:] == ["lot_reveal", "lot_reveal"]


def test_a_won_game_cut_in_its_close_phase_names_every_seat_whose_close_it_lacks() -> None:
    """Cut after two closes, or after a refused close (counted as missing): seats 2 and
    3, not proven, not fatal, in seat order; the result stands (OK)."""
    for name in ("close-cut", "refused-close"):
        types = _types(name)
        assert types[-1] == "close" and types.count("close") == (2 if name == "close-cut" else 3)
        assert _faults(name) == [(2, False, False), (3, False, False)], name
        names = _json(name)["verify"]["faults"]
        assert all("did not close the game" in f["what"] for f in names)


def _ahead_by_one(name: str) -> None:
    """The last record, the recorder's dispute, comes one past its chain in the file:
    its own envelope before it was held, never taken."""
    records = _records(name)
    last = records[-1]
    assert last.type == "dispute"
    in_file = [e for e in records[:-1] if e.sender == last.sender]
    assert last.seq == len(in_file) + 1 and last.prev != in_file[-1].digest


def test_the_recorders_dispute_in_the_close_phase_and_the_last_deal_end_phase() -> None:
    assert _types("close-dispute")[-3:] == ["close", "close", "dispute"]
    assert _types("deal-end-dispute")[-3:] == ["deal_end", "deal_end", "dispute"]
    for name in ("close-dispute", "deal-end-dispute"):
        _ahead_by_one(name)
        assert _seat(_json(name), -1) == 3
        assert _faults(name) == [(2, False, False)], name


def test_a_close_phase_dispute_that_names_no_seat_names_its_sender() -> None:
    name = "belot-close-dispute-no-seat"
    last = _records(name)[-1]
    assert last.type == "dispute" and all(s >= 2 for s in last.msg.seats)  # type: ignore[attr-defined]
    _ahead_by_one(name)
    assert _faults(name) == [(1, False, False)]


def test_evidence_in_the_close_phase_is_taken() -> None:
    assert _types("evidence-in-close")[-3:] == ["close", "close", "evidence"]
    assert _faults("evidence-in-close") == [(1, True, True)]


def test_the_first_of_two_proof_records() -> None:
    records = _records("proof-pair")
    first, second, evidence = records[-3:]
    assert (first.type, second.type, evidence.type) == ("trump", "trump", "evidence")
    assert (first.sender, first.seq) == (second.sender, second.seq)
    assert first.digest != second.digest
    assert _faults("proof-pair") == [(2, True, True)]


def _before_the_end(name: str, cut: int) -> str:
    """The verdict of the vector's file without its last ``cut`` records."""
    data = (PATHS / f"{name}.p2pb").read_bytes()
    raws = [r for r in iter_records(data)][: -cut or None]
    end = raws[-1].offset + 4 + len(raws[-1].envelope.raw)
    return verify_bytes(data[:end]).verdict.split(":", 1)[0]


def test_proofs_after_the_end() -> None:
    """After an OK game with renege charges: the charges stay, the verdict is the proof;
    a second seat proven after it joins it; after a close-phase dispute, the
    not-closing name gives way."""
    assert _before_the_end("proof-after-ok", 2) == "OK"
    charges = [(2, True, False)] * 2
    assert _faults("proof-after-ok") == [*charges, (2, True, True)]
    assert _types("proof-after-ok")[-3:] == ["close", "close", "evidence"]
    assert _faults("second-cheater") == [*charges, (2, True, True), (1, True, True)]
    assert _types("second-cheater")[-4:] == ["close", "evidence", "close", "evidence"]
    assert _before_the_end("close-dispute-proven", 2) == "OK"
    assert _types("close-dispute-proven")[-3:] == ["dispute", "deal_end", "evidence"]
    assert _faults("close-dispute-proven") == [(2, True, True)]


def test_what_no_recorder_records_after_a_proof() -> None:
    twice = _json("proven-twice")["verify"]["error"]
    assert "proven already" in twice and twice.startswith("record 142 ")
    other = _json("evidence-of-another-pair")["verify"]["error"]
    assert "not of the pair" in other and _types("evidence-of-another-pair")[-1] == "evidence"


def test_evidence_with_a_valid_pair_taken_as_an_ending() -> None:
    records = _records("evidence-valid-pair")
    assert records[-1].type == "evidence" and _seat(_json("evidence-valid-pair"), -1) == 1
    places = [(e.sender, e.seq) for e in records]
    assert len(set(places)) == len(places)  # no proof record: the evidence alone proves
    assert _faults("evidence-valid-pair") == [(2, True, True)]


def test_endings_ahead_of_their_chain_or_views_past_the_file() -> None:
    records = _records("view-past-file")
    dispute = records[-1]
    held = [sum(e.sender == records[0].msg.seats[s].key for e in records) for s in range(4)]  # type: ignore[attr-defined]
    assert dispute.view[2][0] == held[2] + 1 and dispute.view[3][0] == held[3] + 1
    assert _faults("view-past-file") == [(0, False, True)]
    invalid = {
        "ending-too-far": "too far ahead",
        "ending-past-refused": "chain stops at its refused envelope",
        "view-too-far": "more than 64 past",
        "view-past-refused": "whose chain stops at its refused envelope",
        "view-count-0-head": "a count of 0 with a head that is not 32 zero bytes",
    }
    for name, why in invalid.items():
        described = _json(name)
        error = described["verify"]["error"]
        last = len(described["records"]) - 1
        assert why in error and f"record {last}" in error, (name, error)
