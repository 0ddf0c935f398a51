from __future__ import annotations

import pytest

from p2pbelka.bench import deal_crypto
from p2pbelka.fairdeal import SUPPORTED_VERSIONS

pytestmark = pytest.mark.counts_work  # the bench's figures are one seat's work


def test_quick_run_reports_figures() -> None:
    figures = deal_crypto.run(quick=True)
    assert figures["yardstick_us"] > 0  # type: ignore[operator]
    for version in SUPPORTED_VERSIONS:
        for step in ("deal_all_seats", "audit_one_seat", "verify_fairdeal"):
            for unit in ("ms", "x"):
                value = figures[f"v{version}_{step}_{unit}"]
                assert isinstance(value, int | float) and value > 0


def test_multiplication_counts_of_a_played_deal() -> None:
    # 4 seats x (32 shuffle + 32 lock) + every position decoded by every seat.
    figures = deal_crypto.run(quick=True)
    for version in SUPPORTED_VERSIONS:
        v = f"v{version}"
        assert figures[f"{v}_deal_hands_only_mults"] == 4 * 64 + 32
        assert figures[f"{v}_deal_all_seats_mults"] == 4 * 64 + 4 * 32
        # One seat's audit checks the outcome: nothing for a played card, one
        # multiplication for a position never opened.
        assert figures[f"{v}_audit_one_seat_mults"] == 0
        assert figures[f"{v}_audit_one_seat_nothing_opened_mults"] == 32
        # A verifier: every play decoded once, every pass replayed.
        assert figures[f"{v}_verify_fairdeal_mults"] == 32 + 4 * 64


def test_point_checks_of_a_played_deal() -> None:
    """Every seat checks every pass it neither made nor multiplies next (4 seats: two
    check each pass, three the last lock, which nobody multiplies); a verifier checks
    every pass once."""
    figures = deal_crypto.run(quick=True)
    for version in SUPPORTED_VERSIONS:
        v = f"v{version}"
        assert figures[f"{v}_deal_all_seats_checks"] == (7 * 2 + 3) * 32
        assert figures[f"{v}_deal_all_seats_unchecked_checks"] == 0
        assert figures[f"{v}_check_pass_checks"] == 32
        assert figures[f"{v}_verify_fairdeal_checks"] == 8 * 32
