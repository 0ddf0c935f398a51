"""The Belot rules engine (2 or 3 players): immutable states, legal actions, scoring, records.

- :class:`BelotGame` -- a game: deals in turn, written scores, hanging points, the winner;
- :class:`DealState` -- one deal: bidding, the three more cards, declarations, tricks;
- actions :class:`Bid`, :class:`Declare`, :class:`~p2pbelka.rules.belka.deal.Play`, :class:`Claim`;
- :func:`belot_options` / :class:`BelotOptions` -- ``hanging_twice``, ``four_eights``,
  ``four_sevens``;
- :mod:`p2pbelka.rules.belot.core` -- the same rules on plain ints, fast, for bots;
- :mod:`p2pbelka.rules.belot.records` -- JSON game records and their replay (the referee).

Cards, tricks, plays and :class:`~p2pbelka.rules.common.errors.RuleViolation` are shared with Belka.
"""

from p2pbelka.rules.belot.deal import Action, Bid, Claim, DealState, Declaration, Declare
from p2pbelka.rules.belot.game import BelotGame, DealResult
from p2pbelka.rules.belot.options import BelotOptions, belot_options
from p2pbelka.rules.common.play import Play, Trick

__all__ = [
    "Action",
    "BelotGame",
    "BelotOptions",
    "Bid",
    "Claim",
    "DealResult",
    "DealState",
    "Declaration",
    "Declare",
    "Play",
    "Trick",
    "belot_options",
]
