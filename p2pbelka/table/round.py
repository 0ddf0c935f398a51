"""The deal in progress, as one record: what the table has seen of it so far.

A table makes a new ``DealRound`` for each deal (re-deals included), so
nothing of one deal can leak into the next, and the end-of-deal audit takes
this one record as its input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.table.dealdeck import DealDeck
from p2pbelka.table.events import Fault


@dataclass
class DealRound:
    deal_id: int
    deck: DealDeck
    my_hand: dict[int, int] = field(default_factory=dict)
    """This seat's hand: deck position -> card index (empty until it opens)."""
    disputes: list[Fault] = field(default_factory=list)
    """Problems no seat can be blamed for yet (a position that does not open): the
    deal skips to the reveal and the audit decides."""
    played: set[int] = field(default_factory=set)
    """Positions played to a trick."""
    public_cards: dict[int, int] = field(default_factory=dict)
    """Card index -> the seat that showed it, for every card opened to all."""
    shown_twice: int | None = None
    """The position of this seat's hand whose card another seat showed (the deck is
    unsound): this seat shows it in its next play, so every table sees the card twice
    (``flow.note_shown_twice``).  None while no such card was shown."""

    def my_mask(self) -> int:
        mask = 0
        for card in self.my_hand.values():
            mask |= 1 << card
        return mask

    def position_of(self, card: int) -> int | None:
        return next((pos for pos, c in self.my_hand.items() if c == card), None)
