"""The simulated disk: the real files, and what each sync put beyond a power cut.

The store writes its files as it always does (they are real, in the run's
temporary directory); every sync goes through ``p2pbelka.peer.disk``, and this
disk remembers the content each one covered.  A power cut (``power_cut``) puts
each file of the seat's store back to what its last sync covered, except,
sometimes, for a torn last write: a part of what came after it, cut anywhere.
A file never synced is left empty.  A kill that is not a power cut loses
nothing: the kernel had every write.

The game's ``game.json`` is replaced (a new file renamed over it) with no sync of
its own: a power cut leaves either the new one (the rename reached the disk) or the
one there when its directory was last synced, half the time each; one written
after the directory's last sync, and never covered, stays (the store syncs the
directory once its first files are made, just after the first ``game.json``).

What the model leaves out: the chat log (the simulated people never chat), and
the directory's names otherwise (a file is never lost whole).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

ROOM_READ = 1 << 16
"""Bytes read past the last sync's end: more than one step ever writes (the rest is room)."""
CUT_FILES = ("transcript.p2pb", "signed.p2pb", "secrets", "agreements", "known-game-ids")
"""The files a power cut may take back: the ones the store's promise rests on (what the
seat signed, its secrets, the continuations it agreed to, the ids it has seen)."""
RENAMED = "game.json"
"""The file the store replaces whole, whose version a power cut may take back."""


class SimDisk:
    threads = False

    def __init__(self, rng: random.Random, counts: Counter[str]) -> None:
        self.rng = rng
        self.counts = counts
        self.durable: dict[str, bytearray] = {}
        self._ends: dict[str, int] = {}
        """Where each durable file's zeros begin (its length, its room of zeros left out):
        known from the last sync, so a sync reads only what it added."""
        self.renamed: dict[Path, bytes] = {}
        """Each directory's ``game.json`` as its last sync found it."""

    def datasync(self, fd: int) -> None:
        self._keep(os.readlink(f"/proc/self/fd/{fd}"))

    def fsync(self, path: Path) -> None:
        if path.is_file():
            self._keep(str(path.resolve()))
        elif (path / RENAMED).is_file():  # a directory: its names, so this version
            self.renamed[(path / RENAMED).resolve()] = (path / RENAMED).read_bytes()

    async def blocking(self, work: Callable[[], T]) -> T:
        # Inline, and no checkpoint: inline or "in a thread", a step runs the same.
        return work()

    def _keep(self, path: str) -> None:
        """What a sync of ``path`` covered.  The store's files only grow at their end
        (the journal fills its room of zeros from the front), so what was synced before
        is read again only from where its zeros began: a sync costs what it added."""
        kept = self.durable.setdefault(path, bytearray())
        start = self._ends.get(path, 0)
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < start:  # cut short (a damaged tail moved aside): read it all
                start = 0
            f.seek(start)
            tail = f.read(min(size - start, ROOM_READ))
        del kept[start:]
        kept += tail
        # what was kept up to ``start`` ends with a byte that is no zero (or is empty)
        self._ends[path] = start + _content(tail)

    def power_cut(self, root: Path) -> None:
        """Every store file under ``root`` back to what was synced (a last write torn),
        and each ``game.json`` maybe back to its version at its directory's last sync."""
        for path in sorted(root.rglob(RENAMED)):
            kept = self.renamed.get(path.resolve())
            if kept is not None and kept != path.read_bytes() and self.rng.random() < 0.5:
                self.counts["power cut took game.json back"] += 1
                path.write_bytes(kept)
        for path in sorted(root.rglob("*")):
            if not path.is_file() or not path.name.startswith(CUT_FILES):
                continue
            now = path.read_bytes()
            synced = self.durable.get(str(path.resolve()), b"")
            if now == synced:
                continue
            self.counts["power cut lost writes"] += 1
            same = next(
                (i for i, (a, b) in enumerate(zip(now, synced, strict=False)) if a != b),
                min(len(now), len(synced)),
            )
            torn = 0
            if self.rng.random() < 0.5 and len(now) > same:
                torn = self.rng.randrange(len(now) - same)
                self.counts["power cut tore a write"] += 1
            end = same + torn
            path.write_bytes(now[:end] + synced[end:])


_ZEROS = (bytes(1 << 14), bytes(1 << 10))


def _content(data: bytes) -> int:
    """``len(data.rstrip(b"\0"))``, for less: a journal's room is tens of kilobytes of
    zeros, passed 16 KiB, then 1 KiB at a time (``rstrip`` looks at every byte on its
    own)."""
    end = len(data)
    for zeros in _ZEROS:
        while end >= len(zeros) and data.endswith(zeros, 0, end):
            end -= len(zeros)
    return len(data[:end].rstrip(b"\0"))
