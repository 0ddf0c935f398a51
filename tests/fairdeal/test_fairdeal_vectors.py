"""protocol/vectors/fairdeal.json against the code, and a few values recomputed
independently from the spec text (hashlib and libsodium only), so the spec and
the code cannot drift apart together.

Regenerate after a deliberate protocol change with
``python -m p2pbelka.fairdeal.vectors > protocol/vectors/fairdeal.json``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import nacl.bindings as nb
import pytest

from p2pbelka.fairdeal.vectors import dumps, generate

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "fairdeal.json"
L = 2**252 + 27742317777372353535851937790883648493


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text())
    return data


def test_file_matches_code(vectors: dict[str, Any]) -> None:
    assert generate() == vectors
    assert VECTORS.read_text() == dumps(vectors) + "\n"


def frame(b: bytes) -> bytes:
    return bytes([len(b)]) + b


def context(v: dict[str, Any]) -> bytes:
    c = v["context"]
    encoded: bytes = (
        frame(bytes.fromhex(c["game_id"]))
        + c["deal_id"].to_bytes(8, "big")
        + bytes([c["n_seats"], c["n_positions"]])
    )
    return encoded


def test_independent_context_commitment_and_card_points(vectors: dict[str, Any]) -> None:
    ctx = context(vectors)
    assert ctx.hex() == vectors["context"]["encoded"]
    game_id = bytes.fromhex(vectors["context"]["game_id"])
    for index, point in vectors["card_points"].items():
        digest = hashlib.sha256(
            frame(b"p2pbelka/card") + frame(game_id) + int(index).to_bytes(2, "big")
        ).digest()
        assert nb.crypto_core_ed25519_from_uniform(digest).hex() == point
    for seat in vectors["seats"]:
        data = frame(b"p2pbelka/fairdeal/v1/commit") + ctx + bytes([seat["seat"]])
        data += bytes.fromhex(seat["seed"])
        assert hashlib.sha256(data).hexdigest() == seat["commitment"]


def test_independent_seat_secrets(vectors: dict[str, Any]) -> None:
    ctx = context(vectors)
    n = vectors["context"]["n_positions"]
    for seat in vectors["seats"]:
        tail = ctx + bytes([seat["seat"]]) + bytes.fromhex(seat["seed"])

        stream = hashlib.shake_256(frame(b"p2pbelka/fairdeal/v1/shuffle-scalar") + tail)
        scalar = int.from_bytes(stream.digest(64), "little") % L
        assert scalar.to_bytes(32, "little").hex() == seat["shuffle_scalar"]
        assert pow(scalar, -1, L).to_bytes(32, "little").hex() == seat["shuffle_inverse"]

        locks = hashlib.shake_256(frame(b"p2pbelka/fairdeal/v1/lock-scalars") + tail)
        lock_bytes = locks.digest(64 * n)
        k0 = int.from_bytes(lock_bytes[:64], "little") % L
        k31 = int.from_bytes(lock_bytes[64 * 31 : 64 * 32], "little") % L
        assert k0.to_bytes(32, "little").hex() == seat["lock_scalar_0"]
        assert k31.to_bytes(32, "little").hex() == seat["lock_scalar_31"]
        factor = pow(scalar, -1, L) * k0 % L
        assert factor.to_bytes(32, "little").hex() == seat["lock_factor_0"]

        raw = hashlib.shake_256(frame(b"p2pbelka/fairdeal/v1/permutation") + tail).digest(1024)
        perm, pos = list(range(n)), 0
        for k in range(n - 1, 0, -1):
            while True:
                byte = raw[pos]
                pos += 1
                if byte < 256 - 256 % (k + 1):
                    break
            j = byte % (k + 1)
            perm[k], perm[j] = perm[j], perm[k]
        assert perm == seat["permutation"]


def test_cards_follow_from_the_permutations(vectors: dict[str, Any]) -> None:
    perms = {s["seat"]: s["permutation"] for s in vectors["seats"]}
    cards = []
    for k in range(vectors["context"]["n_positions"]):
        for seat in reversed(vectors["order"]):
            k = perms[seat][k]
        cards.append(k)
    assert cards == vectors["cards"]
