"""What one Belot seat knows, on plain ints, read from that seat's view only.

:class:`Known` is built by :func:`known_from` from a ``BelotGame`` whose deal is
``DealState.view(seat)``: the seat's own hand, the turned card (in the stock,
never in a hand), every call, declaration and card so far and who made it, and
what follows from them about the hidden hands: a seat that did not follow the
led suit holds none of it; a seat that played a trump under the top trump of a
trump trick holds none above it; declared cards not yet played are in their
owner's hand.  The policy and the sampler read nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import FULL_MASK, SUIT_MASKS
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.game import BelotGame


@dataclass(slots=True)
class Known:
    """One seat's knowledge of the deal in progress (and of the game around it).

    ``hand``: the seat's cards now; ``played``: every card played, the current
    trick included; ``trick``: its cards, led by ``leader``; ``excluded[s]``:
    cards seat ``s`` cannot hold; ``shown[s]``: declared cards ``s`` still
    holds; ``counts[s]``: cards ``s`` holds now (6 during bidding, before the
    three more); ``points``: card points per seat; ``took``: bit per seat that
    took a trick; ``declared``: ``(seat, kind, value, key, mask)`` in order;
    ``led[s]``: whether ``s`` has had a lead in this deal (its moment to
    declare); ``scores``: written scores before this deal; ``hanging``: points
    hanging; ``trump`` is -1 during bidding.
    """

    seat: int
    players: int
    dealer: int
    turned: int
    trump: int
    declarer: int
    hand: int
    played: int
    trick: list[int]
    leader: int
    tricks: int
    excluded: list[int]
    shown: list[int]
    counts: list[int]
    points: list[int]
    took: int
    declared: list[tuple[int, int, int, int, int]]
    led: int
    scores: tuple[int, ...]
    hanging: int
    fours: tuple[int, ...]
    bids: tuple[str, ...]
    played_by: tuple[int, ...] = ()
    """Per seat, the cards it played in this deal (empty: not read)."""
    before_lead: tuple[int, ...] = ()
    """Per seat, the cards it played before its first lead (its moment to declare)."""

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in another hand or in the stock (the turned card aside)."""
        mask = FULL_MASK & ~self.hand & ~self.played & ~(1 << self.turned)
        for s in range(self.players):
            if s != self.seat:
                mask &= ~self.shown[s]
        return mask

    @property
    def outside(self) -> int:
        """Cards that may be in another seat's hand (the stock's unknown cards included)."""
        return FULL_MASK & ~self.hand & ~self.played & ~(1 << self.turned)


def known_from(game: BelotGame, seat: int) -> Known:
    """Read what ``seat`` knows from ``game`` (its deal as the seat's view)."""
    deal = game.deal
    if deal is None:
        raise ValueError("no deal in progress")
    hand = deal.hands[seat]
    if hand is None:
        raise ValueError(f"the state does not hold seat {seat}'s hand")
    n = deal.players
    trump = -1 if deal.trump is None else int(deal.trump)
    excluded = [0] * n
    shown = [0] * n
    counts = [9 if deal.extra is not None else 6] * n
    played = 0
    played_by = [0] * n
    tricks = [(t.leader, [c.index for c in t.cards]) for t in deal.tricks]
    if deal.trick:
        tricks.append((deal.leader, list(deal.trick)))
    led = 0
    before_lead = [0] * n
    for leader, cards in tricks:
        led |= 1 << leader
        for offset, card in enumerate(cards):
            if not led >> ((leader + offset) % n) & 1:
                before_lead[(leader + offset) % n] |= 1 << card
        suit = cards[0] >> 3
        top = cards[0] if suit == trump else -1
        for offset, card in enumerate(cards):
            s = (leader + offset) % n
            counts[s] -= 1
            played |= 1 << card
            played_by[s] |= 1 << card
            if card >> 3 != suit:
                excluded[s] |= SUIT_MASKS[suit]
            elif top >= 0 and offset > 0:
                if core.TRUMP_ORDER[card & 7] < core.TRUMP_ORDER[top & 7]:
                    # Under-trumped: held nothing that beats the top trump.
                    excluded[s] |= core.ABOVE_TRUMP[top]
                else:
                    top = card
    if deal.phase == "play" and not deal.trick:
        led |= 1 << deal.leader
    declared = []
    for d in deal.declarations:
        declared.append((d.seat, d.kind, d.value, d.key, d.mask))
        shown[d.seat] |= d.mask & ~played
    return Known(
        seat=seat,
        players=n,
        dealer=deal.dealer,
        turned=deal.turned.index,
        trump=trump,
        declarer=-1 if deal.declarer is None else deal.declarer,
        hand=hand,
        played=played,
        trick=list(deal.trick),
        leader=deal.leader,
        tricks=len(deal.tricks),
        excluded=excluded,
        shown=shown,
        counts=counts,
        points=list(deal.card_points),
        took=deal.took_trick,
        declared=declared,
        led=led,
        scores=tuple(deal.scores),
        hanging=game.hanging_total,
        fours=deal.options.fours,
        bids=deal.bids,
        played_by=tuple(played_by),
        before_lead=tuple(before_lead),
    )
