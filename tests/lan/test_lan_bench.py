"""Smoke test for ``p2pbelka.bench.net``: four peer processes, every figure reported."""

from __future__ import annotations

import json

import pytest

from p2pbelka.bench import net


@pytest.mark.slow
def test_bench_net_quick() -> None:
    figures = net.run(quick=True)
    assert figures["games"] == 1
    numbers = {k: v for k, v in figures.items() if k != "game"}
    assert all(isinstance(v, int | float) for v in numbers.values())
    counts = ("load_average", "deals_dealt_again")  # may be 0
    assert all(v > 0 for k, v in numbers.items() if not k.startswith(counts))
    assert figures["bytes_sent_per_peer_per_deal"] <= 64 * 1024
    for key in (
        "yardstick_us",
        "ms_per_deal_median_x",
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


def test_bench_net_belot_quick(capsys: pytest.CaptureFixture[str]) -> None:
    """Two Belot peer processes (not the default three: two play a game for half the
    CPU, and every figure is the same code): one game, every figure and the yardstick
    ratio."""
    from p2pbelka.cli.main import main

    argv = ["bench", "net", "--game", "belot", "--players", "2", "--quick", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "belot" and figures["peers"] == 2 and figures["games"] == 1
    for key in ("ms_per_deal_median", "ms_per_deal_median_x", "transcript_bytes_per_deal"):
        assert figures[key] > 0, key
    # Deals played out and deals dealt again before a card, apart: a game is played out
    # at least once, and every deal is one or the other.
    assert figures["ms_per_deal_played_median"] > 0
    assert 0 <= figures["deals_dealt_again"] < figures["deals"]
    if figures["deals_dealt_again"]:
        assert figures["ms_per_deal_dealt_again_median"] > 0


def test_bench_net_with_watchers_quick(capsys: pytest.CaptureFixture[str]) -> None:
    """Two Belot peers, one game without watchers and one with two: each watcher fed the
    whole game, the cost per deal and the bytes a watcher takes, with the yardstick."""
    from p2pbelka.cli.main import main

    argv = ["bench", "net", "--game", "belot", "--players", "2", "--watchers", "2", "--quick"]
    assert main([*argv, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["watchers"] == 2 and figures["games_each"] == 1 and figures["peers"] == 2
    for key in ("ms_per_deal_median_with_watchers_x", "ms_per_deal_median_without_watchers_x"):
        assert figures[key] > 0, key
    assert "watchers_cost_ms_per_deal" in figures and figures["watchers_cost_ratio"] > 0
    assert figures["bytes_to_a_watcher_per_deal"] > 0
    assert main(["bench", "rules", "--watchers", "2"]) == 2
    assert main(["bench", "net", "--watchers", "17"]) == 2  # more than a host takes
