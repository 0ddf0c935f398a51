"""``p2pbelka bench deal`` runs and reports every figure (the figures themselves are not asserted:
speed is measured by the benchmark, not by tests on a shared machine)."""

from __future__ import annotations

import json

import pytest

from p2pbelka.cli.main import main

pytestmark = pytest.mark.counts_work  # the bench counts one seat's multiplications


def test_bench_deal_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "deal", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in (
        "deal_all_seats_ms",
        "audit_per_seat_ms",
        "verify_ms_per_deal",
        "transcript_bytes_per_deal",
        "audit_x_per_seat_per_deal",
    ):
        assert figures[key] > 0
    assert figures["game_fairdeal_version"] == 2
    # The audit a seat runs checks where the seeds put each card: a position opened
    # in play costs nothing, one never opened (a deal ended by a re-deal) one
    # multiplication; no pass is replayed in an honest game. Counted, not timed.
    assert 0 <= figures["audit_mults_per_seat_per_deal"] < 32


def test_timed_audits_restores_the_table() -> None:
    from p2pbelka.bench.deal import timed_audits
    from p2pbelka.table.dealdeck import DealDeck

    original = DealDeck.audit
    with timed_audits() as clock:
        assert DealDeck.audit is not original
    assert DealDeck.audit is original
    assert clock.audits == 0


@pytest.mark.parametrize("players", ["2", "3"])
def test_bench_deal_belot_quick(capsys: pytest.CaptureFixture[str], players: str) -> None:
    argv = ["bench", "deal", "--game", "belot", "--players", players, "--quick", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "belot" and figures["belot_seats"] == int(players)
    for key in (
        "yardstick_us",
        "belot_deal_all_seats_ms",
        "belot_deal_all_seats_x",
        "belot_audit_one_seat_ms",
        "verify_ms_per_deal",
        "verify_x_per_deal",
        "protocol_ms_per_deal_per_peer",
        "transcript_bytes_per_deal",
    ):
        assert figures[key] > 0, key


def test_bench_refuses_a_seat_count_the_game_is_not_played_by(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "deal", "--game", "belot", "--players", "4", "--quick"]) == 2
    assert "Belot is played by 2 or 3, not 4" in capsys.readouterr().err
