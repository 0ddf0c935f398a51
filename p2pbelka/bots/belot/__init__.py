"""Belot bots (2 or 3 players, each for themself): bids, declarations, cards, 1001 claims.

``make_belot_bot(level, seed)`` builds one by name -- ``random``, ``heuristic``,
``strong`` or ``strong:N`` -- and :func:`decide` asks it for one turn's actions
from the seat's view; see :mod:`p2pbelka.bots.belot.base` and docs/bots.md.
:class:`~p2pbelka.bots.belot.seat.BelotSeatBot` answers a table's questions with
one, a move at a time.
"""

from p2pbelka.bots.belot.base import BELOT_BOT_LEVELS, BelotBot, decide, make_belot_bot, seat_view

__all__ = ["BELOT_BOT_LEVELS", "BelotBot", "decide", "make_belot_bot", "seat_view"]
