"""The wall clock as a seat's program reads it: when a game's result certificate was
made, when a game was saved, a chat line's counter.  The real clock by default; a
simulator swaps in its own for the whole process (``use``), so a run and everything
it writes (certificates included) follows from its seed alone.

(Timers and timeouts are trio's clock, never this one: a simulator's ``MockClock``.)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

_clock: Callable[[], float] = time.time


def now() -> float:
    """Seconds since the epoch (``time.time``, unless a simulator's clock is in use)."""
    return _clock()


@contextlib.contextmanager
def use(clock: Callable[[], float]) -> Iterator[None]:
    """The whole process on ``clock`` for the block (a simulator's: one process, one
    clock)."""
    global _clock
    saved, _clock = _clock, clock
    try:
        yield
    finally:
        _clock = saved
