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

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from p2pbelka.rules.belot.deal import Action, Bid, Claim, DealState, Declaration, Declare
    from p2pbelka.rules.belot.game import BelotGame, DealResult
    from p2pbelka.rules.belot.options import BelotOptions, belot_options
    from p2pbelka.rules.common.play import Play, Trick

# each name loads its module when first asked for (PEP 562): the game's spec, which every
# command reads, is in this package too, and should not bring the whole engine
__getattr__ = lazy_names(
    __name__,
    {
        "Action": ".deal",
        "BelotGame": ".game",
        "BelotOptions": ".options",
        "Bid": ".deal",
        "Claim": ".deal",
        "DealResult": ".game",
        "DealState": ".deal",
        "Declaration": ".deal",
        "Declare": ".deal",
        "Play": "p2pbelka.rules.common.play",
        "Trick": "p2pbelka.rules.common.play",
        "belot_options": ".options",
    },
)

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
