"""What a played deal is worth, before the game applies it (eggs carry-over, the target).

Classic count: the team with more than 60 card points *wins* game points.
Eyes variant: the team with more than 60 *opens eyes against* the losers.
Either way one number, :attr:`DealScore.base`, goes to (classic) or against
(eyes) one team; :mod:`p2pbelka.rules.belka.game` adds the eggs bonus and penalties.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.rules.belka.options import Options


@dataclass(frozen=True, slots=True)
class DealScore:
    """``winner``: team with more than 60 card points, None at 60:60 (``eggs``).

    ``base``: game points won by the winners (classic) or eyes opened against
    the losers (eyes), before any eggs bonus.  ``goli``: the winners took all
    120 card points; ``all_tricks``: all eight tricks.
    """

    winner: int | None
    base: int
    eggs: bool
    goli: bool
    all_tricks: bool


def deal_score(
    options: Options,
    card_points: tuple[int, int],
    trump_team: int,
    tricks_won: tuple[int, int],
    first: bool,
) -> DealScore:
    """Score a played deal.  ``first``: the game's first deal (``first_deal_two``)."""
    if card_points[0] + card_points[1] != 120:
        raise ValueError(f"card points must sum to 120, got {card_points}")
    if card_points[0] == 60:
        return DealScore(None, 0, eggs=True, goli=False, all_tricks=False)
    winner = 0 if card_points[0] > 60 else 1
    won, lost = card_points[winner], card_points[1 - winner]
    if first and options.first_deal_two == "on":
        base = 2
    elif options.eyes:
        base = (1 if winner == trump_team else 2) + (1 if lost < 30 else 0)
    else:
        base = (1 if won <= 90 else 2) + (0 if winner == trump_team else 1)
    return DealScore(winner, base, eggs=False, goli=won == 120, all_tricks=tricks_won[winner] == 8)
