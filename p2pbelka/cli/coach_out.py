"""``p2pbelka replay --coach``: the coach's advice on one seat's plays, printed.

The game's coach comes from the bots' registry by the game's name
(:func:`p2pbelka.bots.registry.coach`), so this names no game.
"""

from __future__ import annotations

import sys

from p2pbelka.bots.common.coach import WORLDS, coach_game
from p2pbelka.bots.registry import coach
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.registry import DEFAULT
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui.words.coach import advice_line, coach_heading, coach_summary
from p2pbelka.ui.words.i18n import _


def print_coaching(
    report: VerifyReport, seat: int, threshold: float | None, seed: int, worlds: int | None = None
) -> int:
    """Print the coach's lines for ``seat`` of the verified game; the exit status."""
    worlds = WORLDS if worlds is None else worlds
    name = report.game_name or DEFAULT
    seats = len(report.names)
    if not 0 <= seat < seats:
        print(
            "p2pbelka replay: "
            + _("--seat {seat}: the game has seats 0 to {last}").format(seat=seat, last=seats - 1),
            file=sys.stderr,
        )
        return 2
    if threshold is not None and threshold < 0:
        print("p2pbelka replay: " + _("--threshold must be 0 or more"), file=sys.stderr)
        return 2
    if worlds < 2:
        print("p2pbelka replay: " + _("--worlds must be 2 or more"), file=sys.stderr)
        return 2
    try:
        found = coach(name)
    except ValueError as exc:
        print(f"p2pbelka replay: {exc}", file=sys.stderr)
        return 2
    if report.game is None or not report.deals:
        print("p2pbelka replay: " + _("no deal was finished in this game: nothing to show"))
        return 0 if report.ok else 1
    limit = found.threshold if threshold is None else threshold
    try:
        coaching = coach_game(found, report.game, seat, limit, worlds, seed)
    except (ValueError, RuleViolation) as exc:  # a game the rules replayed, read otherwise
        print("p2pbelka replay: " + _("the coach cannot read this game: {why}").format(why=exc))
        return 1
    print(coach_heading(seat, report.names, limit, found.unit, worlds))
    for advice in coaching.advice:
        print(advice_line(advice, found))
    print(coach_summary(len(coaching.advice), coaching.decisions))
    return 0 if report.ok else 1
