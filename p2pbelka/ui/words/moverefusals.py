"""A move the rules refused, in the player's language: worded by its rule id and the
deal, trick, seat, card and call the refusal carries (``deal 0, trick 3, seat 1,
card 7♣: … [rule]``).  The rules engine words it in English and knows no language; in
English its words are shown unchanged.  A game's own refusals of a chosen card are its
screen's (``ui/games/<game>/refusals.py``).
"""

from __future__ import annotations

import re

from p2pbelka.rules.common import errors as rule
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.i18n import N_, _

RULE_WORDS: dict[str, str] = {
    rule.TURN: N_("it is not this seat's turn"),
    rule.NOT_IN_HAND: N_("the card is not in this seat's hand"),
    rule.ALREADY_PLAYED: N_("the card was already played"),
    rule.HELD_BY_OTHER: N_("the card is in another seat's hand"),
    rule.FOLLOW_SUIT: N_("the suit led had to be followed"),
    rule.BEAT_TRUMP: N_("a led trump had to be beaten with a higher trump"),
    rule.NO_UNLED_ACE_DISCARD: N_("an ace of a suit not yet led may not be thrown off"),
    rule.DEAL_OVER: N_("the deal is already over"),
    rule.HAND_UNKNOWN: N_("the hand is not known here"),
    rule.REDEAL_AFTER_LEAD: N_("a re-deal can only be claimed before the first card"),
    rule.REDEAL_NOT_QUALIFIED: N_("this hand does not allow a re-deal"),
    rule.BAD_HANDS: N_("the hands do not make a deck"),
    rule.JC_HOLDER: N_("the holder of the J♣ is wrong"),
    rule.NO_DEAL: N_("no deal is in progress"),
    rule.DEAL_IN_PROGRESS: N_("the current deal is not finished"),
    rule.DEAL_NOT_FINISHED: N_("the deal is not finished"),
    rule.DEAL_MISMATCH: N_("the deal does not match this game"),
    rule.CHOICE_PENDING: N_("a choice after the eggs is still due"),
    rule.NO_CHOICE_PENDING: N_("nobody has to choose now"),
    rule.CHOICE_TEAM: N_("the other pair chooses"),
    rule.BAD_CHOICE: N_("that is not a choice the rules offer"),
    rule.GAME_OVER: N_("the game is already won"),
    rule.BAD_SEAT: N_("there is no such seat"),
    rule.BID: N_("that call is not allowed now"),
    rule.BIDDING: N_("the bidding is not over"),
    rule.NOT_BIDDING: N_("the bidding is over"),
    rule.EXTRA_PENDING: N_("the three more cards are not dealt yet"),
    rule.NO_EXTRA: N_("no more cards are dealt now"),
    rule.DECLARE_MOMENT: N_("combinations are declared only on one's own lead, before the card"),
    rule.NOT_A_COMBINATION: N_("that is not a combination in this hand"),
    rule.DECLARED_TWICE: N_("the combination was declared twice"),
    rule.SEQUENCE_OVERLAP: N_("the sequences share a card"),
    rule.CLAIM_MOMENT: N_("1001 is claimed only right after taking a trick"),
    rule.FALSE_CLAIM: N_("1001 was claimed without the points"),
    rule.TURNED_CARD: N_("the turned card is wrong"),
}

_VIOLATION = re.compile(
    r"^(?:(?P<where>(?:deal|trick|seat|card|call) .*?): )?.* \[(?P<rule>\w+)\]$"
)
_WHERE = {
    "deal": N_("deal {n}"),
    "trick": N_("trick {n}"),
    "seat": N_("seat {n}"),
    "card": N_("card {n}"),
    "call": N_("call {n}"),
}


def rule_words(rule_id: str, english: str) -> str:
    """What rule ``rule_id`` asks, in the player's language (``english`` if unknown)."""
    found = RULE_WORDS.get(rule_id)
    return _(found) if found else english


def violation_words(text: str) -> str:
    """A refusal as the engine words it (``deal 0, trick 3, seat 1, card 7♣: … [rule]``)
    in the player's language: where it happened, what the rule asks, the rule's id."""
    found = _VIOLATION.match(text)
    if i18n.language() == "en" or found is None or found["rule"] not in RULE_WORDS:
        return text
    where = []
    for part in (found["where"] or "").split(", "):
        word, _sep, value = part.partition(" ")
        if word in _WHERE and value:
            where.append(_(_WHERE[word]).format(n=value))
    said = rule_words(found["rule"], text)
    return f"{', '.join(where)}: {said} [{found['rule']}]" if where else f"{said} [{found['rule']}]"
