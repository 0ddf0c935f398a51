"""Exchange vectors of ``alive`` as the watcher takes it (protocol/SPEC.md section 7.5):
the reference watcher's ``Feed.follow`` (``peer/watch.py``) on ``exchange_live``'s
channels under a mock clock, the host a probe that goes quiet:

- ``silent-host``: ``lobby``, ``watching``, ``alive`` at 0 s and 5 s, then nothing
  with the connection open: the watcher takes the host for away 20 s after the last
  payload (at 25 s) and leaves the connection (the reference then dials again);
- ``older-host``: ``lobby``, ``watching`` and no ``alive`` ever, 60 s of silence: the
  watcher waits on as long as the connection stays open, then the host closes it
  (before ``fed``: the feed is broken).

The watcher holds no record (the game has none yet), so nothing is written to disk.
"""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

from p2pbelka.bench import exchange_control as ecl
from p2pbelka.bench.exchange_live import (
    LOBBY_CONTEXT,
    Cases,
    Probe,
    channel_pair,
    now,
    run_cases,
)
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.watch import Feed, FeedBroken, Say, WatchNote
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.session import Table

DANA = Identity.from_seed(bytes([0x14]) * 32, "Dana")
LOBBY = lb.encode_control(ecl.plan(auto=True).state())
WATCHING = lb.encode_control(lb.Watching("off"))
ALIVE = lb.encode_control(lb.Alive())


class _Screen:
    """The watcher's front end: what it is told, in order (none of it is a record)."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def lobby(self, state: lb.LobbyState) -> None:
        self.told.append("lobby")

    async def admitted(self, chat: str, send: Say | None = None) -> None:
        self.told.append(f"admitted (chat {chat})")

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        self.told.append("a record")

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None:
        self.told.append("a chat line")

    async def note(self, note: WatchNote) -> None:
        self.told.append(note.kind)

    async def ended(self, report: VerifyReport, path: Path | None) -> None:
        self.told.append("ended")


async def _case(host_says: list[tuple[float, bytes]], closes_at: float) -> dict[str, Any]:
    """The host's ``lobby``, the watcher's ``watch``, the host's payloads at their
    times, then it closes at ``closes_at`` (if the watcher has not left first); the
    watcher's end: why its feed broke, and when."""
    screen = _Screen()
    ours, theirs = await channel_pair(
        Identity.from_seed(bytes([ecl.HOST_SEED]) * 32), DANA, LOBBY_CONTEXT, "10.77.0.5:1"
    )
    host = Probe("host", ours)
    says = host.tap()  # what the watcher sends is written down too
    ended: dict[str, Any] = {}

    async def watcher() -> None:
        with tempfile.TemporaryDirectory() as games:
            try:
                async with theirs:  # as ``watch_game`` holds it: closed when the feed ends
                    await Feed(DANA, screen, Path(games)).follow(theirs, "10.77.0.1:5000")
                ended.update(why="fed", at=now())
            except FeedBroken as exc:
                ended.update(why=f"feed broken: {exc}", at=now())

    async def speak() -> None:
        await says.send(LOBBY)
        await says.receive()  # the watcher's ``watch``
        for at, payload in host_says:
            await trio.sleep(at - now())
            await says.send(payload)
        with trio.move_on_at(closes_at):
            await host.until_closed()  # the watcher may leave first
        if host.closed_at is None:
            await ours.aclose()
            host.closed_at = now()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(speak)
        await watcher()
    return {"links": {"host": host.written()}, "watcher": {**ended, "told": screen.told}}


def _run(says: list[tuple[float, bytes]], closes_at: float) -> Callable[[], Awaitable[Any]]:
    return lambda: _case(says, closes_at)


CASES: Cases = {
    "silent-host": (
        "a host that sent `alive` (at 0 and 5 s) and then nothing, its connection open: "
        "the watcher takes it for away 20 s after the last payload",
        _run([(0.0, WATCHING), (0.0, ALIVE), (5.0, ALIVE)], 60.0),
    ),
    "older-host": (
        "a host that never sends `alive`: the watcher waits on while the connection is "
        "open (60 s here), until the host closes it",
        _run([(0.0, WATCHING)], 60.0),
    ),
}


def watcher_alive() -> dict[str, Any]:
    return {
        "about": "SPEC.md section 7.5, `alive` as the reference watcher takes it: its "
        "feed (`peer/watch.py`) over a real secure channel on in-memory streams, under "
        "a mock clock from 0 s; the host a probe that sends `lobby`, reads `watch` and "
        "sends what `links.host` gives (`dir` `to` the watcher, `at`, `t`, bytes; "
        "`from`: what the watcher sent), then goes quiet; `closed_at`: when the "
        "channel closed (the watcher left, or the host closed it); `watcher`: why its "
        "feed ended, when, and what its front end was told.  Dana's key seed is 0x14 "
        "(x 32), the host's 0x10",
        "keys": {"host": ecl.key(ecl.HOST_SEED).hex(), "Dana": DANA.public_key.hex()},
        "cases": run_cases(CASES),
    }
