"""``p2pbelka bench net --watchers N``: what N watchers cost a game of peer processes.

Games with N watchers (``bench/netwatch.py`` processes that follow the host's
feed from before the start) alternate with games without, in the same run, so
the difference of the median deal times is the watchers' cost on this machine
at this moment; the figures of ``bench net`` come beside them.  A watcher's
bytes per deal are what its channel delivered (the payloads: records, chat,
control messages) over the host's deals; the records a deal, what it took to
play each (``ms_per_record``: the deal's time over its records, the same with
watchers or without) and the ratio of the two medians are the players' time a
record with watchers and without (docs/network.md).
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from p2pbelka.bench.net import bench_end, bench_start, one_game
from p2pbelka.rules import registry


def run(
    quick: bool = False,
    game: str = registry.DEFAULT,
    players: int | None = None,
    watchers: int = 2,
) -> dict[str, object]:
    seats, count, unit_ms, load_start = bench_start(quick, game, players)
    pairs = 1 if quick else 3
    without: list[float] = []
    watched_ms: list[float] = []
    per_watcher: list[float] = []
    records: list[float] = []
    deals = 0
    for _ in range(pairs):
        with tempfile.TemporaryDirectory() as tmp:
            without += one_game(Path(tmp), game, seats)[0]["deal_ms"]
        seen: list[dict[str, Any]] = []
        with tempfile.TemporaryDirectory() as tmp:
            host = one_game(Path(tmp), game, seats, watchers=watchers, watched=seen)[0]
        watched_ms += host["deal_ms"]
        deals += host["deals"]
        per_watcher += [w["bytes_in"] / host["deals"] for w in seen]
        records += [w["records"] / host["deals"] for w in seen]
    base, loaded = statistics.median(without), statistics.median(watched_ms)
    per_deal = statistics.fmean(records)
    return {
        "game": game,
        "peers": seats,
        "watchers": watchers,
        "yardstick_us": round(1000 * unit_ms, 1),
        "games_each": pairs,
        "deals_watched": deals,
        "ms_per_deal_median_without_watchers": round(base, 1),
        "ms_per_deal_median_with_watchers": round(loaded, 1),
        "ms_per_deal_median_without_watchers_x": round(base / unit_ms),
        "ms_per_deal_median_with_watchers_x": round(loaded / unit_ms),
        "watchers_cost_ms_per_deal": round(loaded - base, 1),
        "watchers_cost_ratio": round(loaded / base, 3),
        "records_per_deal": round(per_deal, 1),
        "ms_per_record_median_without_watchers": round(base / per_deal, 2),
        "ms_per_record_median_with_watchers": round(loaded / per_deal, 2),
        "bytes_to_a_watcher_per_deal": round(statistics.fmean(per_watcher)),
        "bytes_to_a_watcher_per_deal_max": round(max(per_watcher)),
        **bench_end(count, load_start),
    }
