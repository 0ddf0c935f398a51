"""Four tables wired together with plain lists, no trio: for tests and benchmarks.

Sans-IO pays off here: the whole protocol runs deterministically in one call
stack, with an optional hook that can drop, alter or inject envelopes on the
way (the tests' dishonest network).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from p2pbelka.bots.base import Bot
from p2pbelka.peer.player import pump
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table

Tamper = Callable[[int, bytes], list[bytes]]
"""Given the sender's seat and an envelope, what actually goes out (default: itself)."""

Deliver = Callable[[int, int, bytes], bytes | None]
"""Given sender, recipient and an envelope, what that recipient gets (None: nothing)."""


def run_sync(
    tables: Sequence[Table],
    bots: Sequence[Bot],
    *,
    tamper: Tamper | None = None,
    deliver: Deliver | None = None,
    max_deliveries: int = 1_000_000,
) -> list[list[ev.Event]]:
    """Deliver every envelope to every other table until nothing moves; return each
    table's events.  A seat whose bot is asked nothing and whose peers wait for it is
    simply left waiting: the caller can ``abandon`` it, as a driver's timeout would."""
    events: list[list[ev.Event]] = [[] for _ in tables]
    queue: deque[tuple[int, bytes]] = deque()
    for _ in range(max_deliveries):
        for seat, table in enumerate(tables):
            _collect(table, bots[seat], events[seat], queue, seat, tamper)
        if not queue:
            return events
        source, raw = queue.popleft()
        for seat, table in enumerate(tables):
            if seat == source:
                continue
            received = deliver(source, seat, raw) if deliver else raw
            if received is not None:
                table.receive(received)
    raise RuntimeError("too many deliveries: the tables never settle")


def _collect(
    table: Table,
    bot: Bot,
    log: list[ev.Event],
    queue: deque[tuple[int, bytes]],
    seat: int,
    tamper: Tamper | None,
) -> None:
    for raw in pump(table, bot, log):
        for sent in tamper(seat, raw) if tamper else [raw]:
            queue.append((seat, sent))
