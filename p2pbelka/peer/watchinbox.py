"""What a watcher read from its host and has not shown and written yet.

A watcher reads its link in a task of its own (``peer/watch.py``) and puts each
payload here; the task that checks, writes and shows them takes them out.  So a
screen or a disk slowed by a busy machine never stops the reading: the host sees
its feed taken as fast as the link goes (its end waits on a link, not on a screen,
protocol/SPEC.md section 7.5), and a watcher's silence timer measures the link.
Bounded in bytes: a watcher that falls that far behind stops reading, and the
host's own bound (``lan/watchers.py``, ``BEHIND``) decides.
"""

from __future__ import annotations

from collections import deque

import trio


class Inbox:
    """Payloads in the order read, ``limit`` bytes at most (one payload at least); once
    the reading ends, why (``close``), raised to the taker after the last payload."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._items: deque[bytes] = deque()
        self._end: Exception | None = None
        self._moved = trio.Event()

    def _poke(self) -> None:
        self._moved.set()
        self._moved = trio.Event()

    async def put(self, payload: bytes) -> None:
        """Add ``payload`` once there is room for it (the reader waits, not the link)."""
        while self._items and self.size + len(payload) > self.limit:
            await self._moved.wait()
        self._items.append(payload)
        self.size += len(payload)
        self._poke()

    def close(self, end: Exception) -> None:
        """Nothing more comes: ``end`` is raised to the taker once it has taken the rest."""
        self._end = end
        self._poke()

    @property
    def empty(self) -> bool:
        return not self._items

    def _take_nowait(self) -> bytes | None:
        """The next payload, or None when none is waiting (nor the end)."""
        if not self._items:
            if self._end is not None:
                raise self._end
            return None
        payload = self._items.popleft()
        self.size -= len(payload)
        self._poke()
        return payload

    async def take(self) -> bytes:
        """The next payload, once it came (a checkpoint: the reader runs between two)."""
        await trio.lowlevel.checkpoint()
        while (payload := self._take_nowait()) is None:
            await self._moved.wait()
        return payload
