"""Belka's own events as the text logs say them, in the player's language; in English the
stable lines scripts read (the trump and the bonus as the table records them)."""

from __future__ import annotations

from p2pbelka.cards import Suit
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka.events import EggsChosen, RedealClaimed, TrumpAnnounced
from p2pbelka.ui.games.belka import words
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


def _choice(choice: str) -> str:
    if choice == "plus4":
        return _("+4 points")
    if choice == "title":
        return _("the title {title}").format(title=words.eggs_title())
    return choice


def english_line(event: ev.GameEvent) -> str | None:
    """A line for one of Belka's events in the English scripts read."""
    if isinstance(event, TrumpAnnounced):
        return f"trump {event.trump} (J♣ with seat {event.holder})"
    if isinstance(event, RedealClaimed):
        return f"seat {event.seat} claims a re-deal: {' '.join(str(c) for c in event.cards)}"
    if isinstance(event, EggsChosen):
        return f"seat {event.seat} chooses {event.choice}"
    return None


def event_line(event: ev.GameEvent) -> str | None:
    """A line for one of Belka's events (None: an event this version does not know)."""
    if i18n.language() == "en":
        return english_line(event)
    if isinstance(event, TrumpAnnounced):
        return _("trump {suit} (J♣ with seat {seat})").format(
            suit=suit_name(Suit.parse(event.trump)), seat=event.holder
        )
    if isinstance(event, RedealClaimed):
        return _("seat {seat} claims a re-deal: {cards}").format(
            seat=event.seat, cards=" ".join(card_label(c) for c in event.cards)
        )
    if isinstance(event, EggsChosen):
        return _("seat {seat} chooses {choice}").format(
            seat=event.seat, choice=_choice(event.choice)
        )
    return None


def summary_line(summary: DealSummary) -> str | None:
    """What a deal of Belka came to: the trump (or the re-deal), the points, the score."""
    if not isinstance(summary, BelkaSummary):
        return None
    if summary.redeal_claim is not None:
        kind = _("re-deal claimed")
    else:
        kind = _("trump {suit}").format(suit=suit_name(summary.trump))
    return _("{kind}, card points {points}, awarded {awarded}, score {score}").format(
        kind=kind,
        points=list(summary.card_points),
        awarded=list(summary.awarded),
        score=list(summary.score),
    )
