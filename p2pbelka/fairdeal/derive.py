"""The deal context, seed commitments, and every secret a seat derives from its seed.

All byte layouts here are normative (protocol/fairdeal.md): a second
implementation must reproduce them byte for byte, because the end-of-deal audit
replays every seat from its revealed seed.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from functools import cached_property
from typing import Final, Literal

from .group import Group, frame
from .versions import check_version, group_for, label

SEED_BYTES: Final = 32
MAX_POSITIONS: Final = 64
MIN_SEATS: Final = 2
MAX_SEATS: Final = 4

# Label names; the full label is p2pbelka/fairdeal/v<version>/<name>.
LABEL_COMMIT: Final = "commit"
LABEL_SHUFFLE_SCALAR: Final = "shuffle-scalar"
LABEL_PERMUTATION: Final = "permutation"
LABEL_LOCK_SCALARS: Final = "lock-scalars"

_ZERO32: Final = bytes(32)


@dataclass(frozen=True)
class DealContext:
    """One deal attempt.  Every hash and derivation is bound to all its fields
    (the version through the labels), so nothing from one game, or one
    (re-)deal, can be replayed in another."""

    game_id: bytes
    deal_id: int
    n_seats: int
    n_positions: int
    version: int = 1
    """The fair-deal version (``versions.py``): which group and labels.  A game's
    setup fixes it; transcripts from before versions existed are version 1."""

    def __post_init__(self) -> None:
        check_version(self.version)
        if not isinstance(self.game_id, bytes) or not 16 <= len(self.game_id) <= 32:
            raise ValueError("game_id must be 16..32 bytes")
        if not 0 <= self.deal_id < 2**64:
            raise ValueError("deal_id must fit in 64 bits")
        if not MIN_SEATS <= self.n_seats <= MAX_SEATS:
            raise ValueError(f"n_seats must be {MIN_SEATS}..{MAX_SEATS}")
        if not 2 <= self.n_positions <= MAX_POSITIONS:
            raise ValueError(f"n_positions must be 2..{MAX_POSITIONS}")

    @cached_property
    def group(self) -> Group:
        return group_for(self.version)

    @cached_property
    def encoded(self) -> bytes:
        """``frame(game_id) || u64be(deal_id) || u8(n_seats) || u8(n_positions)``."""
        return (
            frame(self.game_id)
            + self.deal_id.to_bytes(8, "big")
            + bytes([self.n_seats, self.n_positions])
        )

    def check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.n_seats:
            raise ValueError(f"seat {seat} out of range 0..{self.n_seats - 1}")


def new_seed() -> bytes:
    """A fresh seed for one seat and one deal: the only randomness a seat uses."""
    return os.urandom(SEED_BYTES)


def _seat_input(name: str, ctx: DealContext, seat: int, seed: bytes) -> bytes:
    ctx.check_seat(seat)
    if len(seed) != SEED_BYTES:
        raise ValueError("a seed is 32 bytes")
    return frame(label(ctx.version, name)) + ctx.encoded + bytes([seat]) + seed


def commit_seed(ctx: DealContext, seat: int, seed: bytes) -> bytes:
    """SHA-256 over the commit label, the context, the seat and the seed."""
    return hashlib.sha256(_seat_input(LABEL_COMMIT, ctx, seat, seed)).digest()


def check_commitment(ctx: DealContext, seat: int, seed: object, commitment: object) -> bool:
    """True if ``seed`` opens ``commitment``; False on any malformed input."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        return False
    if not isinstance(commitment, bytes) or len(commitment) != 32:
        return False
    return hmac.compare_digest(commit_seed(ctx, seat, seed), commitment)


class XofReader:
    """Sequential reads from one SHAKE-256 output stream."""

    def __init__(self, data: bytes, initial: int = 256) -> None:
        self._xof = hashlib.shake_256(data)
        self._buffer = self._xof.digest(initial)
        self._offset = 0

    def read(self, n: int) -> bytes:
        end = self._offset + n
        if end > len(self._buffer):
            # SHAKE output is a prefix-stable stream: a longer digest extends a shorter one.
            self._buffer = self._xof.digest(max(end, 2 * len(self._buffer)))
        out = self._buffer[self._offset : end]
        self._offset = end
        return out

    def uniform_below(self, bound: int) -> int:
        """An unbiased integer in ``range(bound)`` for ``1 <= bound <= 256``:
        one byte per try, rejecting bytes at or above the largest multiple of ``bound``."""
        limit = 256 - 256 % bound
        while True:
            byte = self.read(1)[0]
            if byte < limit:
                return byte % bound

    def nonzero_scalar(self, group: Group) -> bytes:
        """64 bytes reduced mod the group order; a zero result (probability
        below 2^-252) is skipped."""
        while True:
            scalar = group.scalar_from_64(self.read(64))
            if scalar != _ZERO32:
                return scalar


def fisher_yates(reader: XofReader, n: int) -> tuple[int, ...]:
    """Start from the identity; for k = n-1 down to 1 swap k with uniform j in 0..k."""
    perm = list(range(n))
    for k in range(n - 1, 0, -1):
        j = reader.uniform_below(k + 1)
        perm[k], perm[j] = perm[j], perm[k]
    return tuple(perm)


def derive_permutation(ctx: DealContext, seat: int, seed: bytes) -> tuple[int, ...]:
    """The seat's shuffle permutation alone (cheap: no scalar arithmetic)."""
    reader = XofReader(_seat_input(LABEL_PERMUTATION, ctx, seat, seed))
    return fisher_yates(reader, ctx.n_positions)


@dataclass(frozen=True)
class SeatSecrets:
    """Everything secret one seat uses in one deal; all of it follows from the seed."""

    seat: int
    shuffle_scalar: bytes
    shuffle_inverse: bytes
    permutation: tuple[int, ...]
    lock_scalars: tuple[bytes, ...]
    shares: tuple[bytes, ...]
    """``shares[j]`` is the inverse of ``lock_scalars[j]``: what the seat publishes for j."""
    lock_factors: tuple[bytes, ...]
    """``shuffle_inverse * lock_scalars[j]``: the one scalar the lock pass applies at j."""


def derive_secrets(ctx: DealContext, seat: int, seed: bytes) -> SeatSecrets:
    """Every secret of the seat's deal.  The arithmetic mod the group order is done
    on Python integers, converted to the group's scalar bytes once at the end: the
    same values as the group's own scalar operations (``scalar_from_64``,
    ``invert_all``, ``scalar_mul``), in a third of the time (every audit derives
    the other seats' secrets)."""
    group = ctx.group
    order, endian, size = group.order, group.byteorder, group.scalar_bytes
    reader = XofReader(_seat_input(LABEL_SHUFFLE_SCALAR, ctx, seat, seed), 64)
    scalar = _nonzero_int(reader, order, endian)
    lock_reader = XofReader(_seat_input(LABEL_LOCK_SCALARS, ctx, seat, seed), 64 * ctx.n_positions)
    locks = [_nonzero_int(lock_reader, order, endian) for _ in range(ctx.n_positions)]
    inverse, *shares = _invert_all(group, [scalar, *locks])
    return SeatSecrets(
        seat=seat,
        shuffle_scalar=scalar.to_bytes(size, endian),
        shuffle_inverse=inverse.to_bytes(size, endian),
        permutation=derive_permutation(ctx, seat, seed),
        lock_scalars=tuple(k.to_bytes(size, endian) for k in locks),
        shares=tuple(k.to_bytes(size, endian) for k in shares),
        lock_factors=tuple((inverse * k % order).to_bytes(size, endian) for k in locks),
    )


def _nonzero_int(reader: XofReader, order: int, endian: Literal["little", "big"]) -> int:
    """``XofReader.nonzero_scalar`` as an integer: 64 bytes reduced mod ``order``,
    a zero skipped."""
    while True:
        value = int.from_bytes(reader.read(64), endian) % order
        if value:
            return value


def _invert_all(group: Group, values: list[int]) -> list[int]:
    """Inverses mod the group order with one inversion (Montgomery's trick)."""
    order = group.order
    prefix = [values[0]]
    for value in values[1:]:
        prefix.append(prefix[-1] * value % order)
    group.ops.scalar_invert += 1
    inverse = pow(prefix[-1], -1, order)
    out = [0] * len(values)
    for i in range(len(values) - 1, 0, -1):
        out[i] = inverse * prefix[i - 1] % order
        inverse = inverse * values[i] % order
    out[0] = inverse
    return out
