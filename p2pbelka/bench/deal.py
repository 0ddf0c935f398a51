"""``p2pbelka bench deal``: the cost of dealing fairly, from the crypto to the saved file.

Figures: the deck's crypto alone for every fair-deal version (``deal_crypto``),
then whole games of four in-process peers running the full protocol (signing,
checking, dealing, auditing), the verification of their transcripts, and
transcript size.  The whole games use the fair-deal version the table puts in
its games (``game_fairdeal_version``).  ``_x`` figures are multiples of the
yardstick (one PyNaCl ed25519 noclamp multiplication, timed in the same run).
"""

from __future__ import annotations

import time

from p2pbelka.bench import deal_crypto
from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.verify import verify_bytes


def run(quick: bool = False) -> dict[str, object]:
    figures: dict[str, object] = dict(deal_crypto.run(quick=quick))
    games = 1 if quick else 3
    protocol_s = verify_s = 0.0
    deals = size = envelopes = 0
    for seed in range(games):
        game = LocalGame.seeded(1000 + seed)
        tables = game.make_tables()
        start = time.process_time()
        run_sync(tables, [make_bot("random", s) for s in range(4)])
        protocol_s += time.process_time() - start
        data = dump_transcript(tables[0].transcript)
        start = time.process_time()
        report = verify_bytes(data)
        verify_s += time.process_time() - start
        if not report.ok:
            raise RuntimeError(f"benchmark game failed to verify: {report.verdict}")
        deals += tables[0].deal_id
        size += len(data)
        envelopes += len(tables[0].transcript)
    unit_ms = float(figures["yardstick_us"]) / 1000  # type: ignore[arg-type]
    figures.update(
        {
            "game_fairdeal_version": _version_of(tables[0]),
            "games": games,
            "deals": deals,
            "protocol_ms_per_deal_all_four_peers": round(1000 * protocol_s / deals, 1),
            "protocol_ms_per_deal_per_peer": round(1000 * protocol_s / deals / 4, 1),
            "protocol_x_per_deal_all_four_peers": round(1000 * protocol_s / deals / unit_ms),
            "verify_ms_per_deal": round(1000 * verify_s / deals, 1),
            "verify_x_per_deal": round(1000 * verify_s / deals / unit_ms),
            "transcript_bytes_per_deal": round(size / deals),
            "envelopes_per_deal": round(envelopes / deals, 1),
        }
    )
    return figures


def _version_of(table: object) -> int | str:
    """The fair-deal version of the table's last deal (the table owns that choice)."""
    deck = getattr(table, "deck", None)
    ctx = getattr(deck, "ctx", None)
    version = getattr(ctx, "version", None)
    return version if isinstance(version, int) else "unknown"
