"""What the benches' timings share."""

from __future__ import annotations


def percentile(sorted_ms: list[float], q: float) -> float:
    """The ``q`` quantile of ``sorted_ms`` (sorted), rounded to hundredths."""
    if not sorted_ms:
        return 0.0
    return round(sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))], 2)
