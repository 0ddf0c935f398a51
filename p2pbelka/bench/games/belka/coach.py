"""Belka's games for ``p2pbelka bench coach``: whole games between heuristic players
on the rules engine (the coach grades their plays against the strong evaluation)."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bots.belka.base import make_belka_bot
from p2pbelka.bots.belka.tournament import play_game
from p2pbelka.rules.belka.game import SEATS, GameState
from p2pbelka.rules.belka.options import options_from


def _deal_seeds(base: int) -> Callable[[int], int]:
    return lambda k: base + k


def sample_games(seed: int, count: int) -> list[tuple[GameState, int]]:
    """``count`` seeded games and their seats."""
    found: list[tuple[GameState, int]] = []
    for g in range(count):
        bots = [make_belka_bot("heuristic", seed=seed + 10 * g + s) for s in range(SEATS)]
        deals = _deal_seeds(seed * 7919 + g * 1000)
        found.append((play_game(bots, options_from("classic"), deals), SEATS))
    return found
