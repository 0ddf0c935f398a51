"""secp256k1 as the group of fair-deal version 2, through libsecp256k1 (``coincurve``).

secp256k1 has prime order n and cofactor 1, so every point on the curve other
than infinity is a group element, and infinity has no compressed encoding.  A
point is the 33-byte SEC1 compressed encoding (``02``/``03`` || x, 0 <= x < p):
exactly one encoding per point.  Other encodings libsecp256k1 would also parse
(65-byte uncompressed or hybrid) are refused before it sees them, so two
different byte strings never name the same point.

Scalars are 32-byte big-endian integers, canonical (< n) and non-zero.  Point
multiplication is libsecp256k1's constant-time ``ecmult_const``
(``secp256k1_ec_pubkey_tweak_mul``).  Scalar arithmetic mod n is done with
Python integers, which are not constant-time: it runs on values derived from
the seed, never on a peer's input, and each secret lives for one deal, so a
timing observer gets one sample of microsecond differences per secret, under
milliseconds of network and scheduler noise.

Card points come from RFC 9380 ``hash_to_curve`` with the suite
``secp256k1_XMD:SHA-256_SSWU_RO_`` (random oracle, two field elements mapped by
simplified SWU on a 3-isogenous curve, then added).  Its inputs are public (the
game id and a card index), so this pure-Python version need not be
constant-time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final, Literal, cast

from coincurve import PublicKey
from coincurve._libsecp256k1 import ffi, lib  # the cffi module under coincurve's own API
from coincurve.context import GLOBAL_CONTEXT

from .errors import BadPoint, BadScalar
from .group import OpCounts, Remembering, check_scalar, describe, random_nonzero_scalar

P: Final = 2**256 - 2**32 - 977
"""The field prime."""
N: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The group order (the scalar modulus)."""

POINT_BYTES: Final = 33
SCALAR_BYTES: Final = 32

# RFC 9380 section 8.7: the isogenous curve E': y^2 = x^3 + A'x + B', and Z.
_ISO_A: Final = 0x3F8731ABDD661ADCA08A5558F0F5D272E953D363CB6F0E5D405447C01A444533
_ISO_B: Final = 1771
_Z: Final = P - 11

# RFC 9380 appendix E.1: the 3-isogeny map E' -> secp256k1, lowest degree first.
_X_NUM: Final = (
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA8C7,
    0x07D3D4C80BC321D5B9F315CEA7FD44C5D595D2FC0BF63B92DFFF1044F17C6581,
    0x534C328D23F234E6E2A413DECA25CAECE4506144037C40314ECBD0B53D9DD262,
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA88C,
)
_X_DEN: Final = (
    0xD35771193D94918A9CA34CCBB7B640DD86CD409542F8487D9FE6B745781EB49B,
    0xEDADC6F64383DC1DF7C4B2D51B54225406D36B641F5E41BBC52A56612A8C6D14,
    1,
)
_Y_NUM: Final = (
    0x4BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684B8E38E23C,
    0xC75E0C32D5CB7C0FA9D0A54B12A0A6D5647AB046D686DA6FDFFC90FC201D71A3,
    0x29A6194691F91A73715209EF6512E576722830A201BE2018A765E85A9ECEE931,
    0x2F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F38E38D84,
)
_Y_DEN: Final = (
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFF93B,
    0x7A06534BB8BDB49FD5E9E6632722C2989467C1BFC8E8D978DFB425D2685C2573,
    0x6484AA716545CA2CF3A70C3FA8FE337E0A3D21162F0D6299A7BF8192BFD2A76F,
    1,
)


def expand_message_xmd(msg: bytes, dst: bytes, length: int) -> bytes:
    """RFC 9380 section 5.3.1 with SHA-256."""
    ell = -(-length // 32)
    if ell > 255 or length > 65535 or len(dst) > 255:
        raise ValueError("expand_message_xmd: output or DST too long")
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha256(bytes(64) + msg + length.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
    blocks = [hashlib.sha256(b0 + b"\x01" + dst_prime).digest()]
    for i in range(2, ell + 1):
        mixed = bytes(a ^ b for a, b in zip(b0, blocks[-1], strict=True))
        blocks.append(hashlib.sha256(mixed + bytes([i]) + dst_prime).digest())
    return b"".join(blocks)[:length]


def hash_to_field(msg: bytes, dst: bytes, count: int = 2) -> list[int]:
    """RFC 9380 section 5.2: ``count`` elements of GF(p), 48 bytes of output each."""
    okm = expand_message_xmd(msg, dst, 48 * count)
    return [int.from_bytes(okm[48 * i : 48 * (i + 1)], "big") % P for i in range(count)]


# Constants of the straight-line map: -B/A and B/(Z*A) on E'.
_MINUS_B_OVER_A: Final = (P - _ISO_B) * pow(_ISO_A, -1, P) % P
_B_OVER_ZA: Final = _ISO_B * pow(_Z * _ISO_A, -1, P) % P


_SQRT_MINUS_Z: Final = pow(11, (P + 1) // 4, P)  # -Z = 11 is a square mod p


def map_to_curve_sswu(u: int) -> tuple[int, int]:
    """RFC 9380 section 6.6.2, simplified SWU onto E' (straight-line form, public input).

    One square root: with p = 3 mod 4, ``t = gx1^((p+1)/4)`` is a root of gx1
    or of -gx1; in the second case ``gx2 = Z^3 u^6 gx1`` has the root
    ``t * u^3 * Z * sqrt(-Z)`` (RFC 9380's sqrt_ratio for p = 3 mod 4).
    """
    u2z = _Z * u * u % P
    tv1 = (u2z * u2z + u2z) % P
    x1 = _B_OVER_ZA if tv1 == 0 else _MINUS_B_OVER_A * (1 + pow(tv1, -1, P)) % P
    gx1 = (x1 * x1 * x1 + _ISO_A * x1 + _ISO_B) % P
    t = pow(gx1, (P + 1) // 4, P)
    if t * t % P == gx1:
        x, y = x1, t
    else:
        x = u2z * x1 % P
        y = t * pow(u, 3, P) * _Z * _SQRT_MINUS_Z % P
        if y * y % P != (x * x * x + _ISO_A * x + _ISO_B) % P:  # impossible for p = 3 mod 4
            raise RuntimeError("simplified SWU found no square root")
    if u % 2 != y % 2:
        y = P - y
    return x, y


def _poly(coeffs: tuple[int, ...], x: int) -> int:
    acc = 0
    for c in reversed(coeffs):
        acc = (acc * x + c) % P
    return acc


def iso_map(x: int, y: int) -> tuple[int, int]:
    """RFC 9380 appendix E.1: the 3-isogeny from E' to secp256k1."""
    x_den = _poly(_X_DEN, x)
    y_den = _poly(_Y_DEN, x)
    if x_den == 0 or y_den == 0:  # the isogeny's kernel: never reached from a hash
        raise RuntimeError("hash to curve hit the isogeny's kernel")
    x_out = _poly(_X_NUM, x) * pow(x_den, -1, P) % P
    y_out = y * _poly(_Y_NUM, x) * pow(y_den, -1, P) % P
    return x_out, y_out


def _uncompressed(x: int, y: int) -> bytes:
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def hash_to_curve(msg: bytes, dst: bytes) -> bytes:
    """RFC 9380 ``secp256k1_XMD:SHA-256_SSWU_RO_``, as a compressed point.

    libsecp256k1 parses both mapped points (so each is checked to be on the
    curve) and adds them; the cofactor is 1, so there is nothing to clear.
    """
    u0, u1 = hash_to_field(msg, dst)
    q0 = PublicKey(_uncompressed(*iso_map(*map_to_curve_sswu(u0))))
    q1 = PublicKey(_uncompressed(*iso_map(*map_to_curve_sswu(u1))))
    return PublicKey.combine_keys([q0, q1]).format(compressed=True)


_CTX: Final = GLOBAL_CONTEXT.ctx
_COMPRESSED: Final = lib.SECP256K1_EC_COMPRESSED
_PUBKEY_SIZE: Final = 64  # libsecp256k1's parsed point (secp256k1_pubkey)
_PUBKEY_P: Final = ffi.typeof("secp256k1_pubkey *")
_OUT_T: Final = ffi.typeof("unsigned char[33]")
_SIZE_P: Final = ffi.typeof("size_t *")
_CARD_POINTS_KEEP: Final = 256
"""Hashed points kept parsed: the card points of a few games (32 a game)."""
_PARSED_KEEP: Final = 64
"""Points kept parsed, computed here or validated: the last two passes of 32, all a
replay chain needs (pass m's output is pass m+1's input; a seat's own pass and the
one it works on), and few enough that a bench repeating one deal finds nothing of
the previous run left."""


class Secp256k1Group(Remembering):
    """secp256k1 (prime order, cofactor 1) through libsecp256k1."""

    name = "secp256k1"
    version = 2
    point_bytes = POINT_BYTES
    scalar_bytes = SCALAR_BYTES
    order = N
    byteorder: Literal["little", "big"] = "big"

    def __init__(self) -> None:
        self.ops = OpCounts()
        # Points this group computed, parsed: a replay's output is the next pass's
        # input, and parsing a compressed point (a square root) is a seventh of a
        # multiplication.  Only libsecp256k1's own results go in, under the bytes
        # it serialised them to, so a hit is exactly what parsing would give.
        self._parsed: dict[bytes, Any] = {}
        self._card_points: dict[bytes, Any] = {}  # the same for hashed points

    def forget(self) -> None:
        """Drop the computed points kept parsed (for benches: what one process keeps,
        another does not have, and the four seats of a bench share one process)."""
        self._parsed.clear()

    def hash_to_group(self, domain: bytes, message: bytes) -> bytes:
        """RFC 9380 hash_to_curve with ``domain`` as the DST.  The point is kept parsed
        too: card points are the first shuffle's input in every deal of a game."""
        self.ops.hash_to_group += 1
        point = hash_to_curve(message, domain)
        key = ffi.new(_PUBKEY_P)
        if not lib.secp256k1_ec_pubkey_parse(_CTX, key, point, POINT_BYTES):
            raise BadPoint("hash to curve gave no point")  # libsecp256k1 made it: never
        if len(self._card_points) >= _CARD_POINTS_KEEP:
            self._card_points.clear()
        self._card_points[point] = key
        return point

    def _parse(self, point: object) -> PublicKey:
        if not isinstance(point, bytes) or len(point) != POINT_BYTES:
            raise BadPoint(f"a point is {POINT_BYTES} bytes, got {describe(point)}")
        if point[0] not in (2, 3):
            raise BadPoint(f"not a compressed point (first byte {point[0]:#04x})")
        try:
            # Refuses x >= p and an x with no point on the curve.
            return PublicKey(point)
        except ValueError:
            raise BadPoint("not a point on secp256k1") from None

    def is_valid_point(self, point: object) -> bool:
        try:
            self.validate_point(point)
        except BadPoint:
            return False
        return True

    def validate_point(self, point: object) -> bytes:
        """``point`` if valid, kept parsed: a table checks every point of every pass it
        handles, and the seat that multiplies that deck next (or opens a position of
        the final deck) then finds it parsed, so the check costs it nothing more."""
        self.ops.validate += 1
        if not isinstance(point, bytes) or len(point) != POINT_BYTES or point[0] not in (2, 3):
            self._parse(point)  # raises the precise BadPoint
        assert isinstance(point, bytes)
        if point in self._parsed or point in self._card_points:
            return point
        valid = self._valid
        if valid is not None and point in valid:
            return point
        key = ffi.new(_PUBKEY_P)
        if not lib.secp256k1_ec_pubkey_parse(_CTX, key, point, POINT_BYTES):
            raise BadPoint("not a point on secp256k1")  # x >= p, or no point with this x
        self._keep(point, key)
        if valid is not None:
            valid.add(point)
        return point

    def _keep(self, point: bytes, key: Any) -> None:
        if len(self._parsed) >= _PARSED_KEEP:
            del self._parsed[next(iter(self._parsed))]  # the oldest first
        self._parsed[point] = key

    def mult(self, scalar: bytes, point: object) -> bytes:
        # Straight to libsecp256k1 (parse, ecmult_const, serialize): coincurve's
        # PublicKey objects around it cost a tenth of the multiplication.
        self.ops.mult += 1
        if not isinstance(point, bytes) or len(point) != POINT_BYTES or point[0] not in (2, 3):
            self._parse(point)  # raises the precise BadPoint
        if not isinstance(scalar, bytes) or len(scalar) != SCALAR_BYTES:
            raise BadScalar(f"a scalar is {SCALAR_BYTES} bytes, got {describe(scalar)}")
        known = self._products
        if known is not None:
            product = known.get((scalar, cast(bytes, point)))
            if product is not None:
                return product
        key = ffi.new(_PUBKEY_P)
        parsed = self._parsed.get(cast(bytes, point))  # a bytes point, checked above
        if parsed is None:
            parsed = self._card_points.get(cast(bytes, point))
        if parsed is not None:
            ffi.memmove(key, parsed, _PUBKEY_SIZE)
        elif not lib.secp256k1_ec_pubkey_parse(_CTX, key, point, POINT_BYTES):
            raise BadPoint("not a point on secp256k1")
        if not lib.secp256k1_ec_pubkey_tweak_mul(_CTX, key, scalar):
            raise BadScalar("scalar not in 1..n-1")
        out = ffi.new(_OUT_T)
        lib.secp256k1_ec_pubkey_serialize(
            _CTX, out, ffi.new(_SIZE_P, POINT_BYTES), key, _COMPRESSED
        )
        result: bytes = ffi.buffer(out)[:]
        if result not in self._card_points:  # an opened card is kept parsed there already
            self._keep(result, key)
        if known is not None:
            known[(scalar, cast(bytes, point))] = result
            if self._valid is not None:
                self._valid.add(result)  # libsecp256k1's own point
        return result

    def add(self, p: object, q: object) -> bytes:
        self.ops.add += 1
        try:
            total = PublicKey.combine_keys([self._parse(p), self._parse(q)])
        except ValueError:
            raise BadPoint("the sum is the point at infinity") from None
        result: bytes = total.format(compressed=True)
        return result

    def validate_scalar(self, scalar: object) -> bytes:
        return check_scalar(scalar, N, "big")

    def scalar_from_64(self, data: bytes) -> bytes:
        if len(data) != 64:
            raise ValueError("scalar_from_64 needs exactly 64 bytes")
        return (int.from_bytes(data, "big") % N).to_bytes(32, "big")

    def random_scalar(self) -> bytes:
        return random_nonzero_scalar(self)

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        product = int.from_bytes(a, "big") * int.from_bytes(b, "big") % N
        return product.to_bytes(32, "big")

    def scalar_invert(self, a: bytes) -> bytes:
        value = int.from_bytes(a, "big") % N
        if value == 0:
            raise BadScalar("zero has no inverse")
        self.ops.scalar_invert += 1
        return pow(value, -1, N).to_bytes(32, "big")

    def invert_all(self, scalars: Sequence[bytes]) -> list[bytes]:
        # Montgomery's trick on integers: one inversion and 3(k-1) products.
        values = [int.from_bytes(s, "big") for s in scalars]
        prefix = [values[0]]
        for value in values[1:]:
            prefix.append(prefix[-1] * value % N)
        if prefix[-1] == 0:
            raise BadScalar("zero has no inverse")
        self.ops.scalar_invert += 1
        inverse = pow(prefix[-1], -1, N)
        out = [0] * len(values)
        for i in range(len(values) - 1, 0, -1):
            out[i] = inverse * prefix[i - 1] % N
            inverse = inverse * values[i] % N
        out[0] = inverse
        return [value.to_bytes(32, "big") for value in out]


SECP256K1: Final = Secp256k1Group()
"""The group every deal of fair-deal version 2 uses."""
