"""Belka's figures of ``p2pbelka bench deal``: the fair deal's crypto alone for every
fair-deal version (``deal_crypto``: a four-seat deal of 32 positions, every card
played, as Belka deals), then the whole games."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bench import deal_crypto


def run(
    quick: bool, seats: int, whole_games: Callable[[float], dict[str, object]]
) -> dict[str, object]:
    """Every version's crypto, then ``whole_games`` (given the yardstick in milliseconds)."""
    figures = dict(deal_crypto.run(quick=quick))
    unit_ms = float(figures["yardstick_us"]) / 1000  # type: ignore[arg-type]
    figures.update(whole_games(unit_ms))
    return figures
