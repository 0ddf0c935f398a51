"""CPU cost of the fair-dealing crypto alone: one four-seat deal of 32 positions,
the audit replay, and the raw group operation rate.  No network, no rules."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from p2pbelka.fairdeal import (
    ED25519,
    DealContext,
    LocalSeat,
    audit,
    card_point,
    card_table,
    initial_deck,
)

N_SEATS = 4
N_POSITIONS = 32


def _cpu_ms(fn: Callable[[], object], repeats: int) -> float:
    """Median CPU milliseconds of ``fn`` (median: robust to a stray scheduler hiccup)."""
    samples = []
    for _ in range(repeats):
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return statistics.median(samples)


def _one_deal(ctx: DealContext) -> tuple[list[LocalSeat], list[list[bytes]], list[list[bytes]]]:
    seats = [LocalSeat(ctx, seat) for seat in range(N_SEATS)]
    shuffles: list[list[bytes]] = []
    locks: list[list[bytes]] = []
    deck = initial_deck(ctx)
    for seat in seats:
        deck = seat.shuffle(deck)
        shuffles.append(deck)
    for seat in seats:
        deck = seat.lock(deck)
        locks.append(deck)
    for j in range(N_POSITIONS):
        holder = seats[j % N_SEATS]
        others = {s.seat: s.share(j) for s in seats if s is not holder}
        holder.open(j, deck[j], others)
    return seats, shuffles, locks


def run(quick: bool = False) -> dict[str, object]:
    repeats = 3 if quick else 15
    ctx = DealContext(os.urandom(16), 0, N_SEATS, N_POSITIONS)
    card_table(ctx.game_id)  # per-game setup, cached, not part of a deal

    deal_ms = _cpu_ms(lambda: _one_deal(ctx), repeats)

    seats, shuffles, locks = _one_deal(ctx)
    commitments = {s.seat: s.commitment for s in seats}
    seeds = {s.seat: s.seed for s in seats}
    shares = [(s.seat, j, s.share(j)) for s in seats for j in range(N_POSITIONS)]
    order = list(range(N_SEATS))

    def replay() -> None:
        report = audit(ctx, order, commitments, seeds, shuffles, locks, shares)
        if not report.ok:
            raise RuntimeError(f"benchmark deal failed its audit: {report.faults}")

    audit_ms = _cpu_ms(replay, repeats)

    point = card_point(ctx.game_id, 0)
    scalar = ED25519.random_scalar()
    count = 200 if quick else 2000
    mult_ms = _cpu_ms(lambda: [ED25519.mult(scalar, point) for _ in range(count)], 3)

    return {
        "deal_all_seats_ms": round(deal_ms, 2),
        "deal_per_seat_ms": round(deal_ms / N_SEATS, 2),
        "audit_all_seats_ms": round(audit_ms, 2),
        "audit_per_seat_ms": round(audit_ms / N_SEATS, 2),
        "scalar_mults_per_s": round(count / (mult_ms / 1000)),
        "seats": N_SEATS,
        "positions": N_POSITIONS,
        "group": ED25519.name,
    }
