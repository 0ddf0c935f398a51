"""Why Belka refuses a card, in the player's words: the rules name the rule
(``DealState.refusal``), this says what the trick asks for.  A led jack asks for
trumps, so "follow the suit led" would send a player holding a club of the jack's
suit astray."""

from __future__ import annotations

from p2pbelka.cards import Card
from p2pbelka.rules.common import errors as E
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


def cannot_play(view: BelkaView, card: Card) -> str:
    label = card_label(card)
    deal = view.state.deal if view.state is not None else None
    rule = deal.refusal(view.me, card) if deal is not None else None
    if deal is None or rule is None:
        return _("{card} cannot be played now: follow the suit led.").format(card=label)
    if rule == E.NO_UNLED_ACE_DISCARD:
        return _(
            "{card} cannot be played now: an ace of a suit not yet led is not thrown off "
            "while you hold another card."
        ).format(card=label)
    led = deal.led_suit
    if led is None or led == deal.trump:
        return _(
            "{card} cannot be played now: a trump was led (the jacks are trumps), play a trump."
        ).format(card=label)
    return _(
        "{card} cannot be played now: {suit} were led, play {suit} (the jacks are trumps)."
    ).format(card=label, suit=suit_name(led))
