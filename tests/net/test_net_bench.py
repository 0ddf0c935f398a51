"""Smoke tests for ``p2pbelka.bench.transport`` and ``door``: they run and report every
figure."""

from __future__ import annotations

from p2pbelka.bench import door, transport


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


def test_bench_door_quick() -> None:
    """The attacks end by themselves; what they find is told in counts, not times."""
    figures = door.run(quick=True)
    assert {"parallel15_tested", "flood16_codes_per_s", "bare_ms", "replay_ms"} <= set(figures)
    assert figures["parallel15_tested"] == 10 and figures["parallel_right_in"] is True
    assert figures["bare_spake2_starts"] == 0
