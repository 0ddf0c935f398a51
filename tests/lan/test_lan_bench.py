"""Smoke test for ``p2pbelka.bench.net``: four peer processes, every figure reported."""

from __future__ import annotations

import pytest

from p2pbelka.bench import net


@pytest.mark.slow
def test_bench_net_quick() -> None:
    figures = net.run(quick=True)
    assert figures["games"] == 1
    assert all(isinstance(v, int | float) for v in figures.values())
    assert all(v > 0 for k, v in figures.items() if not k.startswith("load_average"))
    assert figures["bytes_sent_per_peer_per_deal"] <= 64 * 1024
    for key in (
        "yardstick_us",
        "x_per_deal_median",
        "cpu_ms_per_deal_per_peer_median",
        "cpu_x_per_deal_all_peers",
        "startup_cpu_ms_per_peer_mean",
        "lobby_ms_per_peer_mean",
        "process_cpu_ms_per_peer",
    ):
        assert key in figures
    # The deals are a part of what each peer process spent.
    per_peer = figures["cpu_ms_per_deal_per_peer_mean"] * figures["deals"]
    assert per_peer < figures["process_cpu_ms_per_peer"]
