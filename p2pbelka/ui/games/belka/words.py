"""Belka's pairs in words: seats 0 and 2 against 1 and 3, partners opposite."""

from __future__ import annotations

from p2pbelka.ui.i18n import _
from p2pbelka.ui.text import seat_name


def team_name(team: int, names: list[str]) -> str:
    """A pair by its players' names: seats 0 and 2 are team 0, 1 and 3 team 1."""
    return _("{a} & {b}").format(a=seat_name(team, names), b=seat_name(team + 2, names))


def sides(me: int, names: list[str]) -> str:
    """The two pairs as players say it: "you and Saule against Bolat and Nurlan"."""
    partner, left, right = (me + 2) % 4, (me + 1) % 4, (me + 3) % 4
    return _("{me} and {partner} against {left} and {right}").format(
        me=_("you"),
        partner=seat_name(partner, names),
        left=seat_name(left, names),
        right=seat_name(right, names),
    )


def eggs_title() -> str:
    """The title after 60:60, as the language spells it (Kazakh: «Жұмыртқа»)."""
    return _("Жумыртка")
