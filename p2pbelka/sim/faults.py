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

EVERYONE = -1
"""A cut's other end: every other seat."""
WINDOW = 60.0
"""The reconnect window the simulated peers run with (``NetOptions.give_up_after``)."""


@dataclass(frozen=True)
class Cut:
    """No byte from seat ``a`` reaches seat ``b`` (and none back unless ``one_way``)
    from ``at`` for ``length`` seconds.  ``b`` is ``EVERYONE`` for a seat cut off from
    the whole table (its cable pulled out)."""

    a: int
    b: int
    at: float
    length: float
    one_way: bool = False

    def covers(self, a: int, b: int) -> bool:
        """Whether it holds bytes from seat ``a`` to seat ``b``."""
        if self.b == EVERYONE:
            return a == self.a or (not self.one_way and b == self.a)
        return (self.a, self.b) == (a, b) or (not self.one_way and (self.b, self.a) == (a, b))

    @property
    def kind(self) -> str:
        way = "one-way" if self.one_way else "two-way"
        if self.b == EVERYONE:
            way = "isolation (one-way)" if self.one_way else "isolation"
        if math.isinf(self.length):
            span = "for good"
        elif self.length > WINDOW:
            span = "past the window"
        else:
            span = "inside the window"
        return f"{way} cut {span}"

    def __str__(self) -> str:
        arrow = "->" if self.one_way else "<->"
        b = "*" if self.b == EVERYONE else str(self.b)
        return f"cut {self.a}{arrow}{b}@{self.at:g}+{self.length:g}"


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
    (never, for ``math.inf``); ``twice``: resumed twice at once (the command run twice);
    ``power``: the machine lost its power, and with it what was not synced."""

    seat: int
    at: float
    down: float
    twice: bool = False
    power: bool = False

    @property
    def kind(self) -> str:
        what = "power cut" if self.power else "kill"
        if math.isinf(self.down):
            return f"{what} for good"
        return f"{what} past the window" if self.down > WINDOW else f"{what} and resume"

    def __str__(self) -> str:
        word = "power" if self.power else "kill"
        return f"{word} {self.seat}@{self.at:g}+{self.down:g}{'x2' if self.twice else ''}"


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
        return held_by(self.cuts(src, dst), now)

    def cuts(self, src: str, dst: str) -> tuple[Cut, ...]:
        """The cuts that hold bytes from host ``src`` to host ``dst``, in order."""
        a, b = seat_of(src), seat_of(dst)
        return tuple(f for f in self.faults if isinstance(f, Cut) and f.covers(a, b))

    def without(self, index: int) -> Schedule:
        return replace(self, faults=self.faults[:index] + self.faults[index + 1 :])

    def __str__(self) -> str:
        items = [str(f) for f in self.faults] or ["no faults"]
        if self.slow:
            items.append(f"slow {self.slow:g}/{self.spike:g}")
        return "; ".join(items)


def held_by(cuts: tuple[Cut, ...], now: float) -> float:
    """Until when ``cuts`` (one direction's, ``Schedule.cuts``) hold bytes sent at ``now``
    (``now`` itself if they do not): a cut that ends inside another holds on to its end."""
    until = now
    moved = True
    while moved:
        moved = False
        for f in cuts:
            if f.at <= until < f.at + f.length:
                until, moved = f.at + f.length, True
                if math.isinf(until):
                    return until
    return until


def host_of(seat: int) -> str:
    """The simulated address of the program that started in ``seat``."""
    return f"10.0.0.{seat + 1}"


def seat_of(host: str) -> int:
    return int(host.rsplit(".", 1)[1]) - 1


def draw(rng: random.Random, seats: int, horizon: float, *, twice: bool = True) -> Schedule:
    """A schedule for a game of ``seats`` seats expected to last about ``horizon``
    seconds: none to a few faults of each kind, of every length the issue names
    (``twice``: a resume may start twice at once)."""
    faults: list[Fault] = []
    lengths = (
        lambda: rng.uniform(0.5, 10.0),  # a blip
        lambda: rng.uniform(10.0, WINDOW),  # inside the window
        lambda: rng.uniform(WINDOW, 3 * WINDOW),  # past it
        lambda: math.inf,  # past the game's end
    )
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        a, b = rng.sample(range(seats), 2)
        if rng.random() < 0.4:
            b = EVERYONE
        length = rng.choice(lengths)()
        faults.append(Cut(a, b, _when(rng, horizon), round(length, 3), rng.random() < 0.3))
    for _ in range(rng.choice((0, 0, 1, 2))):
        a, b = rng.sample(range(seats), 2)
        faults.append(Reset(a, b, _when(rng, horizon)))
    for _ in range(rng.choice((0, 0, 0, 1, 1, 2))):
        down = rng.choice((rng.uniform(0.0, 5.0), rng.uniform(5.0, WINDOW), 2 * WINDOW))
        again, power = rng.random() < 0.1, rng.random() < 0.5
        seat, at = rng.randrange(seats), _when(rng, horizon)
        faults.append(Kill(seat, at, round(down, 3), again and twice, power))
    slow = rng.choice((0.0, 0.0, 0.001, 0.01))
    if seats > 2 and rng.random() < PILE_UP:
        faults += pile_up(rng, seats, horizon)
    faults.sort(key=lambda f: f.at)
    return Schedule(tuple(faults), slow)


PILE_UP = 0.4
"""The share of runs (of three seats or more) with a pile-up drawn besides."""


def pile_up(rng: random.Random, seats: int, horizon: float) -> list[Fault]:
    """A bad day's two faults, the second timed by the first, which independent draws
    line up too seldom: seat ``a`` cut off past the window (a bot takes its seat), and

    - seat ``b``'s sending cut as the seat change begins, and ``b`` killed a few
      seconds after: it may have signed the continuation, its signature lost, and
      resumes holding that agreement (``idle -> agreed``);
    - or ``b`` lost past the window about when ``a`` is back: ``a`` watches its seat
      played and fetches the game from the seats it reaches, the seat handed back is
      considered while ``b`` is waited for, and a no goes back to that wait
      (``considering -> awaiting``)."""
    a, b = rng.sample(range(seats), 2)
    at = _when(rng, horizon * 0.7)
    length = round(rng.uniform(1.2 * WINDOW, 2.5 * WINDOW), 3)
    first = Cut(a, EVERYONE, at, length)
    if rng.random() < 0.4:
        # The others give up on ``a`` about a window in and sign within seconds: the
        # proposer seals at once, unless ``b``'s signature is held (its cable out a
        # while) and lost with the kill.
        held = Cut(b, EVERYONE, round(at + WINDOW - 10.0, 3), 25.0, one_way=True)
        when = round(at + WINDOW + rng.uniform(4.0, 12.0), 3)
        down = round(rng.uniform(0.5, WINDOW / 2), 3)
        return [first, held, Kill(b, when, down, power=rng.random() < 0.5)]
    when = round(max(at + 1.0, at + length + rng.uniform(-50.0, 60.0)), 3)
    second = rng.choice((rng.uniform(WINDOW, 3 * WINDOW), math.inf))
    if rng.random() < 0.5:
        return [first, Kill(b, when, 2 * WINDOW)]
    return [first, Cut(b, EVERYONE, when, round(second, 3))]


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
            other = EVERYONE if b == "*" else int(b)
            faults.append(Cut(int(a), other, float(at), float(extra), one_way))
        elif word == "reset":
            a, b = where.split("-")
            faults.append(Reset(int(a), int(b), float(at)))
        elif word in ("kill", "power"):
            twice = extra.endswith("x2")
            down = float(extra.removesuffix("x2"))
            faults.append(Kill(int(where), float(at), down, twice, word == "power"))
        else:
            raise ValueError(f"unknown fault {item!r}")
    return Schedule(tuple(faults), slow, spike)
