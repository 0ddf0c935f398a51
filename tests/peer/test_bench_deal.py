"""``p2pbelka bench deal`` runs and reports every figure (the figures themselves are not asserted:
speed is measured by the benchmark, not by tests on a shared machine)."""

from __future__ import annotations

import json

import pytest

from p2pbelka.cli.main import main


def test_bench_deal_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "deal", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in (
        "deal_all_seats_ms",
        "audit_per_seat_ms",
        "verify_ms_per_deal",
        "transcript_bytes_per_deal",
    ):
        assert figures[key] > 0
