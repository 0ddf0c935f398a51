"""Smoke test for ``p2pbelka.bench.transport``: it runs and reports every figure."""

from __future__ import annotations

from p2pbelka.bench import transport


def test_bench_transport_quick() -> None:
    figures = transport.run(quick=True)
    assert set(figures) == {
        "yardstick_us",
        "handshake_in_memory_ms",
        "handshake_with_code_in_memory_ms",
        "handshake_x",
        "handshake_with_code_x",
        "invite_code_cost_x",
        "connect_and_handshake_ms",
        "connect_and_handshake_with_code_ms",
        "round_trip_us",
        "frames_per_s_100B",
        "frames_per_s_64KiB",
        "beacons_checked_per_s",
    }
    assert all(isinstance(v, int | float) and v > 0 for v in figures.values())
