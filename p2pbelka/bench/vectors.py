"""Game-protocol test vectors: a fixed-seed game's opening, up to the end of its first deal.

``python -m p2pbelka.bench.vectors DIR`` writes ``DIR/first-deal.p2pb`` (the
transcript prefix) and ``DIR/first-deal.json`` (every record's type, seat, seq
and hash, what ``verify`` says of the file, and the audited first deal; each
field is described in protocol/SPEC.md section 5.2), and the same for every other
game at its default table (``<game>-first-deal``: for Belot's three seats, the turned
card, bids, a declaration).  A second implementation checks itself by verifying the
transcript and recomputing those hashes; the reference implementation also
regenerates the bytes from the seed (tests/protocol/test_vectors.py).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2pbelka.bench.registry import game_part
from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import MAGIC, dump_transcript
from p2pbelka.rules import registry
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes

SEED = 1
NAME = "first-deal"
ABOUT = (
    "p2pbelka game-protocol test vector: a fixed-seed game up to the end of its first deal;"
    " every field is described in protocol/SPEC.md section 5.2. Bytes are hex."
)


def seed_of(game: str) -> int:
    """The seed of ``game``'s vector: ``SEED``, unless the game's own part of the
    vectors (``bench/games/<game>/vectors.py``) names another, one whose first deal shows
    what that game's vector shows."""
    part = game_part("vectors", game)
    seed = getattr(part, "SEED", SEED) if part is not None else SEED
    assert isinstance(seed, int)
    return seed


def vector_name(game: str) -> str:
    """``first-deal`` for the default game (its name from before there were others),
    ``<game>-first-deal`` for every other."""
    return NAME if game == registry.DEFAULT else f"{game}-{NAME}"


def generate(
    seed: int = SEED, game_name: str = registry.DEFAULT, players: int | None = None
) -> tuple[bytes, dict[str, Any]]:
    """The vector of ``game_name`` at a table of ``players`` (by default the game's
    default table)."""
    players = players or registry.spec(game_name).default_seats
    game = LocalGame.seeded(seed, game=game_name, players=players)
    tables = game.make_tables()
    events = run_sync(tables, [make_bot("random", seed * 10 + s) for s in range(players)])
    table = tables[0]
    first_end = next(
        i for i, e in enumerate(table.view.transcript) if e.type == "deal_end" and e.deal == 1
    )
    envelopes = table.view.transcript[: first_end + players]  # every deal_end envelope of deal 1
    audited = next(e for e in events[0] if isinstance(e, ev.DealAudited))
    data = dump_transcript(envelopes)
    seats = [s.key for s in game.setup().seats]
    report = verify_bytes(data)
    description = {
        "about": ABOUT,
        "seed": seed,
        "game_id": game.game_id.hex(),
        "seat_keys": [k.hex() for k in seats],
        "transcript_sha256": hashlib.sha256(data).hexdigest(),
        "transcript_bytes": len(data),
        "records": record_rows(envelopes, seats),
        "verify": {
            "verdict": report.verdict.split(":", 1)[0],
            "records": report.records,
            "faults": [str(f) for f in report.faults],
        },
        "first_deal": {"deal_id": audited.deal_id, **audited.summary.to_json()},
    }
    return data, description


def record_rows(envelopes: Sequence[Envelope], seats: Sequence[bytes]) -> list[dict[str, Any]]:
    """Each record of a vector as its JSON describes it."""
    return [
        {
            "type": e.type,
            "seat": seats.index(e.sender),
            "seq": e.seq,
            "deal": e.deal,
            "hash": e.digest.hex(),
        }
        for e in envelopes
    ]


NO_RECORD = "no-record"


def no_record() -> tuple[bytes, dict[str, Any]]:
    """The magic and nothing after it (SPEC.md section 5.1): INVALID, exit status 2."""
    report = verify_bytes(MAGIC)
    return MAGIC, {
        "about": "p2pbelka transcript vector: the magic and no record (protocol/SPEC.md"
        " section 5.1); verify says INVALID and exits with status 2, a file that is no"
        " transcript, not a game that failed its checks",
        "verify": {
            "verdict": report.verdict,
            "records": report.records,
            "error": report.error,
            "exit_status": 2 if report.malformed else (0 if report.ok else 1),
        },
    }


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("protocol/vectors")
    data, description = no_record()
    (out / f"{NO_RECORD}.p2pb").write_bytes(data)
    text = json.dumps(description, indent=1, ensure_ascii=False)
    (out / f"{NO_RECORD}.json").write_text(text + "\n", encoding="utf-8")
    for game in registry.names():
        name = vector_name(game)
        data, description = generate(seed_of(game), game)
        (out / f"{name}.p2pb").write_bytes(data)
        text = json.dumps(description, indent=1, ensure_ascii=False)
        (out / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
