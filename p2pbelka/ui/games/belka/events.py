"""Belka's own events as the text logs say them, in the player's language."""

from __future__ import annotations

from p2pbelka.cards import Suit
from p2pbelka.table import events as ev
from p2pbelka.table.belka_events import EggsChosen, RedealClaimed, TrumpAnnounced
from p2pbelka.ui.games.belka import words
from p2pbelka.ui.i18n import _
from p2pbelka.ui.text import suit_name


def _choice(choice: str) -> str:
    if choice == "plus4":
        return _("+4 points")
    if choice == "title":
        return _("the title {title}").format(title=words.eggs_title())
    return choice


def event_line(event: ev.GameEvent) -> str | None:
    """A line for one of Belka's events (None: an event this version does not know)."""
    if isinstance(event, TrumpAnnounced):
        return _("trump {suit} (J♣ with seat {seat})").format(
            suit=suit_name(Suit.parse(event.trump)), seat=event.holder
        )
    if isinstance(event, RedealClaimed):
        return _("seat {seat} claims a re-deal: {cards}").format(
            seat=event.seat, cards=" ".join(str(c) for c in event.cards)
        )
    if isinstance(event, EggsChosen):
        return _("seat {seat} chooses {choice}").format(
            seat=event.seat, choice=_choice(event.choice)
        )
    return None
