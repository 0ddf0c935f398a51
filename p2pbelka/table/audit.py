"""The end-of-deal audit as a table runs it: the deck replayed, then the rules.

``fairdeal`` replays every seat's passes and shares from the revealed seeds
and decodes every position; this module turns positions into hands, lets the
game check what seats announced against them, settles the disputes, and has
the game replay the deal with every hand known (a renege becomes a charged
offense) and score it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pbelka.fairdeal.audit import Fault as DeckCheck
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table.events import Fault
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack, Settlement


@dataclass
class DealAudit:
    faults: list[Fault] = field(default_factory=list)
    summary: DealSummary | None = None
    cancelled: list[Fault] = field(default_factory=list)
    """``verify --every-pass``: passes off their seeds that changed no card (the deal
    stands, as every seat accepted it; each is still a proven fault)."""


def _check_failed(f: DeckCheck, deal: int) -> Fault:
    where = f" at position {f.position}" if f.position is not None else ""
    return Fault(f.seat, f"{f.step} check failed{where}: {f.reason}", deal=deal)


Settle = Callable[[list[int]], Settlement]
"""Score a deal from every position's card (for a game whose hands are not simply
each seat's positions, such as Belot's first six, turned card, three more and stock)."""


def audit_deal(rnd: DealRound, track: GameTrack, settle: Settle | None = None) -> DealAudit:
    out = DealAudit()
    deal, deck = rnd.deal_id, rnd.deck
    report = deck.audit()
    for f in report.faults:
        out.faults.append(_check_failed(f, deal))
    out.cancelled = [_check_failed(f, deal) for f in report.cancelled]
    if out.faults or None in report.cards:
        if not out.faults:
            what = "the deck does not decode, yet no seat is at fault"
            out.faults.append(Fault(-1, what, deal=deal, proven=False))
        return out

    cards = [card for card in report.cards if card is not None]
    hands = [0] * track.n_seats
    for pos, card in enumerate(cards):
        if deck.owners[pos] >= 0:  # a position dealt to nobody (Belot's stock) is no hand
            hands[deck.owners[pos]] |= 1 << card
    out.faults += track.check_announcements(hands, deal)
    if rnd.disputes:
        # The deck is sound, so every dispute raised by a seat was false.
        for raised in rnd.disputes:
            if raised.seat >= 0 and not any(f.seat == raised.seat for f in out.faults):
                out.faults.append(Fault(raised.seat, f"false dispute: {raised.what}", deal=deal))
        if not out.faults:
            what = "disputed deal with a sound deck"
            out.faults.append(Fault(-1, what, deal=deal, proven=False))
        return out
    if out.faults:
        return out
    settled = track.settle(hands, deal) if settle is None else settle(cards)
    out.faults += settled.faults
    out.summary = settled.summary
    return out
