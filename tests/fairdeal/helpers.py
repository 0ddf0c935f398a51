"""Shared helpers for the fair-deal tests: run whole deals with real crypto."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.fairdeal import DealContext, Group, LocalSeat, initial_deck

GAME_ID = bytes(range(16))

# secp256k1's field prime; x = 1 is on the curve, x = 5 is not.
_P = 2**256 - 2**32 - 977
_X1 = (1).to_bytes(32, "big")

BAD_POINTS: dict[int, list[object]] = {
    1: [
        bytes(32),
        (1).to_bytes(32, "little"),  # the identity
        bytes.fromhex(
            "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"
        ),  # order 8
        b"\xff" * 32,  # not canonical
        b"\x01" * 33,
        b"",
        None,
        12,
    ],
    2: [
        bytes(33),  # what some encoders write for infinity
        b"\x00",  # SEC1's infinity
        b"\x02" + (_P + 1).to_bytes(32, "big"),  # x >= p: a second encoding of x = 1
        b"\x02" + (5).to_bytes(32, "big"),  # no point with x = 5
        b"\x02" + b"\xff" * 32,
        b"\x04" + _X1,  # wrong prefix
        b"\x06" + _X1,
        b"\x02" + _X1 + b"\x00",  # 34 bytes
        _X1,  # 32 bytes
        b"",
        None,
        12,
    ],
}
"""Points a malicious peer might send, per version: each must be refused."""


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
    version: int = 1,
) -> Deal:
    ctx = DealContext(GAME_ID, deal_id, n_seats, n_positions, version)
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


def int_scalar(group: Group, value: int) -> bytes:
    """A small scalar in the group's own encoding (little-endian in v1, big-endian in v2)."""
    return value.to_bytes(group.scalar_bytes, "little" if group.version == 1 else "big")
