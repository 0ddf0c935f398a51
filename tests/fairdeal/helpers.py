"""Shared helpers for the fair-deal tests: run whole deals with real crypto."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.fairdeal import DealContext, LocalSeat, initial_deck

GAME_ID = bytes(range(16))


@dataclass
class Deal:
    ctx: DealContext
    seats: list[LocalSeat]
    order: list[int]
    shuffles: list[list[bytes]] = field(default_factory=list)
    locks: list[list[bytes]] = field(default_factory=list)

    @property
    def final(self) -> list[bytes]:
        return self.locks[-1]

    def commitments(self) -> dict[int, bytes]:
        return {s.seat: s.commitment for s in self.seats}

    def seeds(self) -> dict[int, bytes]:
        return {s.seat: s.seed for s in self.seats}

    def all_shares(self) -> list[tuple[int, int, bytes]]:
        return [(s.seat, j, s.share(j)) for s in self.seats for j in range(self.ctx.n_positions)]

    def open(self, j: int, holder: int) -> int:
        others = {s.seat: s.share(j) for s in self.seats if s.seat != holder}
        return self.seats[holder].open(j, self.final[j], others)


def make_deal(
    n_seats: int = 4,
    n_positions: int = 32,
    seeds: list[bytes] | None = None,
    order: list[int] | None = None,
    deal_id: int = 0,
    run: bool = True,
) -> Deal:
    ctx = DealContext(GAME_ID, deal_id, n_seats, n_positions)
    seats = [LocalSeat(ctx, i, None if seeds is None else seeds[i]) for i in range(n_seats)]
    deal = Deal(ctx, seats, list(range(n_seats)) if order is None else order)
    if run:
        deck = initial_deck(ctx)
        for seat in deal.order:
            deck = seats[seat].shuffle(deck)
            deal.shuffles.append(deck)
        for seat in deal.order:
            deck = seats[seat].lock(deck)
            deal.locks.append(deck)
    return deal


def fixed_seed(seat: int, tag: int = 0) -> bytes:
    return bytes([seat, tag]) * 16
