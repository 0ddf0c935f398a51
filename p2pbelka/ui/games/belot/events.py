"""Belot's own events as the text logs say them, in the player's language (English
included: scripts read ``--json``), its seats by name."""

from __future__ import annotations

from collections.abc import Sequence

from p2pbelka.cards import Suit
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.games.belot.events import BidMade, CardTurned, Claimed, Declared
from p2pbelka.ui.games.belot.view import call_name, combination_name, result_name
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.seatnames import by_side, cards_line, who


def _bid(event: BidMade, names: Sequence[str]) -> str:
    # the call as the table says it; "play" names no suit here (the trump follows)
    line = _("{name} calls {call}").format(
        name=who(event.seat, names), call=call_name(event.call, None)
    )
    if event.declarer is not None:
        trump = suit_name(Suit.parse(event.trump)) if event.trump else "?"
        line += _(": {name} plays, trump {suit}").format(
            name=who(event.declarer, names), suit=trump
        )
    if event.void:
        line += _(": all passed twice, the deal is void")
    return line


def event_line(event: ev.GameEvent, names: Sequence[str]) -> str | None:
    """A line for one of Belot's events (None: an event this version does not know),
    its seats by name and its cards as the screen writes them."""
    if isinstance(event, CardTurned):
        return _("turned card {card}; {name} calls first").format(
            card=card_label(event.card), name=who(event.turn, names)
        )
    if isinstance(event, BidMade):
        return _bid(event, names)
    if isinstance(event, Declared):
        return _("{name} declares {what} ({value}): {cards}").format(
            name=who(event.seat, names),
            what=combination_name(event.name, event.cards),
            value=event.value,
            cards=cards_line(event.cards),
        )
    if isinstance(event, Claimed):
        return _("{name} claims 1001 ({total})").format(
            name=who(event.seat, names), total=event.total
        )
    return None


def summary_line(summary: DealSummary, names: Sequence[str]) -> str | None:
    """What a deal of Belot came to in words: who played which trump and how it went,
    each side's totals and what it wrote, the score (or that all passed)."""
    if not isinstance(summary, BelotSummary):
        return None
    played = summary.played
    score = by_side(summary.score, names)
    if played is None:
        return _("turned {card}, all passed: void; score: {score}").format(
            card=card_label(summary.turned), score=score
        )
    return _(
        "{name} played {suit}: {result}; totals: {totals}; written: {written}; score: {score}"
    ).format(
        name=who(played.declarer, names),
        suit=suit_name(played.trump),
        result=result_name(summary),
        totals=by_side(played.totals, names),
        written=by_side(played.written, names),
        score=score,
    )
