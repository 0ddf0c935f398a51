from __future__ import annotations

from p2pbelka.bench import deal_crypto


def test_quick_run_reports_figures() -> None:
    figures = deal_crypto.run(quick=True)
    for key in ("deal_all_seats_ms", "audit_per_seat_ms", "scalar_mults_per_s"):
        value = figures[key]
        assert isinstance(value, int | float) and value > 0
