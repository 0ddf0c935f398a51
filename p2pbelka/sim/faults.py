"""A run's faults, drawn from its seed: a list a failing run can be shrunk by.

Every fault is a plain value (what, between whom, when, how long), so a schedule
prints as a line a person can read and a replay can take back (``parse``).
Times are simulated seconds from the start of the game (the first deal's
shuffle); ``math.inf`` is a cut that never heals.  The people's answers and the
network's latencies are not faults: they follow from the seed alone.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

WINDOW = 60.0
"""The reconnect window the simulated peers run with (``NetOptions.give_up_after``)."""


@dataclass(frozen=True)
class Cut:
    """No byte from seat ``a`` reaches seat ``b`` (and none back unless ``one_way``)
    from ``at`` for ``length`` seconds."""

    a: int
    b: int
    at: float
    length: float
    one_way: bool = False

    @property
    def kind(self) -> str:
        way = "one-way" if self.one_way else "two-way"
        if math.isinf(self.length):
            span = "for good"
        elif self.length > WINDOW:
            span = "past the window"
        else:
            span = "inside the window"
        return f"{way} cut {span}"

    def __str__(self) -> str:
        arrow = "->" if self.one_way else "<->"
        return f"cut {self.a}{arrow}{self.b}@{self.at:g}+{self.length:g}"


@dataclass(frozen=True)
class Reset:
    """Every stream between seats ``a`` and ``b`` breaks at ``at``."""

    a: int
    b: int
    at: float
    kind: str = field(default="reset", init=False)

    def __str__(self) -> str:
        return f"reset {self.a}-{self.b}@{self.at:g}"


@dataclass(frozen=True)
class Kill:
    """Seat ``seat``'s program is killed at ``at`` and resumed ``down`` seconds later
    (never, for ``math.inf``)."""

    seat: int
    at: float
    down: float

    @property
    def kind(self) -> str:
        if math.isinf(self.down):
            return "kill for good"
        return "kill past the window" if self.down > WINDOW else "kill and resume"

    def __str__(self) -> str:
        return f"kill {self.seat}@{self.at:g}+{self.down:g}"


Fault = Cut | Reset | Kill


@dataclass(frozen=True)
class Schedule:
    """The faults of one run, and how slow its network is."""

    faults: tuple[Fault, ...] = ()
    slow: float = 0.0  # the share of chunks that stall
    spike: float = 2.0  # the longest stall, seconds

    def held_until(self, src: str, dst: str, now: float) -> float:
        """Until when bytes from host ``src`` to host ``dst`` are held at ``now`` (``now``
        itself if they are not)."""
        a, b = seat_of(src), seat_of(dst)
        until = now
        moved = True
        while moved:
            moved = False
            for f in self.faults:
                if not isinstance(f, Cut) or not f.at <= until < f.at + f.length:
                    continue
                if (f.a, f.b) == (a, b) or (not f.one_way and (f.b, f.a) == (a, b)):
                    until, moved = f.at + f.length, True
                    if math.isinf(until):
                        return until
        return until

    def without(self, index: int) -> Schedule:
        return replace(self, faults=self.faults[:index] + self.faults[index + 1 :])

    def __str__(self) -> str:
        items = [str(f) for f in self.faults] or ["no faults"]
        if self.slow:
            items.append(f"slow {self.slow:g}/{self.spike:g}")
        return "; ".join(items)


def host_of(seat: int) -> str:
    """The simulated address of the program that started in ``seat``."""
    return f"10.0.0.{seat + 1}"


def seat_of(host: str) -> int:
    return int(host.rsplit(".", 1)[1]) - 1


def draw(rng: random.Random, seats: int, horizon: float, *, kills: bool = True) -> Schedule:
    """A schedule for a game of ``seats`` seats expected to last about ``horizon``
    seconds: none to a few faults of each kind, of every length the issue names."""
    faults: list[Fault] = []
    lengths = (
        lambda: rng.uniform(0.5, 10.0),  # a blip
        lambda: rng.uniform(10.0, WINDOW),  # inside the window
        lambda: rng.uniform(WINDOW, 3 * WINDOW),  # past it
        lambda: math.inf,  # past the game's end
    )
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        a, b = rng.sample(range(seats), 2)
        length = rng.choice(lengths)()
        faults.append(Cut(a, b, _when(rng, horizon), round(length, 3), rng.random() < 0.3))
    for _ in range(rng.choice((0, 0, 1, 2))):
        a, b = rng.sample(range(seats), 2)
        faults.append(Reset(a, b, _when(rng, horizon)))
    if kills:
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2))):
            down = rng.choice((rng.uniform(0.0, 5.0), rng.uniform(5.0, WINDOW), 2 * WINDOW))
            faults.append(Kill(rng.randrange(seats), _when(rng, horizon), round(down, 3)))
    slow = rng.choice((0.0, 0.0, 0.001, 0.01))
    faults.sort(key=lambda f: f.at)
    return Schedule(tuple(faults), slow)


def _when(rng: random.Random, horizon: float) -> float:
    return round(rng.uniform(0.0, horizon), 3)


def parse(text: str) -> Schedule:
    """The schedule ``str(schedule)`` printed (a replay's ``--faults``)."""
    faults: list[Fault] = []
    slow, spike = 0.0, 2.0
    for item in (part.strip() for part in text.split(";")):
        if not item or item == "no faults":
            continue
        word, rest = item.split(" ", 1)
        if word == "slow":
            s, p = rest.split("/")
            slow, spike = float(s), float(p)
            continue
        where, when = rest.split("@")
        at, _, extra = when.partition("+")
        if word == "cut":
            one_way = "<->" not in where
            a, b = where.split("<->" if not one_way else "->")
            faults.append(Cut(int(a), int(b), float(at), float(extra), one_way))
        elif word == "reset":
            a, b = where.split("-")
            faults.append(Reset(int(a), int(b), float(at)))
        elif word == "kill":
            faults.append(Kill(int(where), float(at), float(extra)))
        else:
            raise ValueError(f"unknown fault {item!r}")
    return Schedule(tuple(faults), slow, spike)
