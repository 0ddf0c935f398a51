"""Test vectors for protocol/fairdeal.md.

``python -m p2pbelka.fairdeal.vectors > protocol/vectors/fairdeal.json`` regenerates
the file; tests/test_fairdeal_vectors.py checks the code still produces it.
Everything is derived from fixed inputs, so the output is stable.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .audit import audit
from .deck import card_point, deck_digest, initial_deck, lock_pass, shuffle_pass
from .derive import DealContext, commit_seed, derive_secrets
from .lots import commit_lot, resolve_lots

GAME_ID = bytes.fromhex("70326262656c6b612d766563746f7273")  # b"p2pbelka-vectors"
DEAL_ID = 3
N_SEATS = 4
N_POSITIONS = 32
ORDER = [1, 2, 3, 0]  # dealer 0: the seat after the dealer shuffles first
SHARE_SAMPLES = [(0, 0), (1, 5), (2, 17), (3, 31)]


def seed_of(seat: int) -> bytes:
    return bytes((seat * 32 + i) & 0xFF for i in range(32))


def lot_value(seat: int) -> bytes:
    return bytes([0xA0 + seat]) * 32


def generate() -> dict[str, Any]:
    ctx = DealContext(GAME_ID, DEAL_ID, N_SEATS, N_POSITIONS)
    secrets = {seat: derive_secrets(ctx, seat, seed_of(seat)) for seat in range(N_SEATS)}

    deck = initial_deck(ctx)
    shuffles: list[list[bytes]] = []
    locks: list[list[bytes]] = []
    digests: dict[str, Any] = {"initial": deck_digest(deck).hex()}
    for seat in ORDER:
        deck = shuffle_pass(ctx, secrets[seat], deck)
        shuffles.append(deck)
    for seat in ORDER:
        deck = lock_pass(ctx, secrets[seat], deck)
        locks.append(deck)
    digests["shuffle"] = [deck_digest(d).hex() for d in shuffles]
    digests["lock"] = [deck_digest(d).hex() for d in locks]

    report = audit(
        ctx,
        ORDER,
        {s: commit_seed(ctx, s, seed_of(s)) for s in range(N_SEATS)},
        {s: seed_of(s) for s in range(N_SEATS)},
        shuffles,
        locks,
    )
    if not report.ok:
        raise RuntimeError(f"vector deal does not audit: {report.faults}")

    lot_commitments = [commit_lot(GAME_ID, b"first-dealer", s, lot_value(s)) for s in range(4)]
    lots = resolve_lots(
        GAME_ID, b"first-dealer", lot_commitments, [lot_value(s) for s in range(4)], 4
    )

    return {
        "about": "p2pbelka fairdeal v1 test vectors; see protocol/fairdeal.md. Bytes are hex.",
        "context": {
            "game_id": GAME_ID.hex(),
            "deal_id": DEAL_ID,
            "n_seats": N_SEATS,
            "n_positions": N_POSITIONS,
            "encoded": ctx.encoded.hex(),
        },
        "card_points": {str(i): card_point(GAME_ID, i).hex() for i in (0, 1, 7, 31, 63)},
        "order": ORDER,
        "seats": [
            {
                "seat": seat,
                "seed": seed_of(seat).hex(),
                "commitment": commit_seed(ctx, seat, seed_of(seat)).hex(),
                "shuffle_scalar": secrets[seat].shuffle_scalar.hex(),
                "shuffle_inverse": secrets[seat].shuffle_inverse.hex(),
                "permutation": list(secrets[seat].permutation),
                "lock_scalar_0": secrets[seat].lock_scalars[0].hex(),
                "lock_scalar_31": secrets[seat].lock_scalars[31].hex(),
                "lock_factor_0": secrets[seat].lock_factors[0].hex(),
            }
            for seat in range(N_SEATS)
        ],
        "deck_digests": digests,
        "final_deck_first_points": [p.hex() for p in locks[-1][:2]],
        "shares": [
            {"seat": s, "position": j, "share": secrets[s].shares[j].hex()}
            for s, j in SHARE_SAMPLES
        ],
        "cards": list(report.cards),
        "lots": {
            "game_id": GAME_ID.hex(),
            "purpose": b"first-dealer".hex(),
            "values": [lot_value(s).hex() for s in range(4)],
            "commitments": [c.hex() for c in lot_commitments],
            "n": 4,
            "choice": lots.choice,
            "order": list(lots.order or ()),
        },
    }


def dumps(data: dict[str, Any]) -> str:
    """Indented JSON with lists of numbers kept on one line, for readable diffs."""
    text = json.dumps(data, indent=1)
    return re.sub(
        r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
        lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
        text,
    )


def main() -> None:
    print(dumps(generate()))


if __name__ == "__main__":
    main()
