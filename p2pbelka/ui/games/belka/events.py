"""Belka's own events as the text logs say them, in the player's language (English
included: scripts read ``--json``), its seats by name."""

from __future__ import annotations

from collections.abc import Sequence

from p2pbelka.cards import Suit
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka.events import EggsChosen, RedealClaimed, TrumpAnnounced
from p2pbelka.ui.games.belka import words
from p2pbelka.ui.words.cardnames import suit_name
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.seatnames import by_side, cards_line, who


def _choice(choice: str) -> str:
    if choice == "plus4":
        return _("+4 points")
    if choice == "title":
        return _("the title {title}").format(title=words.eggs_title())
    return choice


def event_line(event: ev.GameEvent, names: Sequence[str]) -> str | None:
    """A line for one of Belka's events (None: an event this version does not know),
    its seats by name and its cards as the screen writes them."""
    if isinstance(event, TrumpAnnounced):
        return _("trump {suit} ({name} holds the J♣)").format(
            suit=suit_name(Suit.parse(event.trump)), name=who(event.holder, names)
        )
    if isinstance(event, RedealClaimed):
        return _("{name} claims a re-deal: {cards}").format(
            name=who(event.seat, names), cards=cards_line(event.cards)
        )
    if isinstance(event, EggsChosen):
        return _("{name} chooses {choice}").format(
            name=who(event.seat, names), choice=_choice(event.choice)
        )
    return None


def summary_line(summary: DealSummary, names: Sequence[str]) -> str | None:
    """What a deal of Belka came to in words: the trump (or who claimed the re-deal),
    each pair's card points, what they were awarded, the score."""
    if not isinstance(summary, BelkaSummary):
        return None
    score = by_side(summary.score, names)
    if summary.redeal_claim is not None:
        return _("re-deal claimed by {name}; score: {score}").format(
            name=who(summary.redeal_claim, names), score=score
        )
    return _("trump {suit}; card points: {points}; awarded: {awarded}; score: {score}").format(
        suit=suit_name(summary.trump),
        points=by_side(summary.card_points, names),
        awarded=by_side(summary.awarded, names),
        score=score,
    )
