"""What one seat knows about a deal, on plain ints, read from the seat's view only.

:class:`Seen` is built from ``DealState.view(seat)``: the seat's own hand, every
card played and who played it, the voids each seat has shown (a seat that did
not follow the led suit has none of it left), the suits each seat chose to lead,
and the announced J♣ holder.  The heuristic policy and the sampler of hidden
hands read nothing else, so a bot cannot see a hand it was not shown.

Also here: the card orders per trump that the policy and the solver share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2pbelka.cards import FULL_MASK
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import DealState


def _order(trump: int, suit: int) -> tuple[int, ...]:
    cards = [c for c in range(32) if core.EFFECTIVE_SUIT[trump][c] == suit]
    return tuple(sorted(cards, key=lambda c: -core.POWER[trump][suit][c]))


ORDER: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(_order(t, s) for s in range(4)) for t in range(4)
)
"""``[trump][effective suit]``: the suit's cards, strongest first."""


def top_card(mask: int, trump: int, suit: int) -> int:
    """The strongest card of ``mask`` in effective ``suit``, or -1."""
    for c in ORDER[trump][suit]:
        if mask >> c & 1:
            return c
    return -1


def low_card(mask: int, trump: int, suit: int) -> int:
    """The weakest card of ``mask`` in effective ``suit``, or -1."""
    for c in reversed(ORDER[trump][suit]):
        if mask >> c & 1:
            return c
    return -1


@dataclass(slots=True)
class Seen:
    """One seat's knowledge of the deal in progress.

    ``hand``: the seat's cards now; ``played``: every card played, the current
    trick included; ``trick``: the current trick's cards, ``leader``: who led
    it; ``voids[s]``: bit per effective suit seat ``s`` has shown it lacks;
    ``led_by[s]``: bit per effective suit seat ``s`` has led; ``counts[s]``:
    cards seat ``s`` still holds; ``led_suits``: suits led in finished tricks
    (for the unled-ace option); ``points``: card points per team so far;
    ``history``: (seat, card) of every play in order, the first trick led by
    ``first_leader``.
    """

    seat: int
    trump: int
    jc_holder: int
    hand: int
    played: int
    trick: list[int]
    leader: int
    voids: list[int]
    led_by: list[int]
    counts: list[int]
    led_suits: int
    points: tuple[int, int]
    ace_rule: bool
    history: list[tuple[int, int]]
    first_leader: int

    @property
    def others(self) -> int:
        """Cards some other seat may still hold."""
        return FULL_MASK & ~self.played & ~self.hand

    @property
    def trump_team(self) -> int:
        return self.jc_holder & 1

    def copy(self) -> Seen:
        """A copy with its own ``trick``, ``voids`` and ``led_by`` (what :func:`step
        <p2pbelka.bots.belka.solver.step>` changes); built directly, as ``dataclasses.replace``
        is slow for the thousands of copies a decision makes."""
        return Seen(
            seat=self.seat,
            trump=self.trump,
            jc_holder=self.jc_holder,
            hand=self.hand,
            played=self.played,
            trick=list(self.trick),
            leader=self.leader,
            voids=list(self.voids),
            led_by=list(self.led_by),
            counts=self.counts,
            led_suits=self.led_suits,
            points=self.points,
            ace_rule=self.ace_rule,
            history=self.history,
            first_leader=self.first_leader,
        )


def seen_from(deal: DealState, seat: int) -> Seen:
    """Read what ``seat`` knows from ``deal`` (only public facts and the seat's own hand)."""
    hand = deal.hands[seat]
    if hand is None:
        raise ValueError(f"the state does not hold seat {seat}'s hand")
    trump = int(deal.trump)
    esuit = core.EFFECTIVE_SUIT[trump]
    voids = [0, 0, 0, 0]
    led_by = [0, 0, 0, 0]
    counts = [8, 8, 8, 8]
    played = 0
    history: list[tuple[int, int]] = []
    tricks = [(t.leader, [c.index for c in t.cards]) for t in deal.tricks]
    tricks.append((deal.leader, list(deal.trick)))
    for leader, cards in tricks:
        if not cards:
            continue
        led = esuit[cards[0]]
        led_by[leader] |= 1 << led
        for offset, card in enumerate(cards):
            s = (leader + offset) & 3
            counts[s] -= 1
            played |= 1 << card
            history.append((s, card))
            if esuit[card] != led:
                voids[s] |= 1 << led
    return Seen(
        seat=seat,
        trump=trump,
        jc_holder=deal.jc_holder,
        hand=hand,
        played=played,
        trick=list(deal.trick),
        leader=deal.leader,
        voids=voids,
        led_by=led_by,
        counts=counts,
        led_suits=deal.led_suits,
        points=deal.card_points,
        ace_rule=deal.options.ace_rule,
        history=history,
        first_leader=tricks[0][0],
    )
