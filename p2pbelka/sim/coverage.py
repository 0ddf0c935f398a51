"""What a run reached, counted for the long run's report: every seat-change stage
and transition, every recovery path the peers logged, every fault kind.

Nothing here changes what the peers do.  The seat-change machine's ``stage`` is
watched by a descriptor set on its class for the run only (the machine has no
hook of its own, and needs none outside a simulation); the recovery paths are
the peers' own log lines, counted by their templates (``"link to seat %d up
(%s)"``), never by their text, so a seat number or an address does not split a
count.  The log lines are kept off the terminal meanwhile: a simulated cut
makes the peers say, correctly, a great deal.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from collections.abc import Iterator
from typing import Any

from p2pbelka.peer.seatchange import SeatChange

PATHS: dict[str, str] = {
    "link to seat %d up (%s)": "link up (a dial or an accept)",
    "link to seat %d down: %s": "link down",
    "link to seat %d dropped: %s: %s": "link dropped",
    "cannot reach seat %d at %s:%d: %s": "redial failed",
    "resumed: every seat answered: %s": "resumed: the others answered",
    "watching: fetching the game from record %d from seat %d": "fetch (a seat watching)",
    "%s: this seat may sign again": "released (may sign again)",
    "seat %d not handed back: %s": "hand-back refused",
    "cannot listen on port %d again: %s": "resume on another port",
}
"""Log templates that name a recovery path, and the name the report gives each; every
other template is counted as it is, under "log"."""


class _Watched:
    """``SeatChange.stage``, with each change counted."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return obj.__dict__["stage"]

    def __set__(self, obj: object, value: Any) -> None:
        old = obj.__dict__.get("stage")
        obj.__dict__["stage"] = value
        self.counts[f"stage {value.value}"] += 1
        if old is not None and old is not value:
            self.counts[f"transition {old.value} -> {value.value}"] += 1


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
    setattr(SeatChange, "stage", _Watched(counts))  # noqa: B010 (the class has no such attribute)
    try:
        yield
    finally:
        delattr(SeatChange, "stage")
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
