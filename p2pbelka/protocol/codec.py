"""Strict msgpack: one canonical encoding per value, hard size limits.

Envelopes are signed over their exact bytes, so a value must have exactly one
encoding; otherwise the same message could travel as several byte strings
with different hashes.  ``decode`` therefore re-encodes what it read and
insists on getting the same bytes back.
"""

from __future__ import annotations

from typing import Any

import msgpack

MAX_FRAME = 64 * 1024
"""Largest envelope accepted, in bytes (a shuffle pass of 64 points is ~2.3 KiB)."""


class ProtocolError(ValueError):
    """Input that breaks the wire format.  ``where`` names the field or byte at fault."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.reason = message


def encode(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def decode(data: bytes, where: str = "", limit: int = MAX_FRAME) -> Any:
    """Decode one msgpack value that must fill ``data`` and be canonically encoded;
    ``limit`` bytes at most (an envelope's; a result certificate's is larger)."""
    if len(data) > limit:
        raise ProtocolError(f"{len(data)} bytes is over the limit of {limit}", where)
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=limit,
            max_str_len=4096,
            max_array_len=256,
            max_map_len=64,
            max_ext_len=0,
        )
    except msgpack.ExtraData as exc:
        raise ProtocolError(f"{len(exc.extra)} bytes of trailing data", where) from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ProtocolError(f"not valid msgpack ({exc})", where) from None
    except RecursionError:
        raise ProtocolError("nesting too deep", where) from None
    try:
        canonical = encode(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProtocolError(f"value cannot be re-encoded ({exc})", where) from None
    if canonical != data:
        raise ProtocolError("not in canonical msgpack encoding", where)
    return value
