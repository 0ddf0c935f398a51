"""Exchange vectors of the host's lobby door and its watchers' feed as the reference's
trio tasks run them (``HostLobby.serve``, ``Feed.serve`` and ``Feed.end``), over
``exchange_live``'s channels under a mock clock (protocol/SPEC.md sections 7.2, 7.5):

- ``wait``: a host whose person decides (30 s here): ``lobby``, the joiner's
  ``hello``, ``wait`` at once, and the ``lobby`` that seats it when the person says
  yes; the joiner is the reference's (``join.py``), and what its player is shown
  is written down;
- ``hello-timeout``: a joiner that says nothing after the first ``lobby``: closed at 10 s;
- ``hello-in-time``: one whose ``hello`` comes at 9.9 s: seated;
- ``removed``: a seated joiner the host removes (``refuse``, closed), then its key
  dialling again: ``refuse`` first, not ``lobby``, and closed (the reference joiner
  both times, leaving with the host's reason);
- ``feed``: a watcher of a quiet game: ``watching``, ``alive`` at once and every 5 s
  whatever else came, a record, then the game over: ``fed`` with the record count,
  the host closes.

Each case's links as the probe saw them (time, direction, `t`, bytes), when the host
closed each one, and the host's state at the end: its seating (``exchange_lobby``'s
form), who is asking, the keys it removed, its feed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio

from p2pbelka.bench import exchange_control as ecl
from p2pbelka.bench.exchange_live import LOBBY_CONTEXT, Cases, Probe, channel_pair, now, run_cases
from p2pbelka.bench.exchange_lobby import seating
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan.events import (
    AwaitingApproval,
    JoinRequest,
    LobbyClosed,
    LobbyEvent,
    LobbyRefused,
    SeatsChanged,
)
from p2pbelka.peer.lan.hostlobby import HostLobby
from p2pbelka.peer.lan.join import _first_look, _sit
from p2pbelka.peer.lan.watchers import Feed

DECIDES = 30.0
"""Seconds the host's person takes to say yes in ``wait``."""
ANN = Identity.from_seed(bytes([ecl.JOINER_SEEDS[0]]) * 32, "Ann")
HELLO = lb.encode_control(lb.Hello("Ann", "", ecl.PORT + 1, ecl.NONCES[1]))
RECORDS = tuple(b"\x92" + bytes([n]) * 8 for n in range(3))
"""Stand-ins for the host's records: the feed sends a record's bytes as they are."""


async def _no_screen(event: LobbyEvent) -> None:
    return None


def _host(approve: Callable[[JoinRequest], Awaitable[bool]] | None = None) -> HostLobby:
    return HostLobby(ecl.plan(), _no_screen, approve, Feed(2))


async def _dial(lobby: HostLobby, nursery: trio.Nursery, address: str) -> Probe:
    """Ann's channel to the host's lobby, served as the host's door serves one."""
    ours, theirs = await channel_pair(ecl.identity(ecl.HOST_SEED), ANN, LOBBY_CONTEXT, address)

    async def door() -> None:
        async with ours:
            try:
                await lobby.serve(ours)
            except NetError:
                pass

    nursery.start_soon(door)
    return Probe("Ann", theirs)


async def _joiner(probe: Probe, screen: list[str]) -> None:
    """Ann as the reference joiner runs: the first look at the lobby, ``hello``, then
    the lobby followed until ``start`` (never here) or a ``refuse``; ``screen``: what
    its player is shown, in order, and why it left."""

    async def show(event: LobbyEvent) -> None:
        if isinstance(event, AwaitingApproval):
            screen.append("waiting for the host's person")
        elif isinstance(event, SeatsChanged):
            screen.append(f"lobby: seat {event.me}" if event.me is not None else "lobby: no seat")
        elif isinstance(event, LobbyClosed):
            screen.append(f"closed: {event.why}")

    channel = probe.tap()
    try:
        first = await _first_look(channel, "10.77.0.1", ecl.PORT, None)
        await _sit(channel, ANN, first, ecl.PORT + 1, False, show, ecl.NONCES[1], None)
    except LobbyRefused as exc:
        screen.append(f"left: {exc}")
        await probe.until_closed()


def _host_state(lobby: HostLobby) -> dict[str, Any]:
    return {
        "seating": seating(lobby.plan),
        "asking": [r.name for r in lobby.asking.values()],
        "removed": [k.hex() for k in sorted(lobby.removed)],
    }


async def _wait_case() -> dict[str, Any]:
    async def person(request: JoinRequest) -> bool:
        await trio.sleep(DECIDES)
        return True

    lobby = _host(person)
    screen: list[str] = []
    async with trio.open_nursery() as nursery:
        ann = await _dial(lobby, nursery, "10.77.0.2:40001")
        nursery.start_soon(_joiner, ann, screen)
        await trio.sleep(DECIDES / 2)
        asking = _host_state(lobby)
        await trio.sleep(DECIDES)
        host = _host_state(lobby)
        nursery.cancel_scope.cancel()
    links = {"Ann": ann.written()}
    return {"links": links, "while_deciding": asking, "host": host, "joiner": screen}


async def _hello_case(after: float | None) -> dict[str, Any]:
    lobby = _host()
    async with trio.open_nursery() as nursery:
        ann = await _dial(lobby, nursery, "10.77.0.2:40001")
        nursery.start_soon(ann.read_all)
        if after is not None:
            await trio.sleep(after)
            await ann.send(HELLO)
        await trio.sleep(20.0)
        host = _host_state(lobby)
        nursery.cancel_scope.cancel()
    return {"links": {"Ann": ann.written()}, "host": host}


async def _removed_case() -> dict[str, Any]:
    lobby = _host()
    screens: dict[str, list[str]] = {"Ann": [], "Ann again": []}
    async with trio.open_nursery() as nursery:
        first = await _dial(lobby, nursery, "10.77.0.2:40001")
        nursery.start_soon(_joiner, first, screens["Ann"])
        await trio.sleep(5.0)
        removed_at = now()
        assert await lobby.remove(1)
        await trio.sleep(1.0)
        again = await _dial(lobby, nursery, "10.77.0.2:40002")
        nursery.start_soon(_joiner, again, screens["Ann again"])
        await trio.sleep(20.0)
        host = _host_state(lobby)
        nursery.cancel_scope.cancel()
    links = {"Ann": first.written(), "Ann again": again.written()}
    return {"links": links, "removed_at": removed_at, "host": host, "joiner": screens}


async def _feed_case() -> dict[str, Any]:
    feed = Feed(2)
    feed.record(_Raw(RECORDS[0]))  # type: ignore[arg-type]
    lobby = HostLobby(ecl.plan(auto=True), _no_screen, None, feed)
    lobby.seated.set()  # the game is on: a connection is a watcher's or refused
    async with trio.open_nursery() as nursery:
        ann = await _dial(lobby, nursery, "10.77.0.2:40001")
        await ann.read_one()  # the lobby, first on every connection
        await ann.send(lb.encode_control(lb.Watch("Ann", 0)))
        nursery.start_soon(ann.read_all)
        await trio.sleep(7.0)
        feed.record(_Raw(RECORDS[1]))  # type: ignore[arg-type]
        await trio.sleep(7.0)
        feed.record(_Raw(RECORDS[2]))  # type: ignore[arg-type]
        await trio.sleep(2.0)
        ended_at = now()
        await feed.end()
    host = {"records": len(feed.records), "watchers": len(feed.watchers), "ended": feed.ended}
    return {"links": {"Ann": ann.written()}, "ended_at": ended_at, "host": host}


class _Raw:
    """A record as the feed takes it: its bytes (the feed never reads them)."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw


CASES: Cases = {
    "wait": (
        "a host whose person decides: `wait` after `hello`, the joiner not counted until "
        f"the person says yes ({DECIDES:g} s later), then the `lobby` that seats it",
        _wait_case,
    ),
    "hello-timeout": (
        "no `hello` within 10 s of the first `lobby`: the host closes, nobody seated",
        lambda: _hello_case(None),
    ),
    "hello-in-time": (
        "a `hello` 9.9 s after the first `lobby`: seated",
        lambda: _hello_case(9.9),
    ),
    "removed": (
        "a seated joiner removed by the host (`refuse`, closed); its key dialling again "
        "gets `refuse` as its first message, not `lobby`, and is closed",
        _removed_case,
    ),
    "feed": (
        "a watcher of a quiet game: `watching` and `alive` at once, `alive` every 5 s "
        "whatever else came, the records, then `fed` with the record count and the host "
        "closes",
        _feed_case,
    ),
}


def host_door() -> dict[str, Any]:
    return {
        "about": "SPEC.md sections 7.2 and 7.5 as the reference host's trio tasks run "
        "them: each case's links over real secure channels on in-memory streams, under "
        "a mock clock from 0 s (the handshake takes no time); each link's payloads "
        "(`dir` from the host or to it, `at` in seconds, `t`, bytes) and `closed_at`, "
        "when the host closed it (null: still open when the case ended); `host` is the "
        "host's state at the end: its seating (each seat's key, name, readiness), the "
        "joiners its person is asked about, the keys it removed; `joiner`, where the "
        "joiner is the reference's, what its player is shown and why it left.  Keys: "
        "the host's and Ann's seeds are 0x10 and 0x11 (x 32), as in control.json",
        "keys": {"Host": ecl.key(ecl.HOST_SEED).hex(), "Ann": ANN.public_key.hex()},
        "cases": run_cases(CASES),
    }
