"""The transcript file: a game's envelopes, in the order every peer processed them.

Layout: the 16-byte magic ``MAGIC``, then one record per envelope: a 4-byte
big-endian length and the envelope's bytes.  Peers append a record as soon
as they accept an envelope, so a killed process loses at most the record being
written, and sync the file before they send anything computed from it, so a
power cut loses only records nothing sent depended on; the reader names the
byte offset of anything it cannot read.  The magic is written with the first
record, in one write: no file holds the magic alone (a game of no envelope).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from p2pbelka.protocol.codec import MAX_FRAME, ProtocolError
from p2pbelka.protocol.envelope import VERSION, Envelope, open_envelope

MAGIC = b"P2PBELKA-TRN-v2\n"
OLD_MAGICS: Mapping[bytes, int] = {b"P2PBELKA-TRN-v1\n": 1}
"""Transcripts of earlier protocol versions, named so a reader can say so plainly."""


class TranscriptError(ValueError):
    """A transcript that cannot be read; ``offset`` is the byte where reading failed."""

    def __init__(
        self, offset: int, message: str, index: int | None = None, *, cut: bool = False
    ) -> None:
        where = f"byte {offset}" + (f" (record {index})" if index is not None else "")
        super().__init__(f"{where}: {message}")
        self.offset = offset
        self.index = index
        self.reason = message
        self.cut = cut
        """The file ends inside this record: it is the last one, cut short (a peer
        killed while writing it), and every record before it reads."""


@dataclass(frozen=True, slots=True)
class Record:
    index: int
    offset: int
    envelope: Envelope


def iter_records(data: bytes) -> Iterator[Record]:
    """Every record of a transcript in memory; ``TranscriptError`` at the first bad one."""
    if not data.startswith(MAGIC):
        old = OLD_MAGICS.get(data[: len(MAGIC)])
        if old is not None:
            raise TranscriptError(
                0,
                f"a transcript of protocol version {old}, from an earlier p2pbelka: this"
                f" version reads version {VERSION} only",
            )
        raise TranscriptError(0, "not a p2pbelka transcript (bad magic)")
    offset, index = len(MAGIC), 0
    while offset < len(data):
        if offset + 4 > len(data):
            raise TranscriptError(offset, "truncated record length", index, cut=True)
        length = int.from_bytes(data[offset : offset + 4], "big")
        if length == 0 or length > MAX_FRAME:
            raise TranscriptError(offset, f"record length {length} out of range", index)
        start = offset + 4
        if start + length > len(data):
            raise TranscriptError(
                offset, f"truncated record ({length} bytes announced)", index, cut=True
            )
        try:
            envelope = open_envelope(data[start : start + length])
        except ProtocolError as exc:
            raise TranscriptError(start, str(exc), index) from None
        yield Record(index, offset, envelope)
        offset, index = start + length, index + 1


def valid_prefix_length(data: bytes) -> int:
    """Bytes of whole, readable records at the start of ``data`` (for resuming after a crash)."""
    end = len(MAGIC) if data.startswith(MAGIC) else 0
    try:
        for record in iter_records(data):
            end = record.offset + 4 + len(record.envelope.raw)
    except TranscriptError:
        pass
    return end


def holds_records(path: Path) -> bool:
    """Whether a transcript file holds more than the magic (or a torn part of it): a
    game whose first record never reached the disk saved nothing, and is no saved game
    to list or verify.  Any other bytes are listed, for ``verify`` to say what they are."""
    try:
        with path.open("rb") as f:
            head = f.read(len(MAGIC) + 1)
    except FileNotFoundError:
        return False
    return not MAGIC.startswith(head)


def encode_record(envelope: Envelope) -> bytes:
    return len(envelope.raw).to_bytes(4, "big") + envelope.raw


class TranscriptWriter:
    """Appends envelopes to a transcript file, creating it with the magic if new.

    Each record is written at once (a killed process loses at most the one being
    written); ``sync`` waits until the disk has every record appended so far, which
    a peer does before it sends anything computed from them (``GameStore.sync``)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.created = not self.path.exists()
        """The file is new: its name reaches the disk only with its directory's sync."""
        self._magic = self.created or self.path.stat().st_size == 0
        """The file is empty: the magic goes with the first record, in one write, so a
        power cut never leaves a file holding the magic alone (a game of no envelope,
        which ``verify`` calls INVALID)."""
        self._file: BinaryIO = open(self.path, "ab")
        self._unsynced = False
        self.taps: list[Callable[[Envelope], None]] = []
        """Told each envelope once it is written (the host's watchers' feed); a tap
        must return at once: the seat's task calls it."""
        self.cut_taps: list[Callable[[int], None]] = []
        """Told the records kept when the file was cut back (``cut_back``), likewise."""

    def append(self, envelope: Envelope) -> None:
        record = encode_record(envelope)
        if self._magic:
            record, self._magic = MAGIC + record, False
        self._file.write(record)
        self._file.flush()
        self._unsynced = True
        for tap in self.taps:
            tap(envelope)

    def cut_back(self, records: int) -> None:
        """The file was cut back to its first ``records`` records by its owner (a seat
        taken back keeps its transcript where it agrees with the game and sets the rest
        aside): appends go on after them (the file is opened to append); the taps hear."""
        for tap in self.cut_taps:
            tap(records)

    @property
    def unsynced(self) -> bool:
        """Records were written since the last ``sync``."""
        return self._unsynced and not self._file.closed

    def sync(self, sync_fd: Callable[[int], None] | None = None) -> bool:
        """Wait until the records appended so far are on the disk (``fdatasync``: the
        data and the file's size; ``sync_fd``: another disk's, a simulator's).  False
        if there was nothing to wait for."""
        if not self._unsynced or self._file.closed:
            return False
        self._unsynced = False
        (sync_fd or datasync)(self._file.fileno())
        return True

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def datasync(fd: int) -> None:
    """The data of a file on the disk, its size included (``fsync`` where the system
    has no ``fdatasync``: macOS)."""
    if hasattr(os, "fdatasync"):
        os.fdatasync(fd)
    else:
        os.fsync(fd)


def dump_transcript(envelopes: Sequence[Envelope]) -> bytes:
    return MAGIC + b"".join(encode_record(e) for e in envelopes)
