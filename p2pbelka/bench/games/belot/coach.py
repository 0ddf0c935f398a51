"""Belot's games for ``p2pbelka bench coach``: whole three-player games between
heuristic players on the rules engine (the coach grades their plays against the
strong evaluation)."""

from __future__ import annotations

from p2pbelka.bots.belot.base import make_belot_bot
from p2pbelka.bots.belot.tournament import play_game
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import belot_options

PLAYERS = 3


def sample_games(seed: int, count: int) -> list[tuple[BelotGame, int]]:
    """``count`` seeded games and their seats."""
    found: list[tuple[BelotGame, int]] = []
    for g in range(count):
        bots = [make_belot_bot("heuristic", seed=seed + 10 * g + s) for s in range(PLAYERS)]
        found.append((play_game(bots, belot_options(), seed * 7919 + g), PLAYERS))
    return found
