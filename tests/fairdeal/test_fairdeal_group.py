from __future__ import annotations

import pytest

from p2pbelka.fairdeal import ED25519, GROUP_ORDER, BadPoint, BadScalar

# A point of order 8 and a point off the prime-order subgroup (order 8L).
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
IDENTITY = (1).to_bytes(32, "little")


def test_hash_to_group_is_deterministic_and_domain_separated() -> None:
    a = ED25519.hash_to_group(b"label", b"x")
    assert a == ED25519.hash_to_group(b"label", b"x")
    assert a != ED25519.hash_to_group(b"label2", b"x")
    assert ED25519.is_valid_point(a)


def test_mult_inverse_round_trip() -> None:
    p = ED25519.hash_to_group(b"t", b"p")
    s = ED25519.random_scalar()
    q = ED25519.mult(s, p)
    assert q != p
    assert ED25519.mult(ED25519.scalar_invert(s), q) == p


def test_scalar_mul_commutes_with_mult() -> None:
    p = ED25519.hash_to_group(b"t", b"p")
    a, b = ED25519.random_scalar(), ED25519.random_scalar()
    assert ED25519.mult(a, ED25519.mult(b, p)) == ED25519.mult(ED25519.scalar_mul(a, b), p)


def test_add() -> None:
    p = ED25519.hash_to_group(b"t", b"p")
    two = (2).to_bytes(32, "little")
    assert ED25519.add(p, p) == ED25519.mult(two, p)


@pytest.mark.parametrize(
    "bad",
    [
        IDENTITY,
        bytes(32),
        SMALL_ORDER,
        b"\xff" * 32,  # not canonical
        b"\x01" * 31,
        b"\x01" * 33,
        "not bytes",
        None,
        42,
    ],
)
def test_bad_points_raise_badpoint(bad: object) -> None:
    assert not ED25519.is_valid_point(bad)
    with pytest.raises(BadPoint):
        ED25519.validate_point(bad)
    with pytest.raises(BadPoint):
        ED25519.mult(ED25519.random_scalar(), bad)


def test_point_outside_subgroup_rejected() -> None:
    p = ED25519.hash_to_group(b"t", b"p")
    # p + (small order point) is on the curve but not in the prime-order subgroup
    import nacl.bindings as nb

    mixed = nb.crypto_core_ed25519_add(p, SMALL_ORDER)
    assert not ED25519.is_valid_point(mixed)
    with pytest.raises(BadPoint):
        ED25519.mult(ED25519.random_scalar(), mixed)


@pytest.mark.parametrize(
    "bad",
    [bytes(32), GROUP_ORDER.to_bytes(32, "little"), b"\x01" * 31, None, "x"],
)
def test_bad_scalars(bad: object) -> None:
    with pytest.raises(BadScalar):
        ED25519.validate_scalar(bad)


def test_scalar_from_64_reduces() -> None:
    s = ED25519.scalar_from_64(b"\xff" * 64)
    assert int.from_bytes(s, "little") == int.from_bytes(b"\xff" * 64, "little") % GROUP_ORDER
