"""Why Belot refuses a card, in the player's words: the rules name the rule
(``DealState.refusal``), this says what the trick asks for (a led trump must be
beaten when the hand can)."""

from __future__ import annotations

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.common import errors as E
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


def cannot_play(view: BelotView, card: Card) -> str:
    label = card_label(card)
    deal = view.deal
    rule = deal.refusal(view.me, card) if deal is not None else None
    if deal is None or rule is None or not deal.trick:
        return _("{card} cannot be played now: follow the suit led, and beat a led trump.").format(
            card=label
        )
    top = deal.top_trump
    if rule == E.BEAT_TRUMP and top is not None:
        return _("{card} cannot be played now: a trump was led, beat the {top} if you can.").format(
            card=label, top=card_label(top)
        )
    led = Card.from_index(deal.trick[0]).suit
    if led == deal.trump:
        return _("{card} cannot be played now: a trump was led, play a trump.").format(card=label)
    return _("{card} cannot be played now: {suit} were led, play {suit}.").format(
        card=label, suit=suit_name(Suit(led))
    )
