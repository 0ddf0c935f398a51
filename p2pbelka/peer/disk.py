"""The disk as a seat's store sees it: what waits for the disk (a sync) and where
blocking work runs.  The real disk by default; a simulator swaps in one of its
own for the whole process (``use``).

The store's durability is its promise (store.py: nothing is sent before what it
was computed from is synced), so a simulated power cut must know what a sync
covered: every ``fdatasync``/``fsync`` of the store goes through here.  A
simulated disk also runs blocking work inline, with no thread: a worker thread's
round trip would let trio's mock clock jump meanwhile, by however long the
thread took, and a run would no longer replay from its seed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

import trio

from p2pbelka.protocol.transcript import datasync as os_datasync

T = TypeVar("T")


class Disk(Protocol):
    threads: bool
    """Whether blocking work may go to worker threads (a real disk: yes)."""

    def datasync(self, fd: int) -> None:
        """The data of an open file on the disk (``fdatasync``)."""

    def fsync(self, path: Path) -> None:
        """A file or a directory (its names) on the disk."""

    async def blocking(self, work: Callable[[], T]) -> T:
        """``work``'s result, run where it may block (a worker thread, for a real disk)."""
        ...


class RealDisk:
    threads = True

    def datasync(self, fd: int) -> None:
        os_datasync(fd)

    def fsync(self, path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    async def blocking(self, work: Callable[[], T]) -> T:
        return await trio.to_thread.run_sync(work)


_disk: Disk = RealDisk()


def current() -> Disk:
    return _disk


@contextlib.contextmanager
def use(disk: Disk) -> Iterator[None]:
    """The whole process on ``disk`` for the block (a simulator's: one process, one disk)."""
    global _disk
    saved, _disk = _disk, disk
    try:
        yield
    finally:
        _disk = saved
