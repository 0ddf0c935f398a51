"""CPU cost of the fair-dealing crypto alone, for every fair-deal version: no network, no rules.

Every time is printed twice: in milliseconds, and as ``_x``, a multiple of one
PyNaCl ed25519 noclamp scalar multiplication timed in the same run (the
yardstick, ``yardstick_us``), so figures from different machines compare.
``_mults`` counts the group multiplications the step performed, ``_checks`` the
point validations outside a multiplication.

Per version ``vN_``, for one four-seat deal of 32 positions played out (every
position opened to every seat, as in a Belka deal where all cards are played):

- ``deal_all_seats``: all four seats' crypto: deriving secrets, shuffle and
  lock passes, every seat checking every point of every pass it neither made
  nor multiplies next (fairdeal.md section 8; the next seat's multiplication
  checks them), each seat reading its own hand and decoding the 24 cards the
  others play;
- ``deal_all_seats_unchecked``: the same without those point checks (what a
  deal cost before every seat made them);
- ``deal_hands_only``: the same as ``deal_all_seats`` without decoding the
  plays (the figure the issue tracker quoted before: passes and hands);
- ``check_pass``: one seat checking the 32 points of one pass it received;
- ``audit_one_seat``: the audit one seat really runs at the end of the deal:
  the other seats' secrets derived from their seeds, every share compared with
  its seed's, and the final deck checked against the seeds' outcome (a played
  position costs no multiplication);
- ``audit_one_seat_nothing_opened``: the same if no position had been opened
  (a deal abandoned before play): one multiplication per position;
- ``verify_fairdeal``: what a verifier of the transcript spends on the deck: it
  has no seat, so it decodes every play once and replays every pass;
- ``mult_us``: one multiplication of the version's group, parsing included;
- ``card_points_per_game``: hashing the 32 card points to the group, once per
  game (a table should do it at setup, off the first deal's critical path).

``candidate_*`` are unit costs of groups considered for version 2 that are not
dependencies (measured only where installed).

A game measures its own deal the same way (``bench/games/<game>/deal.py``), with
:func:`play_deal`'s ``owners`` and :func:`measure`.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nacl import bindings as nacl

from p2pbelka.fairdeal import (
    SUPPORTED_VERSIONS,
    AuditReport,
    DealContext,
    LocalSeat,
    SeatSecrets,
    Step,
    audit,
    card_point,
    check_deck_points,
    deal_cards,
    group_for,
    initial_deck,
)
from p2pbelka.fairdeal.derive import MAX_SEATS

N_SEATS = MAX_SEATS
"""The most seats the fair deal deals to: the costliest deal."""
N_POSITIONS = 32
PEER_POINTS = 128


def forget_parsed() -> None:
    """A new process (or the next seat's): nothing kept parsed from before.  Each seat
    is a process of its own in a game, and a timed repeat must not find the points
    of the repeat before it."""
    for version in SUPPORTED_VERSIONS:
        forget = getattr(group_for(version), "forget", None)
        if forget is not None:
            forget()


def _cpu_ms(fn: Callable[[], object], repeats: int) -> float:
    """Median CPU milliseconds of ``fn`` (median: robust to a stray scheduler hiccup)."""
    samples = []
    for _ in range(repeats):
        forget_parsed()
        start = time.process_time()
        fn()
        samples.append((time.process_time() - start) * 1000)
    return statistics.median(samples)


def yardstick_us(count: int) -> float:
    """One PyNaCl ``crypto_scalarmult_ed25519_noclamp``, in microseconds."""
    point = nacl.crypto_core_ed25519_from_uniform(hashlib.sha256(b"yardstick").digest())
    scalar = nacl.crypto_core_ed25519_scalar_reduce(os.urandom(64))
    mult = nacl.crypto_scalarmult_ed25519_noclamp
    return 1000 * _cpu_ms(lambda: [mult(scalar, point) for _ in range(count)], 5) / count


TURNED, STOCK = -1, -2
"""Owners of a turned card (opened to everyone) and of a stock (opened to nobody)."""


@dataclass
class PlayedDeal:
    ctx: DealContext
    seats: list[LocalSeat]
    shuffles: list[list[bytes]]
    locks: list[list[bytes]]
    cards: dict[int, int]

    @property
    def order(self) -> list[int]:
        return list(range(self.ctx.n_seats))

    def shares(self) -> list[tuple[int, int, bytes]]:
        return [(s.seat, j, s.share(j)) for s in self.seats for j in range(N_POSITIONS)]


def play_deal(
    ctx: DealContext,
    decode_plays: bool = True,
    owners: Sequence[int] | None = None,
    check_points: bool = True,
) -> PlayedDeal:
    """Every seat's crypto for one deal: position j is dealt to ``owners[j]`` (by
    default seat j mod 4); ``TURNED`` is opened by every seat, ``STOCK`` by none.
    ``check_points``: every seat that neither made a pass nor multiplies it next
    checks its points, each in a process of its own (its parse is not shared); the
    opening of the final deck below parses it again, which a real process need not
    (it keeps the checked points parsed): at most 32 parses a seat too many."""
    n = ctx.n_seats
    owners = owners if owners is not None else [j % n for j in range(N_POSITIONS)]
    seats = [LocalSeat(ctx, seat) for seat in range(n)]
    shuffles: list[list[bytes]] = []
    locks: list[list[bytes]] = []
    deck = initial_deck(ctx)
    authors = [*seats, *seats]
    for m, author in enumerate(authors):
        forget_parsed()  # the seat's own process parses what the one before it sent
        deck = author.shuffle(deck) if m < n else author.lock(deck)
        (shuffles if m < n else locks).append(deck)
        after = authors[m + 1] if m + 1 < len(authors) else None
        for seat in seats if check_points else ():
            if seat is not author and seat is not after:
                forget_parsed()
                check_deck_points(ctx, deck)
    forget_parsed()  # the other seats parse the final deck they decode
    cards: dict[int, int] = {}
    for j in range(N_POSITIONS):
        if owners[j] == STOCK:
            continue
        if owners[j] == TURNED:  # every seat opens it with the others' shares
            for seat in seats:
                mine = {s.seat: s.share(j) for s in seats if s is not seat}
                cards[j] = seat.open(j, deck[j], mine)
            continue
        holder = seats[owners[j]]
        others = {s.seat: s.share(j) for s in seats if s is not holder}
        cards[j] = holder.open(j, deck[j], others)
        if decode_plays:  # the card is played: every other seat decodes it
            for seat in seats:
                if seat is not holder:
                    mine = {s.seat: s.share(j) for s in seats if s is not seat}
                    seat.open(j, deck[j], mine)
    return PlayedDeal(ctx, seats, shuffles, locks, cards)


def audit_as_seat(deal: PlayedDeal, seat: int | None, opened: bool) -> AuditReport:
    """The audit ``seat`` runs (``None``: a verifier with no seat)."""
    computed: dict[tuple[Step, int], list[bytes]] = {}
    own: SeatSecrets | None = None
    if seat is not None:
        computed = {(Step.SHUFFLE, seat): deal.shuffles[seat], (Step.LOCK, seat): deal.locks[seat]}
        own = deal.seats[seat].secrets
    report = audit(
        deal.ctx,
        deal.order,
        {s.seat: s.commitment for s in deal.seats},
        {s.seat: s.seed for s in deal.seats},
        deal.shuffles,
        deal.locks,
        deal.shares(),
        computed=computed,
        own=own,
        opened=deal.cards if opened else None,
        every_pass=seat is None,
    )
    if not report.ok:
        raise RuntimeError(f"benchmark deal failed its audit: {report.faults}")
    return report


def verify_deck(deal: PlayedDeal) -> None:
    """A verifier's deck work: check every point of every pass, decode every play
    once, then replay every pass."""
    for deck in (*deal.shuffles, *deal.locks):
        check_deck_points(deal.ctx, deck)
    final = deal.locks[-1]
    for j in deal.cards:
        shares = {s.seat: s.share(j) for s in deal.seats}
        deal.seats[0].open(j, final[j], {k: v for k, v in shares.items() if k != 0})
    audit_as_seat(deal, None, opened=True)


def measure(
    figures: dict[str, object], key: str, fn: Callable[[], object], repeats: int, unit_us: float
) -> None:
    """Time ``fn`` and count its multiplications; ``key_ms``, ``key_x``, ``key_mults``."""
    group = group_for(int(key[1]))
    before = group.ops.copy()
    fn()
    spent = group.ops.since(before)
    ms = _cpu_ms(fn, repeats)
    figures[f"{key}_ms"] = round(ms, 2)
    figures[f"{key}_x"] = round(1000 * ms / unit_us, 1)
    figures[f"{key}_mults"] = spent.mult
    figures[f"{key}_checks"] = spent.validate


def version_figures(version: int, quick: bool, unit_us: float) -> dict[str, object]:
    repeats = 3 if quick else 11
    ctx = DealContext(os.urandom(16), 0, N_SEATS, N_POSITIONS, version)
    group = group_for(version)
    figures: dict[str, object] = {f"v{version}_group": group.name}
    start = time.process_time()
    deal_cards(ctx)  # per-game setup, cached, not part of a deal
    setup_ms = 1000 * (time.process_time() - start)
    figures[f"v{version}_card_points_per_game_ms"] = round(setup_ms, 2)
    figures[f"v{version}_card_points_per_game_x"] = round(1000 * setup_ms / unit_us, 1)

    # Points from a peer, parsed anew each time: more distinct points than a group
    # keeps parsed (the last two passes' worth), none of them a card point.
    point = card_point(ctx.game_id, 0, version)
    points = [group.mult(group.random_scalar(), point) for _ in range(PEER_POINTS)]
    scalar = group.random_scalar()
    count = 200 if quick else 2000
    rounds = max(1, count // PEER_POINTS)
    mult_us = (
        1000
        * _cpu_ms(lambda: [group.mult(scalar, p) for _ in range(rounds) for p in points], 5)
        / (rounds * PEER_POINTS)
    )
    figures[f"v{version}_mult_us"] = round(mult_us, 1)
    figures[f"v{version}_mult_x"] = round(mult_us / unit_us, 3)

    v = f"v{version}"
    measure(figures, f"{v}_deal_all_seats", lambda: play_deal(ctx), repeats, unit_us)
    measure(
        figures,
        f"{v}_deal_all_seats_unchecked",
        lambda: play_deal(ctx, check_points=False),
        repeats,
        unit_us,
    )
    received = points[:N_POSITIONS]
    measure(figures, f"{v}_check_pass", lambda: check_deck_points(ctx, received), repeats, unit_us)
    measure(figures, f"{v}_deal_hands_only", lambda: play_deal(ctx, False), repeats, unit_us)
    deal = play_deal(ctx, decode_plays=False)
    measure(figures, f"{v}_audit_one_seat", lambda: audit_as_seat(deal, 0, True), repeats, unit_us)
    measure(
        figures,
        f"{v}_audit_one_seat_nothing_opened",
        lambda: audit_as_seat(deal, 0, False),
        repeats,
        unit_us,
    )
    measure(figures, f"{v}_verify_fairdeal", lambda: verify_deck(deal), repeats, unit_us)
    return figures


def candidate_figures(count: int, unit_us: float) -> dict[str, object]:
    """ristretto255 through ``rbcl`` (a libsodium build with ristretto255 exported,
    not a dependency: PyNaCl's bundled libsodium does not export ristretto255)."""
    try:
        import rbcl  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return {"candidate_ristretto255": "not installed (pip install rbcl to measure)"}
    point = rbcl.crypto_core_ristretto255_from_hash(hashlib.sha512(b"candidate").digest())
    scalar = rbcl.crypto_core_ristretto255_scalar_random()
    mult = rbcl.crypto_scalarmult_ristretto255
    us = 1000 * _cpu_ms(lambda: [mult(scalar, point) for _ in range(count)], 5) / count
    return {
        "candidate_ristretto255_mult_us": round(us, 1),
        "candidate_ristretto255_mult_x": round(us / unit_us, 3),
    }


def run(quick: bool = False) -> dict[str, object]:
    count = 200 if quick else 2000
    unit_us = yardstick_us(count)
    figures: dict[str, object] = {"yardstick_us": round(unit_us, 1)}
    for version in SUPPORTED_VERSIONS:
        figures.update(version_figures(version, quick, unit_us))
    figures.update(candidate_figures(count, unit_us))
    # The yardstick again at the end: how much the machine's speed moved during the run.
    figures["yardstick_end_us"] = round(yardstick_us(count), 1)
    newest = f"v{max(SUPPORTED_VERSIONS)}"
    figures["deal_all_seats_ms"] = figures[f"{newest}_deal_all_seats_ms"]
    figures["audit_per_seat_ms"] = figures[f"{newest}_audit_one_seat_ms"]
    figures.update({"seats": N_SEATS, "positions": N_POSITIONS})
    return figures
