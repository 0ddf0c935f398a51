"""What a run reached, counted for the long run's report: every seat-change stage
and transition, every recovery path the peers logged, every fault kind.

Nothing here changes what the peers do, but for one thing: every seat-change machine
of the run is strict (an undeclared transition raises).  Its one transition function
is wrapped on its class for the run only (the machines are made deep inside the
peers' code, each with its own ``on_transition`` left free); the recovery paths are
the peers' own log lines, counted by their templates (``"link to seat %d up
(%s)"``), never by their text, so a seat number or an address does not split a
count.  The log lines are kept off the terminal meanwhile: a simulated cut
makes the peers say, correctly, a great deal.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from p2pbelka.peer.seatchange.core import MachineCore
from p2pbelka.peer.seatchange.stages import StageData

PATHS: Mapping[str, str] = {
    "link to seat %d up (%s)": "link up (a dial or an accept)",
    "link to seat %d down: %s": "link down",
    "link to seat %d dropped: %s: %s": "link dropped",
    "cannot reach seat %d at %s:%d: %s": "redial failed",
    "resumed: every seat answered: %s": "resumed: the others answered",
    "watching: fetching the game from record %d from seat %d": "fetch (a seat watching)",
    "%s: this seat may sign again": "released (may sign again)",
    "seat %d not handed back: %s": "hand-back refused",
    "a fresh bot for seat %d put off by our player": "fresh bot put off (a bot lost)",
    "cannot listen on port %d again: %s": "resume on another port",
}
"""Log templates that name a recovery path, and the name the report gives each; every
other template is counted as it is, under "log"."""


class _Watched:
    """The seat-change machine's one transition function, with each transition counted
    (in the names of ``peer/seatchange/stages.py``), and every machine made strict: an
    undeclared transition is raised, a violation, not given up as in the field."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts
        self.go = MachineCore._go
        self.init = MachineCore.__init__

    def install(self) -> None:
        counts, go, init = self.counts, self.go, self.init

        def counted(machine: MachineCore, new: StageData) -> None:
            before = machine.at.name
            go(machine, new)
            counts[f"stage {new.name.value}"] += 1
            counts[f"transition {before.value} -> {new.name.value}"] += 1

        def strict(machine: MachineCore, *args: Any, **kwargs: Any) -> None:
            init(machine, *args, **kwargs)
            machine.strict = True

        setattr(MachineCore, "_go", counted)  # noqa: B010 (for the run only)
        setattr(MachineCore, "__init__", strict)  # noqa: B010

    def remove(self) -> None:
        setattr(MachineCore, "_go", self.go)  # noqa: B010
        setattr(MachineCore, "__init__", self.init)  # noqa: B010


class _Counting(logging.Handler):
    def __init__(self, counts: Counter[str]) -> None:
        super().__init__(logging.INFO)
        self.counts = counts

    def emit(self, record: logging.LogRecord) -> None:
        template = str(record.msg)
        name = PATHS.get(template)
        self.counts[f"path {name}" if name else f"log {record.levelname.lower()}: {template}"] += 1


@contextlib.contextmanager
def counting(counts: Counter[str]) -> Iterator[None]:
    """Count into ``counts`` for the block (and keep the peers' log off the terminal)."""
    logger = logging.getLogger("p2pbelka")
    handler = _Counting(counts)
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    watched = _Watched(counts)
    watched.install()
    try:
        yield
    finally:
        watched.remove()
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
