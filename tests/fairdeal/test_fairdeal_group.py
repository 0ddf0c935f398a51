from __future__ import annotations

import pytest

from p2pbelka.fairdeal import (
    ED25519,
    FAIRDEAL_VERSION,
    GROUP_ORDER,
    SUPPORTED_VERSIONS,
    BadPoint,
    BadScalar,
    OpCounts,
    UnsupportedVersion,
    group_for,
)
from tests.fairdeal.helpers import BAD_POINTS, int_scalar

# A point of order 8 and a point off the prime-order subgroup (order 8L).
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
IDENTITY = (1).to_bytes(32, "little")


def test_hash_to_group_is_deterministic_and_domain_separated(version: int) -> None:
    group = group_for(version)
    a = group.hash_to_group(b"label", b"x")
    assert a == group.hash_to_group(b"label", b"x")
    assert a != group.hash_to_group(b"label2", b"x")
    assert a != group.hash_to_group(b"label", b"y")
    assert group.is_valid_point(a) and len(a) == group.point_bytes


def test_mult_inverse_round_trip(version: int) -> None:
    group = group_for(version)
    p = group.hash_to_group(b"t", b"p")
    s = group.random_scalar()
    q = group.mult(s, p)
    assert q != p
    assert group.mult(group.scalar_invert(s), q) == p


def test_scalar_mul_commutes_with_mult(version: int) -> None:
    group = group_for(version)
    p = group.hash_to_group(b"t", b"p")
    a, b = group.random_scalar(), group.random_scalar()
    assert group.mult(a, group.mult(b, p)) == group.mult(group.scalar_mul(a, b), p)


def test_add(version: int) -> None:
    group = group_for(version)
    p = group.hash_to_group(b"t", b"p")
    assert group.add(p, p) == group.mult(int_scalar(group, 2), p)


def test_op_counts(version: int) -> None:
    group = group_for(version)
    p = group.hash_to_group(b"t", b"p")
    s = group.random_scalar()
    before = group.ops.copy()
    group.mult(s, p)
    group.mult(s, p)
    group.add(p, p)
    group.validate_point(p)
    group.scalar_invert(s)
    spent = group.ops.since(before)
    assert spent == OpCounts(mult=2, validate=spent.validate, add=1, scalar_invert=1)
    assert spent.validate >= 1  # the add may validate its inputs too


def test_versions() -> None:
    assert FAIRDEAL_VERSION in SUPPORTED_VERSIONS == (1, 2)
    assert group_for(1) is ED25519 and ED25519.version == 1
    for bad in (0, 3, "1", None, True):
        with pytest.raises(UnsupportedVersion):
            group_for(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", BAD_POINTS[1])
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
