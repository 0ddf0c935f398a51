"""The path vectors of Belot, continuations, rules and audits (issue 41, items 18-26):
each one still reaches the path protocol/vectors/README.md names it for (the verdict,
the seat at fault, the records and fields it must hold), so a vector that stops
reaching its path fails here.  ``test_path_vectors.py`` regenerates every one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.bench import path_segments as seg
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.protocol.transcript import iter_records

PATHS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "paths"

REFUSED = {f"continuation-{name}" for name in seg.REFUSALS} | {
    "continuation-first-record",
    "continuation-after-an-end",
    "continuation-not-started",
    "continuation-earlier-id",
    "continuation-won-deal-end",
    "continuation-won-close",
    "belot-continuation-fewer-seats",
}

RULES_VERDICTS = {
    "flow-1-proof": "CHEATING PROVEN",
    "flow-2-proof": "CHEATING PROVEN",
    "flow-2-dispute-own-entry": "DISPUTED",
    "flow-1-won-cut": "INCOMPLETE",
    "flow-2-won-dispute": "DISPUTED",
    "flow-2-game-ok": "OK",
    "continuation-flow-1": "INCOMPLETE",
    "continuation-flow-2": "INCOMPLETE",
    "continuation-eggs-choice": "INCOMPLETE",
    "continuation-accepted": "INCOMPLETE",
    "continuation-to-the-end": "OK",
    "continuation-after-deal-ends": "INCOMPLETE",
    **dict.fromkeys(REFUSED, "INVALID"),
    "continuation-own-id": "CHEATING PROVEN",
    "goli-continues": "INCOMPLETE",
    "nonces-repeat": "INCOMPLETE",
    "redeal-dispute": "CHEATING PROVEN",
    "audit-faults": "CHEATING PROVEN",
    "belot-continuation": "INCOMPLETE",
    "belot-unopened": "CHEATING PROVEN",
    "belot-turned-unopened": "CHEATING PROVEN",
    "belot-hand-not-ok": "CHEATING PROVEN",
    "belot-declare-dispute": "CHEATING PROVEN",
    "belot-declare-not-at-lead": "CHEATING PROVEN",
    "belot-claim-not-at-lead": "CHEATING PROVEN",
    "belot-claim-in-bidding": "DISPUTED",
    "belot-four-eights": "INCOMPLETE",
    "belot-four-sevens": "INCOMPLETE",
}
"""Every vector of this block and its verdict (``test_path_vectors.EXPECTED`` holds them)."""


def _json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PATHS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _envelopes(name: str) -> list[Envelope]:
    return [r.envelope for r in iter_records((PATHS / f"{name}.p2pb").read_bytes())]


def _faults(d: dict[str, Any]) -> list[tuple[int, bool, bool]]:
    return [(f["seat"], f["proven"], f["fatal"]) for f in d["verify"]["faults"]]


def _kinds(d: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(r["type"], r["seat"]) for r in d["records"]]


def _segments(d: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for r in d["records"]:
        if not out or r["segment"] != out[-1]:
            out.append(r["segment"])
    return out


@pytest.mark.parametrize("name", sorted(RULES_VERDICTS))
def test_the_verdict(name: str) -> None:
    assert _json(name)["verify"]["verdict"] == RULES_VERDICTS[name]


@pytest.mark.parametrize("flow", [1, 2])
def test_a_proof_at_flows_1_and_2(flow: int) -> None:
    """A proof record and its recorder's evidence are read at every flow."""
    d = _json(f"flow-{flow}-proof")
    assert d["flow"] == flow and _faults(d) == [(2, True, True)]
    *earlier, second, evidence = d["records"]
    held = next(r for r in earlier if r["seat"] == 2 and r["seq"] == second["seq"])
    assert second["type"] == "shares" and held["hash"] != second["hash"]
    assert (evidence["type"], evidence["seat"]) == ("evidence", 0)


def test_an_ending_whose_own_entry_is_behind_is_taken_before_flow_3() -> None:
    d = _json("flow-2-dispute-own-entry")
    assert _faults(d) == [(2, False, True)]
    dispute = _envelopes("flow-2-dispute-own-entry")[-1]
    assert isinstance(dispute.msg, m.DisputeMsg)
    assert dispute.view[1] != (dispute.seq, dispute.prev) and dispute.view[1][0] == dispute.seq - 1


def test_a_won_game_at_flows_1_and_2_ends_at_its_last_deal_end() -> None:
    cut, disputed, ok = (
        _json(n) for n in ("flow-1-won-cut", "flow-2-won-dispute", "flow-2-game-ok")
    )
    for d in (cut, disputed, ok):
        assert "close" not in [t for t, _ in _kinds(d)]
        assert any("goli" in note for note in d["deals"][-1]["notes"])
    assert _faults(cut) == [] and _kinds(cut)[-3:] == [("deal_end", s) for s in (0, 1, 2)]
    assert _faults(disputed) == [(3, False, True)] and _kinds(disputed)[-1] == ("dispute", 0)
    assert _faults(ok) == [] and _kinds(ok)[-4:] == [("deal_end", s) for s in range(4)]


@pytest.mark.parametrize(
    "name, seat, voided",
    [
        ("continuation-flow-1", 3, "; deal 2, unfinished, voided"),
        ("continuation-flow-2", 3, "; deal 2, unfinished, voided"),
        ("continuation-accepted", 3, "; deal 1, unfinished, voided"),
        ("continuation-after-deal-ends", 3, "; deal 2 starts over, no card of it dealt yet"),
        ("continuation-eggs-choice", 0, "agreed by seats 1, 2, 3"),
        ("belot-continuation", 2, "; deal 2, unfinished, voided"),
    ],
)
def test_a_continuation_accepted(name: str, seat: int, voided: str) -> None:
    d = _json(name)
    assert _faults(d) == [] and len(_segments(d)) == 2
    (line,) = d["verify"]["changes"]
    assert line.startswith(f"seat {seat} (") and line.endswith(voided)
    tables = [e for e in _envelopes(name) if isinstance(e.msg, m.TableMsg)]
    assert len(tables) == 2 and tables[1].msg.after is not None
    assert tables[1].msg.after.seat == seat
    assert bool(tables[1].msg.nonces) == (d["flow"] >= 3)


def test_a_continuation_while_the_eggs_choice_is_due() -> None:
    """The cut falls after deal 2's deal_ends with the choice due: the new segment's
    first record after its sits is that choice, by the bot now at the chooser's seat."""
    d = _json("continuation-eggs-choice")
    kinds = _kinds(d)
    at = kinds.index(("table", 1), 1)
    assert kinds[at - 4 : at] == [("deal_end", s) for s in range(4)]
    assert kinds[at + 1 : at + 5] == [("sit", 0), ("sit", 2), ("sit", 3), ("choice", 0)]
    assert d["records"][at + 4]["deal"] == 2 and "voided" not in d["verify"]["changes"][0]
    first, second, third = d["deals"]
    assert first["notes"] == ["60:60, eggs"] and third["score"][0] >= second["score"][0] + 4


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_continuation_refused(name: str) -> None:
    """INVALID at the continuation's table, the last record (section 9.3)."""
    d = _json(name)
    last = len(d["records"]) - 1
    assert d["verify"]["records"] == last + 1 and d["records"][last]["type"] == "table"
    assert d["verify"]["error"].startswith(f"record {last} ")
    assert "not a valid continuation" in d["verify"]["error"]


def test_what_each_refused_continuation_shows() -> None:
    error = {n: _json(n)["verify"]["error"] for n in REFUSED}
    assert "no segment comes before it" in error["continuation-first-record"]
    assert "had ended" in error["continuation-after-an-end"]
    assert "had not started" in error["continuation-not-started"]
    assert "an earlier segment's" in error["continuation-earlier-id"]
    assert "2 seats, but segment" in error["belot-continuation-fewer-seats"]
    for where in ("deal-end", "close"):
        assert "the game was won" in error[f"continuation-won-{where}"]
    assert _faults(_json("continuation-after-an-end")) == [(3, False, True)]
    earlier = _json("continuation-earlier-id")
    assert len(_segments(earlier)) == 3 and _segments(earlier)[2] == _segments(earlier)[0]
    won = _kinds(_json("continuation-won-close"))
    assert won[-3:-1] == [("close", 0), ("close", 1)]
    assert _kinds(_json("continuation-won-deal-end"))[-3:-1] == [("deal_end", 0), ("deal_end", 1)]


def test_a_continuation_under_the_id_in_play_is_a_proof_record() -> None:
    d = _json("continuation-own-id")
    assert _faults(d) == [(0, True, True)]
    first, last = d["records"][0], d["records"][-1]
    assert (last["type"], last["seat"], last["seq"]) == ("table", 0, 0)
    assert last["hash"] != first["hash"] and "segment" not in last


def test_nonces_that_repeat() -> None:
    """Two seats' equal nonces: the table is taken and the game played under the id
    the list derives."""
    table, *_ = _envelopes("nonces-repeat")
    assert isinstance(table.msg, m.TableMsg)
    nonces = table.msg.nonces
    assert nonces[1] == nonces[2] and len(set(nonces)) == 3
    assert table.game == game_id_of(nonces)
    d = _json("nonces-repeat")
    assert _kinds(d)[1:4] == [("sit", 1), ("sit", 2), ("sit", 3)] and len(d["deals"]) == 1


def test_goli_continues() -> None:
    _, second, third = _json("goli-continues")["deals"]
    assert second["awarded"] == [2, 0] and second["score"] == [0, 0]
    assert "team 0 wins a game; a new one starts at 0:0" in second["notes"]
    assert third["score"] == third["awarded"], "the new game starts from 0:0"


def test_a_redeal_claim_that_raises_a_dispute() -> None:
    d = _json("redeal-dispute")
    assert ("redeal", 2) in _kinds(d) and _faults(d) == [(2, True, True)]
    assert d["verify"]["faults"][0]["what"].startswith("share check failed")
    assert _kinds(d)[-4:] == [("reveal", s) for s in range(4)] and d["deals"] == []


def test_several_audit_faults_in_one_deal() -> None:
    """One fault a pass (the lock), then one a share in position order."""
    whats = [f["what"] for f in _json("audit-faults")["verify"]["faults"]]
    assert _faults(_json("audit-faults")) == [(2, True, True)] * 3
    assert whats[0].startswith("lock check failed")
    positions = [int(w.split("position ")[1].split(":")[0]) for w in whats[1:]]
    assert all(w.startswith("share check failed") for w in whats[1:]) and positions == sorted(
        positions
    )


@pytest.mark.parametrize(
    "name, kind, sender, what",
    [
        ("belot-unopened", "unopened", 0, "share check failed at position 19"),
        ("belot-turned-unopened", "turned", 2, "share check failed at position 18"),
        ("belot-hand-not-ok", "turned", 0, "share check failed at position 0"),
        ("belot-declare-dispute", "declare", 2, "share check failed"),
        ("belot-declare-not-at-lead", "declare", 2, "false declaration"),
        ("belot-claim-not-at-lead", "claim", 2, "false claim of 1001"),
    ],
)
def test_belot_disputes_and_moments(name: str, kind: str, sender: int, what: str) -> None:
    d = _json(name)
    assert d["game"] == "belot" and (kind, sender) in _kinds(d)
    assert _faults(d) == [(2, True, True)] and d["verify"]["faults"][0]["what"].startswith(what)


def test_what_the_belot_messages_say() -> None:
    """hand_ok false is seat 0's; the turned card's dispute comes from no hand; the
    declare inside a dispute is at its sender's lead, the false ones are not."""
    turned = [e.msg for e in _envelopes("belot-hand-not-ok") if isinstance(e.msg, m.TurnedMsg)]
    assert [t.hand_ok for t in turned] == [False, True, True]
    turned = [e.msg for e in _envelopes("belot-turned-unopened") if isinstance(e.msg, m.TurnedMsg)]
    assert all(t.hand_ok for t in turned) and "bid" not in [
        t for t, _ in _kinds(_json("belot-turned-unopened"))
    ]
    for name, kind, lead in (
        ("belot-declare-dispute", "declare", True),
        ("belot-declare-not-at-lead", "declare", False),
        ("belot-claim-not-at-lead", "claim", False),
    ):
        kinds = _kinds(_json(name))
        plays = [t for t, _ in kinds[: kinds.index((kind, 2))]].count("play")
        assert (plays % 3 == 0) == lead, (name, "a card of the trick is down" if lead else "")
    assert (
        "before the first card of a trick"
        in _json("belot-declare-not-at-lead")["verify"]["faults"][0]["what"]
    )


def test_a_claim_while_a_call_is_due_is_refused() -> None:
    """Refused when due, kept as a refused record: nobody is charged for it; the seat
    is named, not proven, by the dispute of a seat that gave up waiting for it."""
    d = _json("belot-claim-in-bidding")
    kinds = _kinds(d)
    assert kinds[-2:] == [("claim", 2), ("dispute", 0)] and kinds[-3][0] == "bid"
    assert _faults(d) == [(2, False, True)]
    dispute = _envelopes("belot-claim-in-bidding")[-1]
    assert isinstance(dispute.msg, m.DisputeMsg) and dispute.msg.seats == (2,)


@pytest.mark.parametrize("rank, points", [("eights", 50), ("sevens", 30)])
def test_four_eights_and_four_sevens(rank: str, points: int) -> None:
    d = _json(f"belot-four-{rank}")
    assert d["options"] == {"four_eights": "50", "four_sevens": "30"}
    (deal,) = d["deals"]
    digit = "8" if rank == "eights" else "7"
    fours = [x for x in deal["declarations"] if x["name"] == "four"]
    assert [x["cards"] for x in fours] == [" ".join(f"{digit}{s}" for s in "CDHS")]
    assert deal["combinations"][fours[0]["seat"]] == points, "the four wins the comparison"
