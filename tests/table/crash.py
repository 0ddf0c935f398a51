"""A sans-IO game where one seat crashes and is rebuilt from its transcript (for tests)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import pump
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeedSources
from p2pbelka.table.session import Table


class Recorded:
    """A seed source that remembers what it gave, as a peer's secrets file does."""

    def __init__(self, source: Callable[[], bytes]) -> None:
        self.source = source
        self.drawn: list[bytes] = []

    def __call__(self) -> bytes:
        value = self.source()
        self.drawn.append(value)
        return value

    def replaying(self) -> Callable[[], bytes]:
        saved = iter(list(self.drawn))
        return lambda: next(saved, None) or self()


class RecordedSegments:
    """A seat's secrets as a peer keeps them: one recorded source per segment (the
    first from ``first``, each later one a stream of its own), and, to resume, a
    ``SeedSources`` that replays each segment's values in turn."""

    def __init__(self, first: Callable[[], bytes]) -> None:
        self.first = Recorded(first)
        self.later: list[Recorded] = []

    def next_segment(self) -> Recorded:
        """The source of the seat's next segment (fresh values, none of the first's)."""
        rng = random.Random(f"segment {len(self.later) + 1} of {self.first.source!r}")
        source = Recorded(lambda: rng.randbytes(32))
        self.later.append(source)
        return source

    def drawn(self) -> list[bytes]:
        return [value for source in (self.first, *self.later) for value in source.drawn]

    def replaying(self) -> SeedSources:
        sources = iter([self.first, *self.later])
        return lambda segment: next(sources).replaying()


def catch_up(table: Table, others: list[Table]) -> None:
    for other in others:
        for seat, seq in enumerate(table.view.wants()):
            for raw in other.view.envelopes_from(seat, seq):
                table.receive(raw)


def play_with_a_crash(
    game: LocalGame, victim: int, crash_after: int, phases: set[str]
) -> tuple[list[Table], str]:
    """Play ``game``; after ``crash_after`` deliveries, once ``victim`` is in one of
    ``phases``, drop its table and resume it from its transcript.  Returns the tables
    and the phase the victim crashed in ("" if it never did)."""
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    n = len(tables)
    bots = [make_bot("random", s) for s in range(n)]
    logs: list[list[ev.Event]] = [[] for _ in range(n)]
    queue: deque[tuple[int, bytes]] = deque()
    saved: list[Envelope] = []
    crashed_in = ""
    for deliveries in range(1_000_000):
        for seat, table in enumerate(tables):
            queue.extend((seat, raw) for raw in pump(table, bots[seat], logs[seat]))
        table = tables[victim]
        if deliveries >= crash_after and not crashed_in and table.state.phase.value in phases:
            crashed_in, saved = table.state.phase.value, list(table.view.transcript)
            tables[victim] = Table.resume(
                game.signers[victim], saved, seed_source=recorded.replaying()
            )
            catch_up(tables[victim], [t for s, t in enumerate(tables) if s != victim])
            tables[victim].release()
            continue
        if not queue:
            before = [len(t.view.transcript) for t in tables]
            for seat, t in enumerate(tables):
                catch_up(t, [o for s, o in enumerate(tables) if s != seat])
            if [len(t.view.transcript) for t in tables] == before:
                break
            continue
        source, raw = queue.popleft()
        for seat, t in enumerate(tables):
            if seat != source:
                t.receive(raw)
    return tables, crashed_in
