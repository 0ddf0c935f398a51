"""Smoke test for ``p2pbelka.bench.net``: four peer processes, every figure reported."""

from __future__ import annotations

import json

import pytest

from p2pbelka.bench import net


@pytest.mark.slow
def test_bench_net_quick() -> None:
    figures = net.run(quick=True)
    assert figures["games"] == 1
    assert all(isinstance(v, int | float) and v > 0 for v in figures.values())
    assert figures["bytes_sent_per_peer_per_deal"] <= 64 * 1024


def test_bench_net_belot_quick(capsys: pytest.CaptureFixture[str]) -> None:
    """Three Belot peer processes: one game, every figure and the yardstick ratio."""
    from p2pbelka.cli.main import main

    argv = ["bench", "net", "--game", "belot", "--players", "3", "--quick", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "belot" and figures["peers"] == 3 and figures["games"] == 1
    for key in ("ms_per_deal_median", "ms_per_deal_median_x", "transcript_bytes_per_deal"):
        assert figures[key] > 0, key
