"""Words for cards, suits, seats and teams in the screen's language."""

from __future__ import annotations

from p2pbelka.cards import Card, Suit
from p2pbelka.ui.i18n import _, pgettext

RED_SUITS = (Suit.DIAMONDS, Suit.HEARTS)


def rank_label(card: Card) -> str:
    # The ten is written 10 on screen (T is only the record notation).
    labels = (
        "7",
        "8",
        "9",
        "10",
        pgettext("rank", "J"),
        pgettext("rank", "Q"),
        pgettext("rank", "K"),
        pgettext("rank", "A"),
    )
    return labels[int(card.rank)]


def card_label(card: Card) -> str:
    return rank_label(card) + card.suit.symbol


def is_red(card: Card) -> bool:
    return card.suit in RED_SUITS


def suit_name(suit: Suit | None) -> str:
    if suit is None:
        return "?"
    names = (_("clubs"), _("diamonds"), _("hearts"), _("spades"))
    return f"{suit.symbol} {names[int(suit)]}"


NAME_WIDTH = 14


def seat_name(seat: int, names: list[str]) -> str:
    """A seat's name, cut to fit the screen's columns."""
    name = names[seat] if 0 <= seat < len(names) else f"#{seat}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def team_name(team: int, names: list[str]) -> str:
    """A pair by its players' names: seats 0 and 2 are team 0, 1 and 3 team 1."""
    return _("{a} & {b}").format(a=seat_name(team, names), b=seat_name(team + 2, names))
