"""A failing run's schedule made short: the faults it still fails without are dropped.

Delta debugging over the schedule's list: try without each chunk of faults (halves,
then quarters... then one at a time); keep any smaller schedule that still fails
(with any violation: a different one is as worth a look, and usually the same
bug).  The seed stays: the people's answers and the latencies follow from it,
so what remains replays with ``--seed S --faults "..."``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from p2pbelka.sim.faults import Schedule

Fails = Callable[[Schedule], bool]


def shrink(schedule: Schedule, fails: Fails, budget: int = 40) -> Schedule:
    """The smallest schedule found (within ``budget`` reruns) for which ``fails`` holds."""
    runs = 0
    if schedule.slow and runs < budget:
        runs += 1
        calmer = replace(schedule, slow=0.0)
        if fails(calmer):
            schedule = calmer
    chunk = max(1, len(schedule.faults) // 2)
    while chunk >= 1 and runs < budget:
        index, removed = 0, False
        while index < len(schedule.faults) and runs < budget:
            faults = schedule.faults[:index] + schedule.faults[index + chunk :]
            candidate = replace(schedule, faults=faults)
            runs += 1
            if fails(candidate):
                schedule, removed = candidate, True
            else:
                index += chunk
        if not removed:
            chunk //= 2
    return schedule
