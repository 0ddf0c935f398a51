"""The coach on the page at a deal's end (``play``/``host``/``join --coach``): which of
the player's decisions in the deal just ended cost the most, judged from what the
player knew then (:mod:`p2pbelka.bots.common.coach`), any game's.

The grading takes a second or two a deal; the screen's front end runs it in a worker
thread once the deal is audited (:func:`deal_coaching`) and keeps the lines by deal
(:class:`Coaching`), and the page shows them under the deal's report
(:func:`coach_fragments`), or that they are coming.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.ui.words.i18n import _


class Coaching:
    """The coach's lines for each deal of a game (None while a deal is being graded)."""

    def __init__(self) -> None:
        self.on = False
        """The player asked for the coach (``--coach``)."""
        self.worlds: int | None = None
        """The deals drawn to grade each decision (``--coach-worlds``; None: the coach's
        own number)."""
        self.lines: dict[int, list[str] | None] = {}


def deal_coaching(
    game_name: str, game: Any, seat: int, deal: int, worlds: int | None = None
) -> list[str]:
    """The lines on ``seat``'s decisions in ``deal`` of ``game`` (the table's rules state,
    the deal audited): a heading and one line a flagged decision, or one line that none
    was; one line saying why not for a game without a coach, or one it cannot read.
    ``worlds``: the deals drawn to grade each decision (None: the coach's own number)."""
    # the bots load only when the coach is asked for: a screen without it never needs them
    from p2pbelka.bots.common.coach import coach_game
    from p2pbelka.bots.registry import coach
    from p2pbelka.ui.words.coach import advice_line, unit_words

    try:
        found = coach(game_name)
        drawn = {} if worlds is None else {"worlds": worlds}
        coaching = coach_game(found, game, seat, deal=deal, **drawn)
    except (ValueError, RuleViolation) as exc:
        return [_("the coach cannot read this game: {why}").format(why=exc)]
    limit = f"{found.threshold:g}"
    unit = unit_words(found.unit)
    if not coaching.advice:
        return [
            _("None of your decisions in this deal cost more than {threshold} {unit}.").format(
                threshold=limit, unit=unit
            )
        ]
    heading = _("Your decisions that cost more than {threshold} {unit}:").format(
        threshold=limit, unit=unit
    )
    return [heading, *(advice_line(advice, found) for advice in coaching.advice)]


def coach_fragments(coaching: Coaching, deal: int) -> StyleAndTextTuples:
    """The coach's part of a deal's page: nothing unless asked for."""
    if not coaching.on:
        return []
    lines = coaching.lines.get(deal)
    out: StyleAndTextTuples = [("", "\n"), ("class:heading", _("Coach") + "\n")]
    if lines is None:
        return [*out, ("class:hint", _("grading your decisions in this deal…") + "\n")]
    return [*out, *(("", line + "\n") for line in lines)]
