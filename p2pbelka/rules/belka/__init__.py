"""Belka's rules engine: immutable states, legal actions, scoring, records.

- :class:`GameState` -- a game: deals in turn, score, winner (``p2pbelka.rules.belka.game``);
- :class:`DealState` -- one deal: hands, tricks, whose turn (``p2pbelka.rules.belka.deal``);
- actions :class:`Play`, :class:`RedealClaim`, :class:`EggsChoice`;
- :class:`RuleViolation` -- an illegal action, naming deal, trick, seat, card and rule;
- :func:`options_from` / :class:`Options` -- presets ``classic`` and ``eyes`` and house rules;
- :mod:`p2pbelka.rules.belka.core` -- the same rules on plain ints, fast, for bots;
- :mod:`p2pbelka.rules.belka.records` -- JSON game records and their replay (the referee).

Belot (2 or 3 players) lives in :mod:`p2pbelka.rules.belot`, built the same way
over the same cards, plays, tricks, errors and record plumbing
(:mod:`p2pbelka.rules.common.recordio`).
"""

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from p2pbelka.rules.belka.core import deal_pattern, legal_mask, mask_points, trick_winner
    from p2pbelka.rules.belka.deal import DealState, Offense, RedealClaim, seat_suits_from
    from p2pbelka.rules.belka.game import EGGS_TITLE, GOAT_TITLE, DealResult, EggsChoice, GameState
    from p2pbelka.rules.belka.options import CHOICES, PRESETS, TARGET, Options, options_from
    from p2pbelka.rules.belka.scoring import DealScore, deal_score
    from p2pbelka.rules.common.errors import RuleViolation
    from p2pbelka.rules.common.options import OptionError
    from p2pbelka.rules.common.play import Play, Trick, hand_mask

# each name loads its module when first asked for (PEP 562): the game's spec, which every
# command reads, is in this package too, and should not bring the whole engine
__getattr__ = lazy_names(
    __name__,
    {
        "CHOICES": ".options",
        "DealResult": ".game",
        "DealScore": ".scoring",
        "DealState": ".deal",
        "EGGS_TITLE": ".game",
        "EggsChoice": ".game",
        "GOAT_TITLE": ".game",
        "GameState": ".game",
        "Offense": ".deal",
        "OptionError": "p2pbelka.rules.common.options",
        "Options": ".options",
        "PRESETS": ".options",
        "Play": "p2pbelka.rules.common.play",
        "RedealClaim": ".deal",
        "RuleViolation": "p2pbelka.rules.common.errors",
        "TARGET": ".options",
        "Trick": "p2pbelka.rules.common.play",
        "deal_pattern": ".core",
        "deal_score": ".scoring",
        "hand_mask": "p2pbelka.rules.common.play",
        "legal_mask": ".core",
        "mask_points": ".core",
        "options_from": ".options",
        "seat_suits_from": ".deal",
        "trick_winner": ".core",
    },
)

__all__ = [
    "CHOICES",
    "EGGS_TITLE",
    "GOAT_TITLE",
    "PRESETS",
    "TARGET",
    "DealResult",
    "DealScore",
    "DealState",
    "EggsChoice",
    "GameState",
    "Offense",
    "OptionError",
    "Options",
    "Play",
    "RedealClaim",
    "RuleViolation",
    "Trick",
    "deal_pattern",
    "deal_score",
    "hand_mask",
    "legal_mask",
    "mask_points",
    "options_from",
    "seat_suits_from",
    "trick_winner",
]
