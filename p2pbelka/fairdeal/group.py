"""The prime-order group behind the deck: edwards25519's main subgroup via libsodium.

Points and scalars are 32-byte ``bytes``.  The rest of ``fairdeal`` only uses
the :class:`Group` protocol, so a ristretto255 group can replace this one
without touching the deck (the wire format would change, so it would be a new
protocol version).
"""

from __future__ import annotations

import hashlib
import os
from typing import Final, Protocol

from nacl import bindings as _nacl
from nacl.exceptions import CryptoError as _CryptoError

from .errors import BadPoint, BadScalar

__all__ = ["ED25519", "GROUP_ORDER", "BadPoint", "BadScalar", "Ed25519Group", "Group"]

GROUP_ORDER: Final = 2**252 + 27742317777372353535851937790883648493
"""The order L of the prime-order subgroup (the scalar modulus)."""

_ZERO32: Final = bytes(32)


class Group(Protocol):
    """What the deck needs from a group of prime order."""

    name: str
    point_bytes: int
    scalar_bytes: int

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


class Ed25519Group:
    """edwards25519's subgroup of order L, through PyNaCl's libsodium bindings."""

    name = "edwards25519"
    point_bytes = 32
    scalar_bytes = 32

    def hash_to_group(self, domain: bytes, message: bytes) -> bytes:
        # Elligator 2 over a 32-byte hash, then cofactor clearing (libsodium's
        # from_uniform).  Not a random oracle to the group, but nobody can know
        # discrete logs between the outputs, which is all the deck needs.
        digest = hashlib.sha256(frame(domain) + message).digest()
        point: bytes = _nacl.crypto_core_ed25519_from_uniform(digest)
        return self.validate_point(point)

    def is_valid_point(self, point: object) -> bool:
        if not isinstance(point, bytes) or len(point) != 32:
            return False
        # is_valid_point already rejects small order points, the identity included.
        return bool(_nacl.crypto_core_ed25519_is_valid_point(point))

    def validate_point(self, point: object) -> bytes:
        if not isinstance(point, bytes) or len(point) != 32:
            raise BadPoint(f"a point is 32 bytes, got {_describe(point)}")
        if not _nacl.crypto_core_ed25519_is_valid_point(point):
            raise BadPoint("not an element of the prime-order subgroup (or the identity)")
        return point

    def mult(self, scalar: bytes, point: object) -> bytes:
        if not isinstance(point, bytes) or len(point) != 32:
            raise BadPoint(f"a point is 32 bytes, got {_describe(point)}")
        # noclamp checks the point itself (canonical, on the curve, in the
        # subgroup, not small order) and fails on an identity result, so a
        # separate is_valid_point call would only double the cost.
        try:
            result: bytes = _nacl.crypto_scalarmult_ed25519_noclamp(scalar, point)
        except _CryptoError:
            raise BadPoint("not an element of the prime-order subgroup (or the identity)") from None
        return result

    def add(self, p: object, q: object) -> bytes:
        result: bytes = _nacl.crypto_core_ed25519_add(
            self.validate_point(p), self.validate_point(q)
        )
        return result

    def validate_scalar(self, scalar: object) -> bytes:
        if not isinstance(scalar, bytes) or len(scalar) != 32:
            raise BadScalar(f"a scalar is 32 bytes, got {_describe(scalar)}")
        value = int.from_bytes(scalar, "little")
        if value >= GROUP_ORDER:
            raise BadScalar("scalar not reduced modulo the group order")
        if value == 0:
            raise BadScalar("zero scalar")
        return scalar

    def scalar_from_64(self, data: bytes) -> bytes:
        if len(data) != 64:
            raise ValueError("scalar_from_64 needs exactly 64 bytes")
        result: bytes = _nacl.crypto_core_ed25519_scalar_reduce(data)
        return result

    def random_scalar(self) -> bytes:
        while True:
            scalar = self.scalar_from_64(os.urandom(64))
            if scalar != _ZERO32:
                return scalar

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        result: bytes = _nacl.crypto_core_ed25519_scalar_mul(a, b)
        return result

    def scalar_invert(self, a: bytes) -> bytes:
        if a == _ZERO32:
            raise BadScalar("zero has no inverse")
        result: bytes = _nacl.crypto_core_ed25519_scalar_invert(a)
        return result


def frame(data: bytes) -> bytes:
    """One length byte then the data: makes concatenated fields unambiguous."""
    if len(data) > 255:
        raise ValueError("framed field longer than 255 bytes")
    return bytes([len(data)]) + data


def _describe(value: object) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"{len(value)} bytes"
    return type(value).__name__


ED25519: Final = Ed25519Group()
"""The group every deal of protocol version 1 uses."""
