"""Commit-reveal lots: a common random choice (first dealer, seat order) no seat can bias.

Every seat commits to a fresh 32-byte value, then all reveal; the result comes
from a hash of all values in seat order, so a single honest seat makes it
uniform.  A seat that sees the others' values before revealing can still refuse
to reveal (and be named for it); it cannot change its value.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .derive import XofReader
from .group import frame

VALUE_BYTES: Final = 32
LABEL_LOT_COMMIT: Final = b"p2pbelka/lots/v1/commit"
LABEL_LOT_RESULT: Final = b"p2pbelka/lots/v1/result"


def new_lot_value() -> bytes:
    return os.urandom(VALUE_BYTES)


def _check_args(game_id: bytes, purpose: bytes) -> None:
    if not 16 <= len(game_id) <= 32:
        raise ValueError("game_id must be 16..32 bytes")
    if len(purpose) > 64:
        raise ValueError("purpose label too long")


def commit_lot(game_id: bytes, purpose: bytes, seat: int, value: bytes) -> bytes:
    """SHA-256(frame(label) || frame(game_id) || frame(purpose) || u8 seat || value).

    ``purpose`` (e.g. ``b"first-dealer"``) separates several lots in one game.
    """
    _check_args(game_id, purpose)
    if len(value) != VALUE_BYTES or not 0 <= seat < 256:
        raise ValueError("a lot value is 32 bytes, a seat 0..255")
    data = frame(LABEL_LOT_COMMIT) + frame(game_id) + frame(purpose) + bytes([seat]) + value
    return hashlib.sha256(data).digest()


def check_lot(game_id: bytes, purpose: bytes, seat: int, value: object, commitment: object) -> bool:
    """True if ``value`` opens ``commitment``; False (never an exception) on any
    malformed peer data, so a reveal can be checked as soon as it arrives."""
    if not isinstance(value, bytes) or len(value) != VALUE_BYTES:
        return False
    if not isinstance(commitment, bytes) or len(commitment) != 32:
        return False
    return hmac.compare_digest(commit_lot(game_id, purpose, seat, value), commitment)


def _stream(game_id: bytes, purpose: bytes, values: Sequence[bytes]) -> XofReader:
    data = frame(LABEL_LOT_RESULT) + frame(game_id) + frame(purpose) + bytes([len(values)])
    return XofReader(data + b"".join(values), 64)


def _uniform(reader: XofReader, n: int) -> int:
    # 64-bit draws with rejection above the largest multiple of n: exactly uniform.
    limit = 2**64 - 2**64 % n
    while True:
        draw = int.from_bytes(reader.read(8), "big")
        if draw < limit:
            return draw % n


@dataclass(frozen=True)
class LotsOutcome:
    faults: tuple[int, ...]
    """Seats whose reveal is missing or does not match their commitment."""
    choice: int | None
    """Uniform in ``range(n)``; ``None`` if any seat is at fault."""
    order: tuple[int, ...] | None
    """A uniform permutation of ``range(n)`` from the same values (seat order draws)."""

    @property
    def ok(self) -> bool:
        return not self.faults


def resolve_lots(
    game_id: bytes,
    purpose: bytes,
    commitments: Sequence[object],
    values: Sequence[object],
    n: int,
) -> LotsOutcome:
    """Check every reveal against its commitment (index = seat) and, if all match,
    derive the outcome.  Never raises on peer data; ``n`` is the caller's."""
    _check_args(game_id, purpose)
    if not 1 <= n <= 2**32:
        raise ValueError("n out of range")
    faults: list[int] = []
    good: list[bytes] = []
    for seat, commitment in enumerate(commitments):
        value = values[seat] if seat < len(values) else None
        if check_lot(game_id, purpose, seat, value, commitment):
            assert isinstance(value, bytes)
            good.append(value)
        else:
            faults.append(seat)
    if faults:
        return LotsOutcome(tuple(faults), None, None)
    reader = _stream(game_id, purpose, good)
    choice = _uniform(reader, n)
    order = list(range(n))
    for k in range(n - 1, 0, -1):
        j = _uniform(reader, k + 1)
        order[k], order[j] = order[j], order[k]
    return LotsOutcome((), choice, tuple(order))


__all__ = ["LotsOutcome", "check_lot", "commit_lot", "new_lot_value", "resolve_lots"]
