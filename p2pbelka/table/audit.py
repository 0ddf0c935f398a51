"""The end-of-deal audit as a table runs it: the deck replayed, then the rules.

``fairdeal`` replays every seat's passes and shares from the revealed seeds
and decodes every position; this module turns positions into hands, checks
what seats announced against them (the J♣, disputes), replays the deal with
every hand known so the rules can charge a renege, and scores the deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from p2pbelka.cards import CARDS, format_cards, from_mask
from p2pbelka.rules.errors import RuleViolation
from p2pbelka.rules.game import DealResult
from p2pbelka.table.dealdeck import DealDeck
from p2pbelka.table.events import Fault

if TYPE_CHECKING:
    from p2pbelka.table.phases import GameFlow

JACK_OF_CLUBS = 4


@dataclass
class DealAudit:
    faults: list[Fault] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def audit_deal(table: GameFlow, deck: DealDeck) -> DealAudit:
    out = DealAudit()
    deal = table.deal_id
    report = deck.audit()
    for f in report.faults:
        what = f"{f.step} check failed" + (
            f" at position {f.position}" if f.position is not None else ""
        )
        out.faults.append(Fault(f.seat, f"{what}: {f.reason}", deal=deal))
    if out.faults or None in report.cards:
        if not out.faults:
            out.faults.append(
                Fault(-1, "the deck does not decode, yet no seat is at fault", deal=deal)
            )
        return out

    hands = [0] * table.n_seats
    for pos, card in enumerate(report.cards):
        assert card is not None
        hands[deck.owners[pos]] |= 1 << card
    holder = next(s for s, h in enumerate(hands) if h >> JACK_OF_CLUBS & 1)
    said = table._trumps.get(holder)
    if said is not None and said.jack is None and said.hand_ok:
        out.faults.append(Fault(holder, "held the J♣ and said it did not", deal=deal))
    if table._dispute:
        # The deck is sound, so every dispute raised by a seat was false.
        for raised in table._dispute:
            if raised.seat >= 0 and not any(f.seat == raised.seat for f in out.faults):
                out.faults.append(Fault(raised.seat, f"false dispute: {raised.what}", deal=deal))
        if not out.faults:
            out.faults.append(Fault(-1, "disputed deal with a sound deck", deal=deal))
        return out
    if out.faults:
        return out

    track = table.track
    assert track is not None
    redeal = table._redeal[0] if table._redeal is not None else None
    try:
        result = track.finish(hands, redeal)
    except RuleViolation as exc:
        seat = exc.seat if exc.seat is not None else -1
        out.faults.append(Fault(seat, f"the audited deal breaks the rules: {exc}", deal=deal))
        return out
    for offense in result.offenses:
        out.faults.append(
            Fault(
                offense.seat,
                f"renege: played {offense.card} in trick {offense.trick + 1} ({offense.rule});"
                " charged by the rules",
                fatal=False,
                deal=deal,
            )
        )
    out.summary = summarize(result, hands)
    return out


def summarize(result: DealResult, hands: list[int]) -> dict[str, Any]:
    """The deal as players read it afterwards (and as ``verify`` prints it)."""
    return {
        "number": result.number,
        "dealer": result.dealer,
        "trump": result.trump.letter,
        "trump_team": result.trump_team,
        "hands": [format_cards(from_mask(h)) for h in hands],
        "redeal_claim": result.redeal_claim,
        "tricks": [
            {"leader": t.leader, "cards": format_cards(t.cards), "winner": t.winner}
            for t in result.tricks
        ],
        "card_points": list(result.card_points),
        "awarded": list(result.awarded),
        "score": list(result.score),
        "offenses": [f"seat {o.seat}: {o.rule} with {o.card}" for o in result.offenses],
        "notes": list(result.notes),
        "cards_checked": len(result.plays) or len(CARDS),
    }
