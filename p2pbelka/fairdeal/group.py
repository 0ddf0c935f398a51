"""The prime-order group behind the deck, and version 1's: edwards25519 via libsodium.

Points and scalars are ``bytes`` of a fixed length per group.  The rest of
``fairdeal`` only uses the :class:`Group` protocol; which group a deal uses
follows from its fair-deal version (``versions.group_for``).  Every group counts
its expensive operations in ``ops`` so benches can report them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Final, Literal, Protocol

from nacl import bindings as _nacl
from nacl.exceptions import CryptoError as _CryptoError

from .errors import BadPoint, BadScalar

__all__ = [
    "ED25519",
    "GROUP_ORDER",
    "BadPoint",
    "BadScalar",
    "Ed25519Group",
    "Group",
    "OpCounts",
]

GROUP_ORDER: Final = 2**252 + 27742317777372353535851937790883648493
"""The order L of the prime-order subgroup (the scalar modulus)."""

_ZERO32: Final = bytes(32)


@dataclass
class OpCounts:
    """Running counts of a group's costly operations (for benches, never for logic)."""

    mult: int = 0
    """Point multiplications (each validates its input point)."""
    validate: int = 0
    """Point validations outside a multiplication."""
    hash_to_group: int = 0
    add: int = 0
    scalar_invert: int = 0

    def copy(self) -> OpCounts:
        return OpCounts(**{f.name: getattr(self, f.name) for f in fields(self)})

    def since(self, before: OpCounts) -> OpCounts:
        """The operations done after the snapshot ``before`` was taken."""
        return OpCounts(
            **{f.name: getattr(self, f.name) - getattr(before, f.name) for f in fields(self)}
        )


class Group(Protocol):
    """What the deck needs from a group of prime order."""

    name: str
    version: int
    """The fair-deal version that uses this group."""
    point_bytes: int
    scalar_bytes: int
    order: int
    byteorder: Literal["little", "big"]
    """How a scalar's bytes encode its integer (canonical: below ``order``)."""
    ops: OpCounts

    def hash_to_group(self, domain: bytes, message: bytes) -> bytes:
        """A point nobody knows a discrete log of, from a labelled message."""
        ...

    def validate_point(self, point: object) -> bytes:
        """``point`` if it is a valid non-identity element; else :class:`BadPoint`."""
        ...

    def is_valid_point(self, point: object) -> bool: ...

    def mult(self, scalar: bytes, point: object) -> bytes:
        """``scalar * point``; validates ``point`` on the way (:class:`BadPoint`)."""
        ...

    def add(self, p: object, q: object) -> bytes: ...

    def validate_scalar(self, scalar: object) -> bytes:
        """``scalar`` if canonical and non-zero; else :class:`BadScalar`."""
        ...

    def scalar_from_64(self, data: bytes) -> bytes:
        """64 bytes reduced mod the group order (may be zero, callers reject it)."""
        ...

    def random_scalar(self) -> bytes: ...

    def scalar_mul(self, a: bytes, b: bytes) -> bytes: ...

    def scalar_invert(self, a: bytes) -> bytes: ...

    def invert_all(self, scalars: Sequence[bytes]) -> list[bytes]:
        """The inverses of non-zero scalars, batched (one inversion for all)."""
        ...


class Remembering:
    """What a group keeps while ``remembering``: its products and the points it found
    valid, both functions of their bytes alone."""

    _products: dict[tuple[bytes, bytes], bytes] | None = None
    _valid: set[bytes] | None = None

    @contextlib.contextmanager
    def remembering(self, known: dict[tuple[bytes, bytes], bytes] | None = None) -> Iterator[None]:
        """Every product and every point found valid, for the block, remembered (the
        products in ``known``; if None, the enclosing block's, or else a new dict) and
        given again without the work.  For a process that runs every seat of a table (a
        simulator, a test, a vector generator), where each seat checks every point of
        every pass and opens every card shown, a replay does it all again, and the
        checks after the game audit every copy.  The field never does; the counts in
        ``ops`` are the same either way."""
        if known is None:
            known = self._products
        valid = self._valid if self._valid is not None else set()
        saved = self._products, self._valid
        self._products, self._valid = {} if known is None else known, valid
        try:
            yield
        finally:
            self._products, self._valid = saved


class Ed25519Group(Remembering):
    """edwards25519's subgroup of order L, through PyNaCl's libsodium bindings."""

    name = "edwards25519"
    version = 1
    point_bytes = 32
    scalar_bytes = 32
    order = GROUP_ORDER
    byteorder: Literal["little", "big"] = "little"

    def __init__(self) -> None:
        self.ops = OpCounts()

    def hash_to_group(self, domain: bytes, message: bytes) -> bytes:
        self.ops.hash_to_group += 1
        # Elligator 2 over a 32-byte hash, then cofactor clearing (libsodium's
        # from_uniform).  Not a random oracle to the group, but nobody can know
        # discrete logs between the outputs, which is all the deck needs.
        digest = hashlib.sha256(frame(domain) + message).digest()
        point: bytes = _nacl.crypto_core_ed25519_from_uniform(digest)
        return self.validate_point(point)

    def is_valid_point(self, point: object) -> bool:
        if not isinstance(point, bytes) or len(point) != 32:
            return False
        self.ops.validate += 1
        valid = self._valid
        if valid is not None and point in valid:
            return True
        # is_valid_point already rejects small order points, the identity included.
        if not _nacl.crypto_core_ed25519_is_valid_point(point):
            return False
        if valid is not None:
            valid.add(point)
        return True

    def validate_point(self, point: object) -> bytes:
        if not isinstance(point, bytes) or len(point) != 32:
            raise BadPoint(f"a point is 32 bytes, got {describe(point)}")
        if not self.is_valid_point(point):
            raise BadPoint("not an element of the prime-order subgroup (or the identity)")
        return point

    def mult(self, scalar: bytes, point: object) -> bytes:
        self.ops.mult += 1
        if not isinstance(point, bytes) or len(point) != 32:
            raise BadPoint(f"a point is 32 bytes, got {describe(point)}")
        known = self._products
        if known is not None:
            product = known.get((scalar, point))
            if product is not None:
                return product
        # noclamp checks the point itself (canonical, on the curve, in the
        # subgroup, not small order) and fails on an identity result, so a
        # separate is_valid_point call would only double the cost.
        try:
            result: bytes = _nacl.crypto_scalarmult_ed25519_noclamp(scalar, point)
        except _CryptoError:
            raise BadPoint("not an element of the prime-order subgroup (or the identity)") from None
        if known is not None and isinstance(scalar, bytes):
            known[(scalar, point)] = result
            # in the subgroup (a multiple of its point), not the identity (noclamp
            # refuses it), canonical (libsodium's own encoding): what the check says
            assert self._valid is not None
            self._valid.add(result)
        return result

    def add(self, p: object, q: object) -> bytes:
        self.ops.add += 1
        result: bytes = _nacl.crypto_core_ed25519_add(
            self.validate_point(p), self.validate_point(q)
        )
        return result

    def validate_scalar(self, scalar: object) -> bytes:
        return check_scalar(scalar, GROUP_ORDER, "little")

    def scalar_from_64(self, data: bytes) -> bytes:
        if len(data) != 64:
            raise ValueError("scalar_from_64 needs exactly 64 bytes")
        result: bytes = _nacl.crypto_core_ed25519_scalar_reduce(data)
        return result

    def random_scalar(self) -> bytes:
        return random_nonzero_scalar(self)

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        result: bytes = _nacl.crypto_core_ed25519_scalar_mul(a, b)
        return result

    def scalar_invert(self, a: bytes) -> bytes:
        if a == _ZERO32:
            raise BadScalar("zero has no inverse")
        self.ops.scalar_invert += 1
        result: bytes = _nacl.crypto_core_ed25519_scalar_invert(a)
        return result

    def invert_all(self, scalars: Sequence[bytes]) -> list[bytes]:
        return montgomery_invert(self, scalars)


def frame(data: bytes) -> bytes:
    """One length byte then the data: makes concatenated fields unambiguous."""
    if len(data) > 255:
        raise ValueError("framed field longer than 255 bytes")
    return bytes([len(data)]) + data


def check_scalar(scalar: object, order: int, byteorder: Literal["little", "big"]) -> bytes:
    """``scalar`` if it is 32 bytes encoding a value in 1..order-1; else :class:`BadScalar`."""
    if not isinstance(scalar, bytes) or len(scalar) != 32:
        raise BadScalar(f"a scalar is 32 bytes, got {describe(scalar)}")
    value = int.from_bytes(scalar, byteorder)
    if value >= order:
        raise BadScalar("scalar not reduced modulo the group order")
    if value == 0:
        raise BadScalar("zero scalar")
    return scalar


def random_nonzero_scalar(group: Group) -> bytes:
    while True:
        scalar = group.scalar_from_64(os.urandom(64))
        if scalar != _ZERO32:
            return scalar


def montgomery_invert(group: Group, scalars: Sequence[bytes]) -> list[bytes]:
    """Inverses of non-zero scalars with one inversion (Montgomery's trick): an
    inversion costs about 25 scalar multiplications, and a seat needs N + 1."""
    prefix = [scalars[0]]
    for scalar in scalars[1:]:
        prefix.append(group.scalar_mul(prefix[-1], scalar))
    inverse = group.scalar_invert(prefix[-1])
    out = [b""] * len(scalars)
    for i in range(len(scalars) - 1, 0, -1):
        out[i] = group.scalar_mul(inverse, prefix[i - 1])
        inverse = group.scalar_mul(inverse, scalars[i])
    out[0] = inverse
    return out


def describe(value: object) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"{len(value)} bytes"
    return type(value).__name__


ED25519: Final = Ed25519Group()
"""The group every deal of protocol version 1 uses."""
