"""protocol/vectors/fairdeal.json (version 1) and fairdeal-v2.json against the
code, and a few values recomputed independently from the spec text (hashlib,
integers, libsodium and libsecp256k1 only), so the spec and the code cannot
drift apart together.

Regenerate after a deliberate protocol change with
``python -m p2pbelka.fairdeal.vectors > protocol/vectors/fairdeal.json`` and
``python -m p2pbelka.fairdeal.vectors 2 > protocol/vectors/fairdeal-v2.json``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import nacl.bindings as nb
import pytest
from coincurve import PublicKey

from p2pbelka.fairdeal import SECP256K1
from p2pbelka.fairdeal.vectors import dumps, generate

FOLDER = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
FILES = {1: FOLDER / "fairdeal.json", 2: FOLDER / "fairdeal-v2.json"}
VECTORS = FILES[1]
L = 2**252 + 27742317777372353535851937790883648493
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text())
    return data


@pytest.fixture(scope="module")
def vectors2() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FILES[2].read_text())
    return data


@pytest.mark.parametrize("version", sorted(FILES))
def test_file_matches_code_byte_for_byte(version: int) -> None:
    text = FILES[version].read_text()
    assert text == dumps(generate(version)) + "\n"


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


def test_v2_independent_commitment_and_seat_scalars(vectors2: dict[str, Any]) -> None:
    ctx = context(vectors2)
    assert ctx.hex() == vectors2["context"]["encoded"]
    for seat in vectors2["seats"]:
        tail = ctx + bytes([seat["seat"]]) + bytes.fromhex(seat["seed"])
        commit = hashlib.sha256(frame(b"p2pbelka/fairdeal/v2/commit") + tail).hexdigest()
        assert commit == seat["commitment"]
        stream = hashlib.shake_256(frame(b"p2pbelka/fairdeal/v2/shuffle-scalar") + tail)
        scalar = int.from_bytes(stream.digest(64), "big") % N
        assert f"{scalar:064x}" == seat["shuffle_scalar"]
        assert f"{pow(scalar, -1, N):064x}" == seat["shuffle_inverse"]
        locks = hashlib.shake_256(frame(b"p2pbelka/fairdeal/v2/lock-scalars") + tail)
        k0 = int.from_bytes(locks.digest(64)[:64], "big") % N
        assert f"{k0:064x}" == seat["lock_scalar_0"]
        assert f"{pow(scalar, -1, N) * k0 % N:064x}" == seat["lock_factor_0"]


def test_v2_card_point_is_the_sum_of_the_two_mapped_points(vectors2: dict[str, Any]) -> None:
    steps = vectors2["card_point_0_steps"]
    assert (
        bytes.fromhex(steps["dst"]) == b"p2pbelka/fairdeal/v2/card_secp256k1_XMD:SHA-256_SSWU_RO_"
    )
    game_id = bytes.fromhex(vectors2["context"]["game_id"])
    assert bytes.fromhex(steps["msg"]) == frame(game_id) + (0).to_bytes(2, "big")
    q0 = PublicKey(bytes.fromhex("04" + steps["q0_x"] + steps["q0_y"]))
    q1 = PublicKey(bytes.fromhex("04" + steps["q1_x"] + steps["q1_y"]))
    total = PublicKey.combine_keys([q0, q1]).format(compressed=True)
    assert total.hex() == steps["point"] == vectors2["card_points"]["0"]


def test_v2_invalid_points_are_refused(vectors2: dict[str, Any]) -> None:
    for name, encoding in vectors2["invalid_points"].items():
        valid = SECP256K1.is_valid_point(bytes.fromhex(encoding))
        assert valid == (name == "valid_for_comparison"), name


def test_v2_cards_follow_from_the_permutations(vectors2: dict[str, Any]) -> None:
    test_cards_follow_from_the_permutations(vectors2)
