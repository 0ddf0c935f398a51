"""A power cut, faithfully: what a game's directory holds is what was last synced.

``FakeDisk`` watches every ``fsync``/``fdatasync`` the process makes (the real
store's own calls) and keeps, for each file of one game's directory, its bytes
as they were at its last sync, and the directory's entries as they were at the
directory's last sync.  ``cut`` turns the directory into what a power cut may
leave: a file whose name was never synced is gone, every other file is its last
synced bytes; an append-only file may keep more (the kernel writes dirty pages
back by itself, at any moment), up to what was written, never less than synced.

``Links`` are in-memory links between in-process ``PeerDriver``s that answer
``resend`` the way the mesh does (every other seat answers from its table, then a
held table is released), and let a test change what a seat answers: a cheater's
traffic.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from p2pbelka.peer.driver import Release
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.protocol.transcript import iter_records, valid_prefix_length
from p2pbelka.table.session import Table


class FakeDisk:
    """What the disk holds of ``directory`` (one game's files) after a power cut."""

    def __init__(self, directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.directory = directory
        self.synced: dict[str, bytes] = {}
        """Each file's bytes at its last sync."""
        self.names: set[str] = set(os.listdir(directory))
        """The directory's entries at its last sync (the directory was synced when it
        was made: ``GameStore.create``)."""
        self.log: list[str] = []
        """Every sync of a file or of the directory (``"/"``), in order."""
        self.off = False
        """The power is off: a sync that ends now (a worker thread's) counts for nothing."""
        # Every sync of the process is noted instead of done: the snapshots are the
        # disk here (and a real sync, slow, would move the driver's syncs to a worker
        # thread, while which the virtual clock runs on).
        for name in ("fsync", "fdatasync"):
            if hasattr(os, name):
                monkeypatch.setattr(os, name, self._note)

    def _note(self, fd: int) -> None:
        if self.off:
            return
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            if os.path.samestat(st, os.stat(self.directory)):
                self.names = set(os.listdir(self.directory))
                self.log.append("/")
            return
        for entry in os.scandir(self.directory):
            if entry.is_file() and os.path.samestat(st, entry.stat()):
                self.synced[entry.name] = Path(entry.path).read_bytes()
                self.log.append(entry.name)
                return

    def synced_records(self, name: str) -> list[Envelope]:
        """The whole records of a transcript-like file as it was at its last sync."""
        data = self.synced.get(name, b"")
        return [r.envelope for r in iter_records(data[: valid_prefix_length(data)])] if data else []

    def cut(self, written_back: dict[str, int] | None = None) -> None:
        """The power goes: every file is what its last sync left.  ``written_back``:
        for append-only files, how many bytes the kernel may have written back by
        itself (kept if more than was synced, and no more than was written)."""
        self.off = True
        more = written_back or {}
        for entry in list(os.scandir(self.directory)):
            path = Path(entry.path)
            if entry.name not in self.names:
                path.unlink()  # its name never reached the disk
                continue
            if not entry.is_file():
                continue
            synced = self.synced.get(entry.name, b"")
            written = path.read_bytes()
            if entry.name in more and written.startswith(synced):
                synced = written[: max(len(synced), more[entry.name])]
            path.write_bytes(synced)


Answer = Callable[[int, int, list[int]], list[bytes]]
"""What ``seat`` sends back to ``asker``'s resend request for ``wants``."""


class Links:
    """In-memory links between every seat (see the module's docstring)."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        self.links = [Link(self, seat) for seat in range(len(tables))]
        self.answers: dict[int, Answer] = {}
        """A seat whose answers to a resend are not its table's (a cheater)."""
        self.heard: list[bytes] = []
        """Every envelope that went over a link (broadcast or resent), in order."""

    def answer(self, seat: int, asker: int, wants: list[int]) -> list[bytes]:
        if seat in self.answers:
            return self.answers[seat](seat, asker, wants)
        return self.answer_honestly(seat, asker, wants)

    def answer_honestly(self, seat: int, asker: int, wants: list[int]) -> list[bytes]:
        """What ``seat``'s table holds of what ``asker`` wants (as the mesh answers)."""
        table = self.tables[seat]
        return [
            raw
            for chain, seq in enumerate(wants)
            for raw in table.view.envelopes_from(chain, seq, newest=chain == asker)
        ]

    def replace(self, seat: int, table: Table) -> Link:
        """``seat`` comes back (a new process) with ``table``: a new, held link."""
        self.links[seat].dead = True
        self.tables[seat] = table
        self.links[seat] = Link(self, seat, holding=True)
        return self.links[seat]


class Link:
    """One seat's link to every other (a ``Transport``, ``Recovering``, ``Connected``)."""

    def __init__(self, links: Links, seat: int, *, holding: bool = False) -> None:
        self.links = links
        self.seat = seat
        self.dead = False
        self.holding = holding
        self.on_sent: Callable[[bytes], None] | None = None
        """Told every envelope this seat sent, once every other seat has it: a test
        may cut the power there (``dead``, and the seat's cancel scope cancelled)."""
        self._send, self._inbox = trio.open_memory_channel[bytes | Release](math.inf)

    def connected(self) -> set[int]:
        return {s for s in range(len(self.links.links)) if s != self.seat}

    async def broadcast(self, raw: bytes) -> None:
        if self.dead:
            return
        self.links.heard.append(raw)
        for other in self.links.links:
            if other is not self and not other.dead:
                other._send.send_nowait(raw)
        if self.on_sent is not None:
            self.on_sent(raw)
        if self.dead:  # the hook cut the power: the process dies here, mid-flush
            await trio.lowlevel.checkpoint()

    async def receive(self) -> bytes | Release:
        return await self._inbox.receive()

    async def ask_resend(self, wants: list[int]) -> None:
        if self.dead:
            return
        for other in self.links.links:
            if other is self or other.dead:
                continue
            for raw in self.links.answer(other.seat, self.seat, wants):
                self.links.heard.append(raw)
                self._send.send_nowait(raw)
        if self.holding:  # every other seat answered: the mesh releases the table
            self.holding = False
            self._send.send_nowait(Release())


class Signed:
    """Every envelope ``key`` signed that anyone saw: one per place, or it equivocated."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.by_seq: dict[int, set[bytes]] = {}

    def note(self, raws: list[bytes]) -> None:
        for raw in raws:
            envelope = open_envelope(raw)
            if envelope.sender == self.key:
                self.by_seq.setdefault(envelope.seq, set()).add(envelope.digest)

    def twice(self) -> list[int]:
        return sorted(seq for seq, digests in self.by_seq.items() if len(digests) > 1)
