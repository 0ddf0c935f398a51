"""Length-prefixed framing, sans-IO.

A frame on the wire is a 4-byte big-endian unsigned length followed by that many
bytes of body. The decoder checks the declared length against its maximum
before buffering the body, so a hostile length costs nothing but the 4 bytes
that carried it.
"""

from __future__ import annotations

import struct

from .errors import FrameError, FrameTooLarge, TruncatedFrame

__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "HEADER_SIZE",
    "FrameDecoder",
    "encode_frame",
]

HEADER_SIZE = 4
DEFAULT_MAX_FRAME_SIZE = 256 * 1024

_LENGTH = struct.Struct(">I")


def encode_frame(body: bytes, max_size: int = DEFAULT_MAX_FRAME_SIZE) -> bytes:
    """Return ``body`` with its length prefix; refuse bodies the peer would reject."""
    if len(body) > max_size:
        raise FrameTooLarge(f"frame of {len(body)} bytes exceeds the limit of {max_size}")
    return _LENGTH.pack(len(body)) + body


class FrameDecoder:
    """Reassembles frames from arbitrary chunks of a byte stream.

    Feed bytes with :meth:`receive_data` and pull frames with :meth:`next_frame`
    (or do both with :meth:`feed`). ``max_size`` may be changed between frames:
    the connection uses a small limit during the handshake and the full one
    after it, and frames already buffered are checked against the limit in
    force when they are pulled.

    After any error the decoder stays failed: the stream can no longer be
    trusted to be aligned on frame boundaries.
    """

    def __init__(self, max_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        if max_size < 0 or max_size > 0xFFFFFFFF:
            raise ValueError("max_size must fit in 32 bits")
        self.max_size = max_size
        self._buf = bytearray()
        self._pos = 0
        self._error: FrameError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as frames."""
        return len(self._buf) - self._pos

    def receive_data(self, data: bytes | bytearray | memoryview) -> None:
        if self._error is not None:
            raise self._error
        # Compact lazily so that many small frames in one chunk cost O(n), not O(n^2).
        if self._pos and self._pos * 2 >= len(self._buf):
            del self._buf[: self._pos]
            self._pos = 0
        self._buf += data

    def next_frame(self) -> bytes | None:
        """Return the next whole frame body, or ``None`` if more bytes are needed."""
        if self._error is not None:
            raise self._error
        available = len(self._buf) - self._pos
        if available < HEADER_SIZE:
            return None
        (length,) = _LENGTH.unpack_from(self._buf, self._pos)
        if length > self.max_size:
            self._error = FrameTooLarge(
                f"frame too large: {length} bytes announced, the limit is {self.max_size}"
            )
            raise self._error
        end = self._pos + HEADER_SIZE + length
        if end > len(self._buf):
            return None
        body = bytes(self._buf[self._pos + HEADER_SIZE : end])
        self._pos = end
        return body

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """Buffer ``data`` and return every frame now complete."""
        self.receive_data(data)
        frames: list[bytes] = []
        while (frame := self.next_frame()) is not None:
            frames.append(frame)
        return frames

    def end_of_stream(self) -> None:
        """Declare EOF; raise if the stream stopped inside a frame."""
        if self._error is not None:
            raise self._error
        if self.buffered:
            self._error = TruncatedFrame(
                f"stream ended with {self.buffered} bytes of an incomplete frame"
            )
            raise self._error
