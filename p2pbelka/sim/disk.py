"""The simulated disk: the real files, and what each sync put beyond a power cut.

The store writes its files as it always does (they are real, in the run's
temporary directory); every sync goes through ``p2pbelka.peer.disk``, and this
disk remembers the content each one covered.  A power cut (``power_cut``) puts
each file of the seat's store back to what its last sync covered, except,
sometimes, for a torn last write: a part of what came after it, cut anywhere.
A file never synced is left empty.  A kill that is not a power cut loses
nothing: the kernel had every write.

What the model leaves out: the game's ``game.json`` and the chat log, which the
store replaces or appends without a sync of their own (a power cut keeps them as
they are), and the directory's names (a file is never lost whole).
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
CUT_FILES = ("transcript.p2pb", "signed.p2pb", "secrets")
"""The files a power cut may take back: the ones the store's promise rests on."""


class SimDisk:
    threads = False

    def __init__(self, rng: random.Random, counts: Counter[str]) -> None:
        self.rng = rng
        self.counts = counts
        self.durable: dict[Path, bytes] = {}

    def datasync(self, fd: int) -> None:
        path = Path(os.readlink(f"/proc/self/fd/{fd}"))
        self._keep(path)

    def fsync(self, path: Path) -> None:
        if path.is_file():
            self._keep(path.resolve())

    async def blocking(self, work: Callable[[], T]) -> T:
        # Inline, and no checkpoint: inline or "in a thread", a step runs the same.
        return work()

    def _keep(self, path: Path) -> None:
        """What a sync of ``path`` covered.  The store's files only grow at their end
        (the journal fills its room of zeros from the front), so what was synced before
        is read again only from where its zeros began: a sync costs what it added."""
        old = self.durable.get(path, b"")
        start = len(old.rstrip(b"\0"))
        size = path.stat().st_size
        if size < start:  # cut short (a damaged tail moved aside): read it all
            start, old = 0, b""
        with open(path, "rb") as f:
            f.seek(start)
            tail = f.read(min(size - start, ROOM_READ))
        self.durable[path] = old[:start] + tail

    def power_cut(self, root: Path) -> None:
        """Every store file under ``root`` back to what was synced (a last write torn)."""
        for path in sorted(root.rglob("*")):
            if not path.is_file() or not path.name.startswith(CUT_FILES):
                continue
            now = path.read_bytes()
            kept = self.durable.get(path.resolve(), b"")
            if now == kept:
                continue
            self.counts["power cut lost writes"] += 1
            same = next(
                (i for i, (a, b) in enumerate(zip(now, kept, strict=False)) if a != b),
                min(len(now), len(kept)),
            )
            torn = 0
            if self.rng.random() < 0.5 and len(now) > same:
                torn = self.rng.randrange(len(now) - same)
                self.counts["power cut tore a write"] += 1
            end = same + torn
            path.write_bytes(now[:end] + kept[end:])
