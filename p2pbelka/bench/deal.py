"""``p2pbelka bench deal``: the cost of dealing fairly, from the crypto to the saved file.

Figures: the deck's crypto alone for every fair-deal version (``deal_crypto``),
then whole games of four in-process peers running the full protocol (signing,
checking, dealing, auditing), the verification of their transcripts, and
transcript size.  The whole games use the fair-deal version the table puts in
its games (``game_fairdeal_version``).  ``audit_*_per_seat_per_deal``: the deck
audit each seat's table really ran at the end of each deal of those games (the
final deck checked against the seeds, a played position costing nothing), timed
and counted around the table's own call.  ``verify_*``: ``p2pbelka verify`` of
each game's transcript; ``verify_every_pass_*``: the same with ``--every-pass``.
``point_checks_per_peer_per_deal``: the points each peer validated outside a
multiplication (every pass it neither made nor multiplies next, fairdeal.md
section 8).
``_x`` figures are multiples of the yardstick (one PyNaCl ed25519 noclamp
multiplication, timed in the same run).

Each game arranges its own figures around the whole games (``bench/games/<game>/deal.py``:
Belka's are every fair-deal version's crypto, Belot's one deal of its own, ``bench deal
--game belot --players 2|3``); a game without such a part has the whole games alone,
between two yardsticks.

The tables of a whole game share one process, and so the points the group
keeps parsed (``Secp256k1Group.forget``): a seat finds the pass the seat before
it computed already parsed, where a LAN peer parses what it receives.  That
saves at most about 300 point parses a deal for the multiplications, and the
parses of every point check (``point_checks_per_peer_per_deal`` times the seats:
about 540 in a Belka deal), together under 9% of ``protocol_*``; the crypto
figures (``deal_crypto``: ``deal_all_seats`` against ``deal_all_seats_unchecked``,
``check_pass``) forget between seats and between repeats, and show what the
checks cost a LAN peer.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from p2pbelka.bench import deal_crypto
from p2pbelka.bench.registry import game_part
from p2pbelka.bots import make_bot
from p2pbelka.fairdeal.audit import AuditReport
from p2pbelka.fairdeal.versions import group_for
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.envelope import opened_anew
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules import registry
from p2pbelka.table.dealdeck import DealDeck
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes


@dataclass
class AuditClock:
    """What the tables' deck audits cost, summed over every seat and deal."""

    audits: int = 0
    cpu_s: float = 0.0
    mults: int = 0


@contextmanager
def timed_audits() -> Iterator[AuditClock]:
    """Time every ``DealDeck.audit`` the tables run while the block runs (the bench
    wraps the table's own method: what is timed is exactly what a seat runs)."""
    clock = AuditClock()
    original = DealDeck.audit

    def audit(deck: DealDeck) -> AuditReport:
        group = group_for(deck.ctx.version)
        before = group.ops.copy()
        start = time.process_time()
        try:
            return original(deck)
        finally:
            clock.cpu_s += time.process_time() - start
            clock.mults += group.ops.since(before).mult
            clock.audits += 1

    DealDeck.audit = audit  # type: ignore[method-assign,assignment]
    try:
        yield clock
    finally:
        DealDeck.audit = original  # type: ignore[method-assign]


def run(
    quick: bool = False, game: str = registry.DEFAULT, players: int | None = None
) -> dict[str, object]:
    spec = registry.spec(game)
    seats = spec.default_seats if players is None else players
    spec.check_seats(seats)
    games = partial(whole_games, quick, game, seats)
    part = game_part("deal", game)
    if part is not None:
        figures: dict[str, object] = part.run(quick, seats, games)
        return figures
    count = 200 if quick else 2000
    unit_us = deal_crypto.yardstick_us(count)
    figures = {"yardstick_us": round(unit_us, 1)}
    figures.update(games(unit_us / 1000))
    figures["yardstick_end_us"] = round(deal_crypto.yardstick_us(count), 1)
    return figures


def whole_games(quick: bool, game_name: str, seats: int, unit_ms: float) -> dict[str, object]:
    """Whole games of ``seats`` in-process peers with random bots: the protocol's CPU
    per deal (all peers), the audit each seat ran, the verification of the
    transcript, its size."""
    games = 1 if quick else 3
    protocol_s = verify_s = every_pass_s = 0.0
    deals = size = envelopes = checks = 0
    audits = AuditClock()
    # each peer, and the verifier, opens every envelope it gets as its own process does
    with opened_anew():
        for seed in range(games):
            game = LocalGame.seeded(1000 + seed, game=game_name, players=seats)
            tables = game.make_tables()
            group = group_for(game.fairdeal)
            before = group.ops.copy()
            with timed_audits() as clock:
                start = time.process_time()
                run_sync(tables, [make_bot("random", s) for s in range(seats)])
                protocol_s += time.process_time() - start
            checks += group.ops.since(before).validate
            audits.audits += clock.audits
            audits.cpu_s += clock.cpu_s
            audits.mults += clock.mults
            data = dump_transcript(tables[0].view.transcript)
            deal_crypto.forget_parsed()  # a verifier is a process of its own
            start = time.process_time()
            report = verify_bytes(data)
            verify_s += time.process_time() - start
            deal_crypto.forget_parsed()
            start = time.process_time()
            forensic = verify_bytes(data, every_pass=True)
            every_pass_s += time.process_time() - start
            if forensic.verdict != report.verdict:
                raise RuntimeError(f"verify --every-pass disagrees: {forensic.verdict}")
            if not report.ok:
                raise RuntimeError(f"benchmark game failed to verify: {report.verdict}")
            deals += tables[0].state.deal_id
            size += len(data)
            envelopes += len(tables[0].view.transcript)
    every = {4: "all_four_peers", 3: "all_three_peers", 2: "both_peers"}[seats]
    return {
        "game": game_name,
        "game_fairdeal_version": _version_of(tables[0]),
        "games": games,
        "deals": deals,
        f"protocol_ms_per_deal_{every}": round(1000 * protocol_s / deals, 1),
        "protocol_ms_per_deal_per_peer": round(1000 * protocol_s / deals / seats, 1),
        f"protocol_x_per_deal_{every}": round(1000 * protocol_s / deals / unit_ms),
        "audit_ms_per_seat_per_deal": round(1000 * audits.cpu_s / max(1, audits.audits), 2),
        "audit_x_per_seat_per_deal": round(
            1000 * audits.cpu_s / max(1, audits.audits) / unit_ms, 1
        ),
        "audit_mults_per_seat_per_deal": round(audits.mults / max(1, audits.audits), 1),
        "point_checks_per_peer_per_deal": round(checks / deals / seats, 1),
        "verify_ms_per_deal": round(1000 * verify_s / deals, 1),
        "verify_x_per_deal": round(1000 * verify_s / deals / unit_ms),
        "verify_every_pass_ms_per_deal": round(1000 * every_pass_s / deals, 1),
        "verify_every_pass_x_per_deal": round(1000 * every_pass_s / deals / unit_ms),
        "transcript_bytes_per_deal": round(size / deals),
        "envelopes_per_deal": round(envelopes / deals, 1),
    }


def _version_of(table: Table) -> int | str:
    """The fair-deal version the table description names (the table deals with it)."""
    return table.state.setup.fairdeal if table.state.setup is not None else "unknown"
