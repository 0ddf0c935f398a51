"""A decision's time budget: stop adding worlds once it is spent, after a least number.

A search over sampled worlds can stop after any world (every candidate move is
valued on each world, so the means compare at any count). On a busy machine
the budget keeps a decision inside its time by valuing fewer worlds; on a
quiet one it is not reached and the seeded bot plays as without it. The clock
is passed in (tests give one that advances as they please).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]
"""Seconds, from any origin."""


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``seconds`` a decision (None: no limit), but always ``least`` worlds."""

    seconds: float | None = None
    least: int = 8
    clock: Clock = field(default=time.perf_counter, compare=False)

    def start(self) -> Callable[[int], bool]:
        """Start a decision's clock: ``spent(k)`` says whether to stop before world ``k``."""
        if self.seconds is None:
            return _never
        deadline = self.clock() + self.seconds
        least, clock = self.least, self.clock

        def spent(k: int) -> bool:
            return k >= least and clock() >= deadline

        return spent


def _never(k: int) -> bool:
    return False


UNLIMITED = Budget()
"""No time limit: the bot values every world it drew (reproducible by seed)."""


TABLE_SECONDS = 0.8
"""An unseeded seat bot's budget a decision at think level 1 (its p99 stays under a second
on a busy machine); think level N has N times as long."""


def table_budget(think: int = 1) -> Budget:
    """The budget of a seat bot made without a seed (a player's opponent at a table):
    nobody replays its moves, so it keeps the time instead of every world; a seeded bot
    stays :data:`UNLIMITED`, reproducible on any machine."""
    return Budget(seconds=TABLE_SECONDS * think)
