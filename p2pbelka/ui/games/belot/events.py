"""Belot's own events as the text logs say them, in the player's language; in English the
stable lines scripts read (calls and combinations as the table records them)."""

from __future__ import annotations

from p2pbelka.cards import Suit
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.games.belot.events import BidMade, CardTurned, Claimed, Declared
from p2pbelka.ui.games.belot.reports import result_name
from p2pbelka.ui.games.belot.view import call_name, combination_name
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


def _bid(event: BidMade) -> str:
    # the call as the table says it; "play" names no suit here (the trump follows)
    line = _("seat {seat} calls {call}").format(seat=event.seat, call=call_name(event.call, None))
    if event.declarer is not None:
        trump = suit_name(Suit.parse(event.trump)) if event.trump else "?"
        line += _(": seat {seat} plays, trump {suit}").format(seat=event.declarer, suit=trump)
    if event.void:
        line += _(": all passed twice, the deal is void")
    return line


def _english_bid(event: BidMade) -> str:
    line = f"seat {event.seat} calls {event.call}"
    if event.declarer is not None:
        line += f": seat {event.declarer} plays, trump {event.trump}"
    if event.void:
        line += ": all passed twice, the deal is void"
    return line


def english_line(event: ev.GameEvent) -> str | None:
    """A line for one of Belot's events in the English scripts read."""
    if isinstance(event, CardTurned):
        return f"turned card {event.card}; seat {event.turn} calls first"
    if isinstance(event, BidMade):
        return _english_bid(event)
    if isinstance(event, Declared):
        cards = " ".join(str(c) for c in event.cards)
        return f"seat {event.seat} declares {event.name} ({event.value}): {cards}"
    if isinstance(event, Claimed):
        return f"seat {event.seat} claims 1001 ({event.total})"
    return None


def event_line(event: ev.GameEvent) -> str | None:
    """A line for one of Belot's events (None: an event this version does not know)."""
    if i18n.language() == "en":
        return english_line(event)
    if isinstance(event, CardTurned):
        return _("turned card {card}; seat {seat} calls first").format(
            card=card_label(event.card), seat=event.turn
        )
    if isinstance(event, BidMade):
        return _bid(event)
    if isinstance(event, Declared):
        return _("seat {seat} declares {what} ({value}): {cards}").format(
            seat=event.seat,
            what=combination_name(event.name, event.cards),
            value=event.value,
            cards=" ".join(card_label(c) for c in event.cards),
        )
    if isinstance(event, Claimed):
        return _("seat {seat} claims 1001 ({total})").format(seat=event.seat, total=event.total)
    return None


def summary_line(summary: DealSummary) -> str | None:
    """What a deal of Belot came to: who played which trump, the totals, the result,
    what each side wrote, the score (or that all passed)."""
    if not isinstance(summary, BelotSummary):
        return None
    played = summary.played
    if played is None:
        return _("turned {card}, void (all passed), score {score}").format(
            card=card_label(summary.turned), score=list(summary.score)
        )
    return _(
        "seat {seat} played {suit}, totals {totals}, {result}, written {written}, score {score}"
    ).format(
        seat=played.declarer,
        suit=suit_name(played.trump),
        totals=list(played.totals),
        result=result_name(summary),
        written=list(played.written),
        score=list(summary.score),
    )
