"""``p2pbelka bench rules --quick``: every figure is there, Belka's and Belot's alike."""

from __future__ import annotations

from p2pbelka.bench import rules


def test_quick_run_reports_belka_and_belot_figures() -> None:
    figures = rules.run(quick=True)
    for key in (
        "fast_core_deals_per_s",
        "clean_api_deals_per_s",
        "belot_fast_core_deals_per_s",
        "belot2_fast_core_deals_per_s",
        "belot_clean_api_deals_per_s",
        "yardstick_scalar_mults_per_s",
    ):
        value = figures[key]
        assert isinstance(value, int) and value > 0
    share = figures["belot_void_share"]
    assert isinstance(share, float) and 0 <= share < 1
