"""A watcher whose screen is slower than the game, when the game ends: the real host's
feed (``lan/watchers.py``) and the real watcher (``peer/watch.py``) over a real secure
channel, on in-memory streams that hold nothing (a write ends once the other side read
it, as a full socket buffer does), under a mock clock.  The watcher reads the link as
it comes whatever its screen is doing, so the host's end sees the feed taken, sends
``fed`` and closes at once, and the watcher still shows the whole game, to ``fed``."""

from __future__ import annotations

import functools
import random
import tempfile
from collections import Counter
from pathlib import Path

import trio
import trio.testing
from trio.testing import MockClock

from p2pbelka.net.channel import SecureChannel
from p2pbelka.net.connection import open_secure_channel
from p2pbelka.net.handshake import Role
from p2pbelka.net.identity import Identity
from p2pbelka.peer import disk, watch
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan.events import WatcherView
from p2pbelka.peer.lan.watchers import FED_GRACE, Feed
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.sim.disk import SimDisk
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.session import Table

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


@functools.cache
def whole_game() -> list[Envelope]:
    """A whole game (some 370 KB): far more than one write, or one read, carries.  Read
    when the test runs (opening its envelopes is a twentieth of a CPU-second that every
    worker's collection paid)."""
    return [
        r.envelope for r in iter_records((VECTORS / "paths" / "passes-cancel.p2pb").read_bytes())
    ]


HOST = Identity.generate("Host")
DANA = Identity.generate("Dana")
GAME_PACE = 0.02
"""Seconds between two records of the game (bots)."""
SCREEN_PACE = 0.1
"""Seconds the watcher's screen takes to show one record: five times the game's pace."""


class SlowScreen:
    """A ``WatchFront`` that takes ``SCREEN_PACE`` seconds a record (a busy machine)."""

    def __init__(self) -> None:
        self.shown = 0

    async def lobby(self, state: lb.LobbyState) -> None: ...

    async def admitted(self, chat: str, send: watch.Say | None = None) -> None: ...

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        await trio.sleep(SCREEN_PACE)
        self.shown += 1

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None: ...

    async def note(self, note: watch.WatchNote) -> None: ...

    async def ended(self, report: VerifyReport, path: Path | None) -> None: ...


async def lockstep_channels() -> tuple[SecureChannel, SecureChannel]:
    """The host's and the watcher's ends: a write ends when the other end has read it."""
    left, right = trio.testing.lockstep_stream_pair()
    ends: dict[str, SecureChannel] = {}

    async def side(name: str, stream: trio.abc.Stream, who: Identity, role: Role) -> None:
        ends[name] = await open_secure_channel(stream, who, role, context=lb.LOBBY_CONTEXT)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(side, "host", left, HOST, Role.RESPONDER)
        nursery.start_soon(side, "watcher", right, DANA, Role.INITIATOR)
    return ends["host"], ends["watcher"]


def lobby() -> bytes:
    setup = whole_game()[0].msg
    seats = tuple(lb.SeatView(s.key, s.name, True) for s in setup.seats)  # type: ignore[attr-defined]
    return lb.encode_control(lb.LobbyState(b"t" * 16, "club", "classic", {}, seats, "belka", 0))


async def test_a_watcher_with_a_slow_screen_is_fed_the_whole_game_when_it_ends(
    autojump_clock: MockClock,
) -> None:
    host_end, watcher_end = await lockstep_channels()
    feed, screen = Feed(1), SlowScreen()
    ended: dict[str, float] = {}

    async def host() -> None:
        await host_end.send(lobby())
        asked = lb.decode_control(await host_end.receive())
        assert isinstance(asked, lb.Watch) and asked.start == 0
        view = WatcherView(DANA.public_key, "Dana", "10.0.0.2", watcher=True)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(feed.serve, host_end, view, 0)
            for envelope in whole_game():  # the game, at its own pace: the screen falls behind
                feed.record(envelope)
                await trio.sleep(GAME_PACE)
            start = trio.current_time()
            await feed.end()
            ended["took"] = trio.current_time() - start
        await host_end.aclose()  # the host's program is over

    # a disk that syncs inline (no worker thread for the mock clock to jump across)
    with tempfile.TemporaryDirectory() as games, disk.use(SimDisk(random.Random(0), Counter())):
        follower = watch.Feed(DANA, screen, Path(games))
        follower.host_key = whole_game()[0].sender
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host)
            async with watcher_end:
                await follower.follow(watcher_end, "10.0.0.1:5000")  # FeedBroken: lost
            fed_at = trio.current_time()
    # the screen was far behind when the game ended ...
    assert fed_at - GAME_PACE * len(whole_game()) > 10 * FED_GRACE
    # ... yet it showed every record and ``fed`` came, and the host was not held by it
    assert screen.shown == follower.held == len(whole_game())
    assert feed.stats["dropped"] == 0
    assert ended["took"] < FED_GRACE
