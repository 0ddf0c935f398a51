"""Version 2's group: RFC 9380 hash to curve, canonical encodings, what a peer may send."""

from __future__ import annotations

import pytest

from p2pbelka.fairdeal import SECP256K1, BadPoint, BadScalar, group_for
from p2pbelka.fairdeal.secp256k1 import (
    N,
    P,
    hash_to_curve,
    hash_to_field,
    iso_map,
    map_to_curve_sswu,
)
from tests.fairdeal.helpers import BAD_POINTS

# RFC 9380 appendix J.8.1, secp256k1_XMD:SHA-256_SSWU_RO_.
RFC_DST = b"QUUX-V01-CS02-with-secp256k1_XMD:SHA-256_SSWU_RO_"
RFC_VECTORS = [
    (
        b"",
        "c1cae290e291aee617ebaef1be6d73861479c48b841eaba9b7b5852ddfeb1346",
        "64fa678e07ae116126f08b022a94af6de15985c996c3a91b64c406a960e51067",
    ),
    (
        b"abc",
        "3377e01eab42db296b512293120c6cee72b6ecf9f9205760bd9ff11fb3cb2c4b",
        "7f95890f33efebd1044d382a01b1bee0900fb6116f94688d487c6c7b9c8371f6",
    ),
    (
        b"abcdef0123456789",
        "bac54083f293f1fe08e4a70137260aa90783a5cb84d3f35848b324d0674b0e3a",
        "4436476085d4c3c4508b60fcf4389c40176adce756b398bdee27bca19758d828",
    ),
]


@pytest.mark.parametrize(("msg", "x", "y"), RFC_VECTORS)
def test_hash_to_curve_matches_rfc9380(msg: bytes, x: str, y: str) -> None:
    prefix = "03" if int(y, 16) % 2 else "02"
    assert hash_to_curve(msg, RFC_DST).hex() == prefix + x


def test_hash_to_curve_intermediate_values_match_rfc9380() -> None:
    u0, u1 = hash_to_field(b"", RFC_DST)
    assert f"{u0:064x}" == "6b0f9910dd2ba71c78f2ee9f04d73b5f4c5f7fc773a701abea1e573cab002fb3"
    assert f"{u1:064x}" == "1ae6c212e08fe1a5937f6202f929a2cc8ef4ee5b9782db68b0d5799fd8f09e16"
    q0 = iso_map(*map_to_curve_sswu(u0))
    q1 = iso_map(*map_to_curve_sswu(u1))
    assert f"{q0[0]:064x}" == "74519ef88b32b425a095e4ebcc84d81b64e9e2c2675340a720bb1a1857b99f1e"
    assert f"{q0[1]:064x}" == "c174fa322ab7c192e11748beed45b508e9fdb1ce046dee9c2cd3a2a86b410936"
    assert f"{q1[0]:064x}" == "44548adb1b399263ded3510554d28b4bead34b8cf9a37b4bd0bd2ba4db87ae63"
    assert f"{q1[1]:064x}" == "96eb8e2faf05e368efe5957c6167001760233e6dd2487516b46ae725c4cce0c6"


def test_points_are_canonical_compressed_encodings() -> None:
    point = SECP256K1.hash_to_group(b"t", b"p")
    assert len(point) == 33 and point[0] in (2, 3)
    assert group_for(2) is SECP256K1
    # The other parity of the same x is the negated point: valid, and different.
    negated = bytes([point[0] ^ 1]) + point[1:]
    assert SECP256K1.is_valid_point(negated) and negated != point


def test_sum_at_infinity_is_refused() -> None:
    point = SECP256K1.hash_to_group(b"t", b"p")
    with pytest.raises(BadPoint):
        SECP256K1.add(point, bytes([point[0] ^ 1]) + point[1:])


@pytest.mark.parametrize("bad", BAD_POINTS[2])
def test_bad_points_from_a_peer_raise_badpoint(bad: object) -> None:
    assert not SECP256K1.is_valid_point(bad)
    with pytest.raises(BadPoint):
        SECP256K1.validate_point(bad)
    with pytest.raises(BadPoint):
        SECP256K1.mult(SECP256K1.random_scalar(), bad)


def test_uncompressed_encoding_of_a_valid_point_is_refused() -> None:
    # libsecp256k1 would parse it; a second encoding of one point must not pass.
    x = 1
    y = pow(x**3 + 7, (P + 1) // 4, P)
    uncompressed = b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")
    hybrid = bytes([6 + y % 2]) + uncompressed[1:]
    for encoding in (uncompressed, hybrid):
        with pytest.raises(BadPoint):
            SECP256K1.validate_point(encoding)


@pytest.mark.parametrize(
    "bad", [bytes(32), N.to_bytes(32, "big"), (N + 1).to_bytes(32, "big"), b"\x01" * 31, None]
)
def test_bad_scalars(bad: object) -> None:
    with pytest.raises(BadScalar):
        SECP256K1.validate_scalar(bad)


def test_scalars_are_big_endian_mod_n() -> None:
    s = SECP256K1.scalar_from_64(b"\xff" * 64)
    assert int.from_bytes(s, "big") == int.from_bytes(b"\xff" * 64, "big") % N
    a = SECP256K1.random_scalar()
    assert int.from_bytes(SECP256K1.scalar_mul(a, SECP256K1.scalar_invert(a)), "big") == 1


@pytest.mark.parametrize("bad", [bytes(32), N.to_bytes(32, "big"), b"\x01" * 31, b"\x01" * 33])
def test_mult_refuses_a_bad_scalar(bad: bytes) -> None:
    point = SECP256K1.hash_to_group(b"t", b"p")
    with pytest.raises(BadScalar):
        SECP256K1.mult(bad, point)


def test_a_computed_point_multiplies_as_its_bytes_do() -> None:
    """The group keeps the points it computed parsed; using them changes no result."""
    from coincurve import PublicKey

    point = SECP256K1.hash_to_group(b"test", b"kept")
    a, b = SECP256K1.random_scalar(), SECP256K1.random_scalar()
    once = SECP256K1.mult(a, point)
    twice = SECP256K1.mult(b, once)  # ``once`` is reused parsed
    expected = PublicKey(once).multiply(b).format(compressed=True)
    assert twice == expected
    # Flipping the prefix names another point (or none): it is parsed, not reused.
    flipped = bytes([once[0] ^ 1]) + once[1:]
    other = SECP256K1.mult(b, flipped)
    assert other != twice and other == PublicKey(flipped).multiply(b).format(compressed=True)
