"""The host's watchers at the end of its game (peer/lan/watchers.py ``Feed.end``): a
watcher still taking the feed gets all of it however far behind it is (one payload a
write once the game is over); one that takes nothing is dropped after the grace; one
that trickles for ever, at the limit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
import trio
import trio.testing
from trio.testing import MockClock

from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan import watchers
from p2pbelka.peer.lan.events import LobbyEvent, WatchersCatchingUp, WatcherView
from p2pbelka.peer.lan.watchers import ALIVE, ALIVE_EVERY, FED_GRACE, FED_LIMIT, Feed
from p2pbelka.ui.words.lobbylog import event_line

ME = Identity.generate("Watcher")
REAL_BATCH = watchers.BATCH
TOLD: list[LobbyEvent] = []
"""What the feeds told the host's front end (cleared for each test)."""


@pytest.fixture(autouse=True)
def one_payload_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each write carries one payload, so a slow link takes the feed payload by payload."""
    monkeypatch.setattr(watchers, "BATCH", 1)
    TOLD.clear()


VIEW = WatcherView(ME.public_key, "Dana", "127.0.0.1", watcher=True)


@dataclass
class Record:
    raw: bytes


@dataclass
class PacedChannel:
    """A watcher's channel that takes one write every ``pace`` seconds (None: never)
    and says nothing (the ``alive`` that keeps the link up is not kept)."""

    pace: float | None
    taken: list[bytes] = field(default_factory=list)

    async def send(self, payload: bytes) -> None:
        await self.send_many([payload])

    async def send_many(self, payloads: list[bytes]) -> None:
        payloads = [p for p in payloads if p != ALIVE]
        if not payloads:
            return
        if self.pace is None:
            await trio.sleep_forever()
        await trio.sleep(self.pace)
        self.taken += payloads

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        await trio.sleep_forever()
        raise AssertionError("not reached")


async def fed_at_the_end(channel: PacedChannel, records: int) -> tuple[Feed, float]:
    """A feed with one watcher on ``channel``, ``records`` records written, then the end:
    the feed and the seconds ``end`` took."""
    feed = Feed(1, tell=TOLD.append)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(feed.serve, channel, VIEW, 0)  # type: ignore[arg-type]
        await trio.testing.wait_all_tasks_blocked()  # the watcher is in
        for n in range(records):
            feed.record(Record(b"\x92" + n.to_bytes(2, "big")))  # type: ignore[arg-type]
        start = trio.current_time()
        await feed.end()
        took = trio.current_time() - start
    return feed, took


async def test_a_watcher_far_behind_but_moving_gets_the_whole_feed(
    autojump_clock: MockClock,
) -> None:
    channel = PacedChannel(pace=FED_GRACE * 0.6)
    feed, took = await fed_at_the_end(channel, 25)
    # the watching word, every record, then fed: nothing dropped, though the rest took
    # far longer than one grace
    assert channel.taken[1:-1] == feed.records and len(feed.records) == 25
    assert lb.decode_control(channel.taken[-1]) == lb.Fed(25)
    assert feed.stats["dropped"] == 0
    assert took > 4 * FED_GRACE


@dataclass
class ReadingChannel(PacedChannel):
    """A watcher that takes one payload every ``pace`` seconds however they are written:
    one that reads and shows a record at a time, a write of many taking it long."""

    async def send_many(self, payloads: list[bytes]) -> None:
        for payload in payloads:
            if payload != ALIVE:
                await trio.sleep(self.pace or 0.0)
                self.taken.append(payload)


async def test_after_the_end_a_watcher_reading_record_by_record_gets_the_rest(
    autojump_clock: MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writes of the real size: the rest of the game would go in one write, which a
    # watcher taking a record every 3 s takes over a minute to read, moving all along.
    monkeypatch.setattr(watchers, "BATCH", REAL_BATCH)
    channel = ReadingChannel(pace=FED_GRACE * 0.6)
    feed, took = await fed_at_the_end(channel, 25)
    assert channel.taken[1:-1] == feed.records
    assert lb.decode_control(channel.taken[-1]) == lb.Fed(25)
    assert feed.stats["dropped"] == 0
    assert took > 4 * FED_GRACE


async def test_a_watcher_that_takes_nothing_is_dropped_after_the_grace(
    autojump_clock: MockClock,
) -> None:
    feed, took = await fed_at_the_end(PacedChannel(pace=None), 3)
    assert feed.stats["dropped"] == 1
    assert FED_GRACE <= took < 2 * FED_GRACE


async def test_a_watcher_that_trickles_for_ever_is_dropped_at_the_limit(
    autojump_clock: MockClock,
) -> None:
    channel = PacedChannel(pace=FED_GRACE * 0.9)
    records = int(FED_LIMIT / channel.pace) * 2  # twice what the limit lets it take
    feed, took = await fed_at_the_end(channel, records)
    assert feed.stats["dropped"] == 1
    assert len(channel.taken) < records
    assert FED_LIMIT <= took < FED_LIMIT + FED_GRACE


async def test_a_watcher_of_a_quiet_game_is_told_the_link_is_alive(
    autojump_clock: MockClock,
) -> None:
    # A person thinking: no record for minutes, and still a byte every few seconds.
    class Kept(PacedChannel):
        async def send(self, payload: bytes) -> None:
            self.taken.append(payload)

    channel, feed = Kept(pace=0.0), Feed(1)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(feed.serve, channel, VIEW, 0)  # type: ignore[arg-type]
        await trio.sleep(ALIVE_EVERY * 3.5)
        nursery.cancel_scope.cancel()
    assert lb.decode_control(channel.taken[0]) == lb.Watching("off")
    assert channel.taken[1:] == [ALIVE] * 3


async def test_the_host_s_person_is_told_its_program_waits_for_a_watcher_behind(
    autojump_clock: MockClock,
) -> None:
    await fed_at_the_end(PacedChannel(pace=0.0), 3)  # fed at once: nothing to say
    assert not any(isinstance(event, WatchersCatchingUp) for event in TOLD)
    await fed_at_the_end(PacedChannel(pace=FED_GRACE * 0.6), 5)
    (said,) = [event for event in TOLD if isinstance(event, WatchersCatchingUp)]
    assert said == WatchersCatchingUp((VIEW,), FED_GRACE, FED_LIMIT)
    line = event_line(said)
    assert line is not None and "Dana" in line and "120 s at most" in line
