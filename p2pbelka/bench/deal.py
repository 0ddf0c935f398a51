"""``p2pbelka bench deal``: the cost of dealing fairly, from the crypto to the saved file.

Figures: the deck's crypto alone (``deal_crypto``), then whole games of four
in-process peers running the full protocol (signing, checking, dealing,
auditing), the verification of their transcripts, and transcript size.
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
    figures.update(
        {
            "games": games,
            "deals": deals,
            "protocol_ms_per_deal_all_four_peers": round(1000 * protocol_s / deals, 1),
            "protocol_ms_per_deal_per_peer": round(1000 * protocol_s / deals / 4, 1),
            "verify_ms_per_deal": round(1000 * verify_s / deals, 1),
            "transcript_bytes_per_deal": round(size / deals),
            "envelopes_per_deal": round(envelopes / deals, 1),
        }
    )
    return figures
