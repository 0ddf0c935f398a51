"""Test vectors for protocol/fairdeal.md.

``python -m p2pbelka.fairdeal.vectors > protocol/vectors/fairdeal.json`` (version 1)
and ``python -m p2pbelka.fairdeal.vectors 2 > protocol/vectors/fairdeal-v2.json``
regenerate the files; tests/fairdeal/test_fairdeal_vectors.py checks the code
still produces them.  Everything is derived from fixed inputs, so the output is stable.
"""

from __future__ import annotations

import json
import re
import sys

from .audit import audit
from .deck import card_point, deck_digest, initial_deck, lock_pass, shuffle_pass
from .derive import DealContext, commit_seed, derive_secrets
from .lots import commit_lot, resolve_lots
from .secp256k1 import P, hash_to_field, iso_map, map_to_curve_sswu
from .versions import card_domain

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


def generate(version: int = 1) -> dict[str, object]:
    ctx = DealContext(GAME_ID, DEAL_ID, N_SEATS, N_POSITIONS, version)
    secrets = {seat: derive_secrets(ctx, seat, seed_of(seat)) for seat in range(N_SEATS)}

    deck = initial_deck(ctx)
    shuffles: list[list[bytes]] = []
    locks: list[list[bytes]] = []
    digests: dict[str, object] = {"initial": deck_digest(deck, version).hex()}
    for seat in ORDER:
        deck = shuffle_pass(ctx, secrets[seat], deck)
        shuffles.append(deck)
    for seat in ORDER:
        deck = lock_pass(ctx, secrets[seat], deck)
        locks.append(deck)
    digests["shuffle"] = [deck_digest(d, version).hex() for d in shuffles]
    digests["lock"] = [deck_digest(d, version).hex() for d in locks]

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

    data: dict[str, object] = {
        "about": f"p2pbelka fairdeal v{version} test vectors; see protocol/fairdeal.md."
        " Bytes are hex.",
        "context": {
            "game_id": GAME_ID.hex(),
            "deal_id": DEAL_ID,
            "n_seats": N_SEATS,
            "n_positions": N_POSITIONS,
            "encoded": ctx.encoded.hex(),
        },
        "card_points": {str(i): card_point(GAME_ID, i, version).hex() for i in (0, 1, 7, 31, 63)},
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
    }
    if version == 1:
        data["lots"] = _lots()
    else:
        data = {**data, "card_point_0_steps": _card_steps(version), "invalid_points": _invalid()}
    return data


def _lots() -> dict[str, object]:
    lot_commitments = [commit_lot(GAME_ID, b"first-dealer", s, lot_value(s)) for s in range(4)]
    lots = resolve_lots(
        GAME_ID, b"first-dealer", lot_commitments, [lot_value(s) for s in range(4)], 4
    )
    return {
        "game_id": GAME_ID.hex(),
        "purpose": b"first-dealer".hex(),
        "values": [lot_value(s).hex() for s in range(4)],
        "commitments": [c.hex() for c in lot_commitments],
        "n": 4,
        "choice": lots.choice,
        "order": list(lots.order or ()),
    }


def _card_steps(version: int) -> dict[str, str]:
    """Every intermediate value of RFC 9380 hash_to_curve for card 0 (version 2)."""
    msg = bytes([len(GAME_ID)]) + GAME_ID + (0).to_bytes(2, "big")
    u0, u1 = hash_to_field(msg, card_domain(version))
    q0, q1 = iso_map(*map_to_curve_sswu(u0)), iso_map(*map_to_curve_sswu(u1))
    return {
        "dst": card_domain(version).hex(),
        "msg": msg.hex(),
        "u0": f"{u0:064x}",
        "u1": f"{u1:064x}",
        "q0_x": f"{q0[0]:064x}",
        "q0_y": f"{q0[1]:064x}",
        "q1_x": f"{q1[0]:064x}",
        "q1_y": f"{q1[1]:064x}",
        "point": card_point(GAME_ID, 0, version).hex(),
    }


def _invalid() -> dict[str, str]:
    """Encodings a receiver must refuse (section 12): the sender is at fault."""
    x1 = (1).to_bytes(32, "big")  # x = 1 is on the curve; x = 5 is not
    y1 = pow(1 + 7, (P + 1) // 4, P).to_bytes(32, "big")
    return {
        "x_not_below_p": ("02" + (P + 1).to_bytes(32, "big").hex()),
        "x_not_on_curve": "02" + (5).to_bytes(32, "big").hex(),
        "infinity_33_zero_bytes": bytes(33).hex(),
        "infinity_sec1": "00",
        "uncompressed_of_valid_point": "04" + x1.hex() + y1.hex(),
        "hybrid_of_valid_point": ("07" if y1[-1] & 1 else "06") + x1.hex() + y1.hex(),
        "bad_prefix": "05" + x1.hex(),
        "valid_for_comparison": "02" + x1.hex(),
    }


def dumps(data: dict[str, object]) -> str:
    """Indented JSON with lists of numbers kept on one line, for readable diffs."""
    text = json.dumps(data, indent=1)
    return re.sub(
        r"\[\s*(-?\d+(?:,\s*-?\d+)*)\s*\]",
        lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
        text,
    )


def main() -> None:
    version = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    print(dumps(generate(version)))


if __name__ == "__main__":
    main()
