"""Smoke test for ``p2pbelka.bench.net``: four peer processes, every figure reported."""

from __future__ import annotations

import pytest

from p2pbelka.bench import net


@pytest.mark.slow
def test_bench_net_quick() -> None:
    figures = net.run(quick=True)
    assert figures["games"] == 1
    assert all(isinstance(v, int | float) and v > 0 for v in figures.values())
    assert figures["bytes_sent_per_peer_per_deal"] <= 64 * 1024
