"""The one exception of the rules engine, and the ids of the rules it names."""

from __future__ import annotations

from p2pbelka.cards import Card

# Rule ids: stable strings for logs, transcripts, tests and the referee.
TURN = "turn"
NOT_IN_HAND = "not_in_hand"
ALREADY_PLAYED = "already_played"
HELD_BY_OTHER = "held_by_other"
FOLLOW_SUIT = "follow_suit"
NO_UNLED_ACE_DISCARD = "no_unled_ace_discard"
DEAL_OVER = "deal_over"
HAND_UNKNOWN = "hand_unknown"
REDEAL_AFTER_LEAD = "redeal_after_lead"
REDEAL_NOT_QUALIFIED = "redeal_not_qualified"
BAD_HANDS = "bad_hands"
JC_HOLDER = "jc_holder"
NO_DEAL = "no_deal"
DEAL_IN_PROGRESS = "deal_in_progress"
DEAL_NOT_FINISHED = "deal_not_finished"
DEAL_MISMATCH = "deal_mismatch"
CHOICE_PENDING = "choice_pending"
NO_CHOICE_PENDING = "no_choice_pending"
CHOICE_TEAM = "choice_team"
BAD_CHOICE = "bad_choice"
GAME_OVER = "game_over"
BAD_SEAT = "bad_seat"

# Belot
BID = "bid"
BIDDING = "bidding"
NOT_BIDDING = "not_bidding"
EXTRA_PENDING = "extra_pending"
NO_EXTRA = "no_extra"
BEAT_TRUMP = "beat_trump"
DECLARE_MOMENT = "declare_moment"
NOT_A_COMBINATION = "not_a_combination"
DECLARED_TWICE = "declared_twice"
SEQUENCE_OVERLAP = "sequence_overlap"
CLAIM_MOMENT = "claim_moment"
FALSE_CLAIM = "false_claim"
TURNED_CARD = "turned_card"


class RuleViolation(Exception):
    """An action the rules do not allow.

    Attributes: ``deal`` (0-based deal number in the game), ``trick`` (0-based,
    or None outside play), ``seat``, ``card`` and ``call`` (a bid; None when
    not about one),
    ``rule`` (one of the ids in this module) and ``message`` (for humans; it
    repeats the deal, trick, seat and card).
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        deal: int | None = None,
        trick: int | None = None,
        seat: int | None = None,
        card: Card | None = None,
        call: str | None = None,
    ) -> None:
        self.rule = rule
        self.deal = deal
        self.trick = trick
        self.seat = seat
        self.card = card
        self.call = call
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if trick is not None:
            # Tricks are counted from 1 in every text a player reads (the first trick
            # is trick 1, as on screen); ``self.trick`` stays the index, from 0.
            where.append(f"trick {trick + 1}")
        if seat is not None:
            where.append(f"seat {seat}")
        if card is not None:
            where.append(f"card {card}")
        if call is not None:
            where.append(f"call {call}")
        prefix = ", ".join(where)
        self.message = f"{prefix}: {message} [{rule}]" if prefix else f"{message} [{rule}]"
        super().__init__(self.message)
