"""Seats, sides and cards as the text logs name them for a person: a seat by its
player's name (its number in brackets only where two seats share a name), a side by
its players' names, cards as the screen writes them (``cardnames.card_label``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2pbelka.cards import Card
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.i18n import _


def who(seat: int | None, names: Sequence[str]) -> str:
    """A seat by its player's name; "Asel (seat 2)" where another seat is named so too,
    "seat 2" where the name is not known."""
    if seat is None:
        return "?"
    if not 0 <= seat < len(names):
        return _("seat {seat}").format(seat=seat)
    name = names[seat]
    if list(names).count(name) > 1:
        return _("{name} (seat {seat})").format(name=name, seat=seat)
    return name


def side(index: int, names: Sequence[str], sides: int) -> str:
    """Side ``index`` of ``sides``: one seat where each plays for oneself, else the pair
    of partners opposite each other ("Asel & Saule")."""
    if sides >= len(names):
        return who(index, names)
    partners = range(index, len(names), sides)
    return _("{a} & {b}").format(a=who(partners[0], names), b=who(partners[-1], names))


def by_side(values: Sequence[int], names: Sequence[str]) -> str:
    """Figures by seat or by side, each with its name: "Asel & Saule 72, Bolat & Nurlan 48"."""
    return ", ".join(
        _("{side} {points}").format(side=side(i, names, len(values)), points=v)
        for i, v in enumerate(values)
    )


def seats_line(names: Sequence[str]) -> str:
    """Every seat in play order, by name with its number: "Asel (seat 0), Bolat (seat 1)"."""
    return ", ".join(_("{name} (seat {seat})").format(name=n, seat=i) for i, n in enumerate(names))


def cards_line(cards: Iterable[Card]) -> str:
    return " ".join(card_label(c) for c in cards)
