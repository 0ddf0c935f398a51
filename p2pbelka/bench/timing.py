"""What the benches' timings share."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def percentile(sorted_ms: list[float], q: float) -> float:
    """The ``q`` quantile of ``sorted_ms`` (sorted), rounded to hundredths."""
    if not sorted_ms:
        return 0.0
    return round(sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))], 2)


def solver_start(available: bool, quick: bool, first: Callable[[], object]) -> dict[str, object]:
    """The opening figures of ``bench solver``: whether the compiled solver runs, the
    yardstick (one PyNaCl ed25519 scalar multiplication, in µs) and the first solve's
    time (``first``: the compile, or loading it from the disk cache)."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    figures: dict[str, object] = {
        "jit": available,
        "yardstick_us": round(yardstick_us(200 if quick else 2000), 1),
    }
    start = time.perf_counter()
    first()
    figures["first_solve_s"] = round(time.perf_counter() - start, 2)
    return figures


class SolverTimes:
    """One kind of world's solves: the compiled solver's times and nodes, the pure-Python
    solver's times on some, both values checked equal."""

    def __init__(self, nodes: Callable[[], int]) -> None:
        self.nodes_now = nodes
        self.fast: list[float] = []
        self.cpu: list[float] = []  # the compiled solver's process time: robust to load
        self.slow: list[float] = []
        self.paired: list[float] = []  # the compiled times on the worlds both solved
        self.nodes: list[int] = []

    def world(self, fast: Callable[[], object], slow: Callable[[], object] | None) -> None:
        before = self.nodes_now()
        c0 = time.process_time()
        t0 = time.perf_counter()
        value = fast()
        self.fast.append((time.perf_counter() - t0) * 1000)
        self.cpu.append((time.process_time() - c0) * 1000)
        self.nodes.append(self.nodes_now() - before)
        if slow is not None:
            t0 = time.perf_counter()
            expected = slow()
            self.slow.append((time.perf_counter() - t0) * 1000)
            self.paired.append(self.fast[-1])
            if value != expected:
                raise AssertionError(f"the solvers differ: {value} and {expected}")

    def figures(self, prefix: str, unit_ms: float) -> dict[str, object]:
        """Keys starting ``prefix``: medians, 90th and 99th percentiles (ms; the compiled
        solver's also in process time, which a busy machine barely changes), nodes, the
        compiled median in yardsticks (``unit_ms`` each), the ratio on the worlds both
        solved."""
        fast = sorted(self.fast)
        slow = sorted(self.slow)
        nodes = sorted(self.nodes)
        figures: dict[str, object] = {
            f"{prefix}_worlds": len(fast),
            f"{prefix}_fast_ms_median": percentile(fast, 0.5),
            f"{prefix}_fast_ms_p90": percentile(fast, 0.9),
            f"{prefix}_fast_ms_p99": percentile(fast, 0.99),
            f"{prefix}_fast_cpu_ms_median": percentile(sorted(self.cpu), 0.5),
            f"{prefix}_fast_cpu_ms_p90": percentile(sorted(self.cpu), 0.9),
            f"{prefix}_nodes_median": nodes[len(nodes) // 2],
            f"{prefix}_nodes_p90": nodes[min(len(nodes) - 1, int(0.9 * len(nodes)))],
            f"{prefix}_fast_median_yardsticks": round(statistics.median(fast) / unit_ms, 1),
        }
        if slow:
            figures[f"{prefix}_python_worlds"] = len(slow)
            figures[f"{prefix}_python_ms_median"] = percentile(slow, 0.5)
            figures[f"{prefix}_python_ms_p99"] = percentile(slow, 0.99)
            ratio = statistics.median(slow) / max(statistics.median(self.paired), 1e-6)
            figures[f"{prefix}_python_over_fast"] = round(ratio, 1)
        return figures
