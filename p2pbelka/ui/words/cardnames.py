"""Words for cards, suits, seats and teams in the screen's language."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from p2pbelka.cards import Card, Suit
from p2pbelka.ui.words.i18n import _, pgettext

if TYPE_CHECKING:
    # an annotation only: a text or bot seat's words never load prompt_toolkit
    from prompt_toolkit.formatted_text import StyleAndTextTuples

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


def fit(text: str, width: int) -> str:
    """``text`` as it fits in ``width`` columns: whole, or cut with a mark (…) that
    says so, never silently."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def seat_name(seat: int, names: list[str]) -> str:
    """A seat's name, cut to fit the screen's columns."""
    name = names[seat] if 0 <= seat < len(names) else f"#{seat}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


_SEAT_NUMBER = re.compile(r"\bseat (\d)\b")


def name_seats(text: str, names: list[str]) -> str:
    """A note of the rules ("seat 1 asked for a re-deal") with the seat's name in it."""
    return _SEAT_NUMBER.sub(lambda m: seat_name(int(m.group(1)), names), text)


# a card or a suit of hearts or diamonds in running text: "10♥", "Q♦", "♥"
_RED = re.compile(r"[^\s♥♦♣♠:;,.()\[\]]{0,2}[♥♦]")
RED_STYLE = "class:suit.red"


def red_suits(fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """The same text with every ♥ and ♦ card or suit drawn red (♣ ♠ keep their colour)."""
    out: StyleAndTextTuples = []
    for fragment in fragments:
        style, text = fragment[0], fragment[1]
        rest = fragment[2:]
        at = 0
        for match in _RED.finditer(text):
            if match.start() > at:
                out.append((style, text[at : match.start()], *rest))
            out.append((f"{style} {RED_STYLE}".strip(), match.group(), *rest))
            at = match.end()
        if at < len(text):
            out.append((style, text[at:], *rest) if at else fragment)
    return out
