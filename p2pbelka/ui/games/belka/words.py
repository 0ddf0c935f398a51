"""Belka's pairs in words: seats 0 and 2 against 1 and 3, partners opposite."""

from __future__ import annotations

import re

from p2pbelka.ui.words.cardnames import name_seats, seat_name
from p2pbelka.ui.words.i18n import N_, _

COACH_MOVES = (N_("playing the hand"), N_("a re-deal"), N_("+4 points"), N_("the title"))
"""The coach's words for Belka's choices between deals (``bots/belka/coach.py``'s
``MOVE_WORDS``), put in the catalogue here: the advice is worded by the shared words."""


def team_name(team: int, names: list[str]) -> str:
    """A pair by its players' names: seats 0 and 2 are team 0, 1 and 3 team 1."""
    return _("{a} & {b}").format(a=seat_name(team, names), b=seat_name(team + 2, names))


def sides(me: int, names: list[str], watching: bool = False) -> str:
    """The two pairs as players say it: "you and Saule against Bolat and Nurlan" (a
    watcher's: "Asel and Saule against…")."""
    partner, left, right = (me + 2) % 4, (me + 1) % 4, (me + 3) % 4
    return _("{me} and {partner} against {left} and {right}").format(
        me=seat_name(me, names) if watching else _("you"),
        partner=seat_name(partner, names),
        left=seat_name(left, names),
        right=seat_name(right, names),
    )


def eggs_title() -> str:
    """The title after 60:60, as the language spells it (Kazakh: «Жұмыртқа»)."""
    return _("Жумыртка")


_REDEAL = re.compile(r"seat (\d) asked for a re-deal")
_THREE_EYES = re.compile(r"three re-deals in a row: one eye against the dealing team (\d)")
_THREE_POINT = re.compile(
    r"three re-deals in a row: one point to team (\d), the dealing team (\d) is charged"
)
_NEW_GAME = re.compile(r"team (\d) wins a game; a new one starts at 0:0")


def note_words(note: str, names: list[str]) -> str:
    """A note of Belka's rules on a deal (English, from the engine) in the player's
    language, seats and teams by name; a note not known here keeps its words."""
    fixed = {
        "60:60, eggs": _("60:60, eggs"),
        "goli: all 120 card points": _("goli: all 120 card points"),
        "all eight tricks": _("all eight tricks"),
    }
    if note in fixed:
        return fixed[note]
    if m := _REDEAL.fullmatch(note):
        return _("{name} asked for a re-deal").format(name=seat_name(int(m[1]), names))
    if m := _THREE_EYES.fullmatch(note):
        return _("three re-deals in a row: one eye against the dealers, {team}").format(
            team=team_name(int(m[1]), names)
        )
    if m := _THREE_POINT.fullmatch(note):
        return _("three re-deals in a row: one point to {team}, charged to the dealers").format(
            team=team_name(int(m[1]), names)
        )
    if m := _NEW_GAME.fullmatch(note):
        return _("{team} win a game; a new one starts at 0:0").format(
            team=team_name(int(m[1]), names)
        )
    return name_seats(note, names)
