"""``p2pbelka bench deal``: the cost of dealing fairly, from the crypto to the saved file.

Figures: the deck's crypto alone for every fair-deal version (``deal_crypto``),
then whole games of four in-process peers running the full protocol (signing,
checking, dealing, auditing), the verification of their transcripts, and
transcript size.  The whole games use the fair-deal version the table puts in
its games (``game_fairdeal_version``).  ``_x`` figures are multiples of the
yardstick (one PyNaCl ed25519 noclamp multiplication, timed in the same run).

With ``game="belot"`` (``bench deal --game belot --players 2|3``): the crypto of one
Belot deal (``belot_`` figures of ``deal_crypto``), then whole Belot games of
two or three in-process peers, measured the same way.
"""

from __future__ import annotations

import time

from p2pbelka.bench import deal_crypto
from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes


def run(quick: bool = False, game: str = "belka", players: int | None = None) -> dict[str, object]:
    if game == "belot":
        seats = players or 3
        count = 200 if quick else 2000
        unit_us = deal_crypto.yardstick_us(count)
        figures: dict[str, object] = {"yardstick_us": round(unit_us, 1)}
        figures.update(deal_crypto.belot_figures(seats, quick, unit_us))
        figures.update(whole_games(quick, game, seats, unit_us / 1000))
        figures["yardstick_end_us"] = round(deal_crypto.yardstick_us(count), 1)
        return figures
    if players not in (None, 4):
        raise ValueError(f"Belka is played by 4, not {players}")
    figures = dict(deal_crypto.run(quick=quick))
    unit_ms = float(figures["yardstick_us"]) / 1000  # type: ignore[arg-type]
    figures.update(whole_games(quick, game, 4, unit_ms))
    return figures


def whole_games(quick: bool, game_name: str, seats: int, unit_ms: float) -> dict[str, object]:
    """Whole games of ``seats`` in-process peers with random bots: the protocol's CPU
    per deal (all peers), the verification of the transcript, its size."""
    games = 1 if quick else 3
    protocol_s = verify_s = 0.0
    deals = size = envelopes = 0
    for seed in range(games):
        game = LocalGame.seeded(1000 + seed, game=game_name, players=seats)
        tables = game.make_tables()
        start = time.process_time()
        run_sync(tables, [make_bot("random", s) for s in range(seats)])
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
    every = {4: "all_four_peers", 3: "all_three_peers", 2: "both_peers"}[seats]
    return {
        "game": game_name,
        "game_fairdeal_version": _version_of(tables[0]),
        "games": games,
        "deals": deals,
        f"protocol_ms_per_deal_{every}": round(1000 * protocol_s / deals, 1),
        "protocol_ms_per_deal_per_peer": round(1000 * protocol_s / deals / seats, 1),
        f"protocol_x_per_deal_{every}": round(1000 * protocol_s / deals / unit_ms),
        "verify_ms_per_deal": round(1000 * verify_s / deals, 1),
        "verify_x_per_deal": round(1000 * verify_s / deals / unit_ms),
        "transcript_bytes_per_deal": round(size / deals),
        "envelopes_per_deal": round(envelopes / deals, 1),
    }


def _version_of(table: Table) -> int | str:
    """The fair-deal version the table description names (the table deals with it)."""
    return table.setup.fairdeal if table.setup is not None else "unknown"
