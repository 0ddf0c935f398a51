"""Belka's bots (4 players, two teams): cards, re-deal claims, the eggs choice.

``make_belka_bot(level, seed)`` builds one by name -- ``random``, ``heuristic``,
``strong``, ``strong:N`` or ``strong+`` -- with Belka's own three questions
(:mod:`p2pbelka.bots.belka.base`); :class:`~p2pbelka.bots.belka.seat.BelkaSeatBot`
answers a table's questions with one.  See docs/bots.md.
"""

from p2pbelka.bots.belka.base import BELKA_BOT_LEVELS, BelkaBot, RandomBot, make_belka_bot

__all__ = ["BELKA_BOT_LEVELS", "BelkaBot", "RandomBot", "make_belka_bot"]
