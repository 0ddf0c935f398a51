"""The host's watchers over real sockets on loopback: a real host and bot joiners, and
scripted watchers that speak the real handshake and codec (protocol/SPEC.md 7.5)."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from p2pbelka.bench.netwatch import Followed, follow
from p2pbelka.bots import make_bot
from p2pbelka.net.connection import dial, open_secure_channel
from p2pbelka.net.errors import NetError
from p2pbelka.net.handshake import Role
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import WATCHING, ChatGate, RateLimit
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import GameResult, LobbyEvent, NetOptions, TableOpen
from p2pbelka.peer.lan import watchers as feed_module
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.protocol.chat import open_chat
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table.verify import verify_bytes

HOST = Identity.generate("Host")
NET = NetOptions(pause_after=30, give_up_after=120, linger=1.0, sync=False)


def _records(result: GameResult) -> list[bytes]:
    data = result.store.transcript_path.read_bytes()
    return [record.envelope.raw for record in iter_records(data)]


def _all_identical_and_verified(results: list[GameResult]) -> bytes:
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1, "every seat saved the same transcript"
    data = files.pop()
    assert verify_bytes(data).ok
    assert all(r.finished for r in results)
    return data


async def _table(
    tmp_path: Path,
    on_open: Callable[[int, trio.Nursery, trio.Event], None],
    net: NetOptions = NET,
    game: str = "belka",
) -> list[GameResult]:
    """One game of bots, seat 0 hosting; ``on_open(lobby_port, nursery, over)`` starts
    the watchers, whose tasks the nursery waits for after the game (``over`` set)."""
    seats = 4 if game == "belka" else 2
    over = trio.Event()
    async with trio.open_nursery() as nursery:

        async def opened(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                on_open(event.lobby_port, nursery, over)

        results = await loopback_table(
            BotFrontEnd(make_bot("random", 1)),
            ["random"] * (seats - 1),
            transcript_dir=tmp_path,
            identities=[HOST, *(Identity.generate(f"Bot{n}") for n in range(1, 4))],
            net=net,
            on_lobby=opened,
            game=game,
        )
        over.set()
    return results


async def _watch(port: int, name: str, start: int = 0, **kw: object) -> Followed:
    return await follow("127.0.0.1", port, Identity.generate(name), start=start, **kw)  # type: ignore[arg-type]


async def _misbehave(port: int, name: str, payloads: list[bytes]) -> str:
    """Watch, wait for ``watching``, send ``payloads``, read until the host closes; the
    watcher's fingerprint."""
    identity = Identity.generate(name)
    channel = await dial(
        "127.0.0.1", port, identity, expected_peer_key=HOST.public_key, context=lb.LOBBY_CONTEXT
    )
    async with channel:
        await channel.receive()  # the lobby
        await channel.send(lb.encode_control(lb.Watch(name, 0)))
        while not isinstance(lb.decode_control(await channel.receive()), lb.Watching):
            pass
        try:
            for payload in payloads:
                await channel.send(payload)
            async for _ in channel:
                pass
        except NetError:
            pass
    return fingerprint(identity.public_key)


async def _never_reads(port: int, stop: trio.Event) -> None:
    """A watcher on a socket with a small receive buffer that never reads the feed."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    stream = trio.SocketStream(sock)
    identity = Identity.generate("Slow")
    channel = await open_secure_channel(
        stream,
        identity,
        Role.INITIATOR,
        expected_peer_key=HOST.public_key,
        context=lb.LOBBY_CONTEXT,
    )
    async with channel:
        await channel.receive()
        await channel.send(lb.encode_control(lb.Watch("Slow", 0)))
        await stop.wait()


async def test_watchers_get_the_host_s_transcript_and_the_bad_ones_are_cut_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO, logger="p2pbelka.peer.lan.watchers")
    monkeypatch.setattr(feed_module, "BEHIND", 64 * 1024)
    watched: dict[str, Followed] = {}
    cut: dict[str, str] = {}
    mid_game = trio.Event()

    def at_thirty(got: Followed) -> None:
        if len(got.records) >= 30:
            mid_game.set()

    def on_open(port: int, nursery: trio.Nursery, over: trio.Event) -> None:
        async def first() -> None:
            watched["first"] = await _watch(port, "First", host_key=HOST.public_key, seen=at_thirty)

        async def later() -> None:
            await mid_game.wait()
            async with trio.open_nursery() as inner:
                inner.start_soon(save, "late", _watch(port, "Late"))
                inner.start_soon(save, "back", _watch(port, "Back", 10))
                hello = lb.encode_control(lb.Hello("Sneak", "", 4000, bytes(16)))
                inner.start_soon(cut_off, "hello", _misbehave(port, "Sneak", [hello]))
                inner.start_soon(cut_off, "garbage", _misbehave(port, "Junk", [b"\xc1junk"]))
                chat = ChatGate(bytes(16), 0, [HOST.public_key])
                signer = Identity.generate("Talk")
                lines = [chat.compose(signer, f"hi {n}", n).raw for n in range(3)]
                inner.start_soon(cut_off, "chat", _misbehave(port, "Talk", lines))

        async def save(key: str, coro: object) -> None:
            watched[key] = await coro  # type: ignore[misc]

        async def cut_off(key: str, coro: object) -> None:
            cut[key] = await coro  # type: ignore[misc]

        nursery.start_soon(first)
        nursery.start_soon(later)
        nursery.start_soon(_never_reads, port, over)

    results = await _table(tmp_path, on_open)
    _all_identical_and_verified(results)
    host_records = _records(results[0])
    first = watched["first"]
    assert first.admitted == "off" and first.lobbies >= 1
    assert first.records == host_records, "the feed is the host's transcript, record for record"
    assert first.fed == len(host_records)
    assert watched["late"].records == host_records and watched["late"].fed == len(host_records)
    assert watched["back"].records == host_records[10:]
    # bots do not talk: the only lines are the host seat's naming its watchers
    said = [open_chat(raw) for raw in first.chat]
    assert said and all(m.text.startswith(WATCHING) for m in said), [m.text for m in said]
    assert all(m.sender == said[0].sender for m in said)
    log = caplog.text
    for key, why in (("hello", "'hello' message"), ("garbage", "malformed"), ("chat", "chat")):
        lines = [ln for ln in log.splitlines() if cut[key] in ln and "cut off" in ln]
        assert lines and why in lines[0] and "127.0.0.1" in lines[0], (key, log[-3000:])
    assert "dropped Slow at 127.0.0.1" in log


async def test_a_host_that_takes_no_watchers_or_is_full_refuses(tmp_path: Path) -> None:
    got: dict[str, Followed] = {}

    def on_open(port: int, nursery: trio.Nursery, over: trio.Event) -> None:
        async def ask(key: str) -> None:
            got[key] = await _watch(port, key)

        nursery.start_soon(ask, "none")

    await _table(tmp_path / "none", on_open, replace(NET, watchers=0), game="belot")
    assert got["none"].refused == "this table takes no watchers" and not got["none"].records

    admitted = trio.Event()

    def on_open_one(port: int, nursery: trio.Nursery, over: trio.Event) -> None:
        async def one() -> None:
            got["one"] = await _watch(port, "one", seen=lambda f: admitted.set())

        async def two() -> None:
            await admitted.wait()
            got["two"] = await _watch(port, "two")

        nursery.start_soon(one)
        nursery.start_soon(two)

    results = await _table(tmp_path / "one", on_open_one, replace(NET, watchers=1), game="belot")
    assert "as many as it takes" in got["two"].refused
    assert got["one"].records == _records(results[0])


async def _talker(port: int, name: str, lines: int, heard: trio.Event) -> tuple[str, int]:
    """A watcher that says ``lines`` chat lines, signed for the game it is fed, once the
    first record came and ``heard`` is set; its fingerprint and what it got back."""
    identity = Identity.generate(name)
    channel = await dial(
        "127.0.0.1", port, identity, expected_peer_key=HOST.public_key, context=lb.LOBBY_CONTEXT
    )
    got = 0
    async with channel:
        await channel.receive()
        await channel.send(lb.encode_control(lb.Watch(name, 0)))
        try:
            async for payload in channel:
                if lb.is_envelope(payload):
                    break
            await heard.wait()
            gate = ChatGate(open_envelope(payload).game, 0, [identity.public_key])
            gate.send_limit = RateLimit(lines, 2.0)  # faster than a person may: a flood
            for n in range(lines):
                await channel.send(gate.compose(identity, f"line {n}", trio.current_time()).raw)
            async for payload in channel:
                got += 0 if lb.is_envelope(payload) else 1
        except NetError:
            pass
    return fingerprint(identity.public_key), got


async def test_with_watcher_chat_a_line_reaches_the_other_watchers_and_a_flood_is_cut_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="p2pbelka.peer.lan.watchers")
    got: dict[str, Followed] = {}
    said: dict[str, tuple[str, int]] = {}
    listening = trio.Event()

    def on_open(port: int, nursery: trio.Nursery, over: trio.Event) -> None:
        async def listener() -> None:
            got["ear"] = await _watch(port, "Ear", seen=lambda f: listening.set())

        async def talk(key: str, lines: int) -> None:
            said[key] = await _talker(port, key, lines, listening)

        nursery.start_soon(listener)
        nursery.start_soon(talk, "Polite", 1)
        nursery.start_soon(talk, "Loud", 40)

    net = replace(NET, watcher_chat="watchers")
    results = await _table(tmp_path, on_open, net, game="belot")
    _all_identical_and_verified(results)
    texts = [open_chat(raw).text for raw in got["ear"].chat]
    assert "line 0" in texts and got["ear"].admitted == "watchers"
    assert got["ear"].records == _records(results[0])
    loud = [ln for ln in caplog.text.splitlines() if said["Loud"][0] in ln and "cut off" in ln]
    assert loud and "chat flood" in loud[0], caplog.text[-2000:]
    assert not any(said["Polite"][0] in ln and "cut off" in ln for ln in caplog.text.splitlines())


async def test_the_host_s_person_is_asked_about_a_watcher_as_a_watcher(tmp_path: Path) -> None:
    from p2pbelka.peer.lan import JoinRequest, WatchersChanged, host_game

    asked: list[JoinRequest] = []
    got: dict[str, Followed] = {}
    events: list[WatchersChanged] = []
    in_feed, refused = trio.Event(), trio.Event()

    async def approve(request: JoinRequest) -> bool:
        asked.append(request)
        return request.name == "Welcome"

    async with trio.open_nursery() as nursery:

        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, WatchersChanged):
                events.append(event)
            if isinstance(event, TableOpen):
                port = event.lobby_port

                async def ask(name: str) -> None:
                    got[name] = await _watch(port, name, seen=lambda f: in_feed.set())
                    refused.set()

                nursery.start_soon(ask, "Welcome")
                nursery.start_soon(ask, "Stranger")

        async def host() -> None:
            net = replace(NET, listen_host="127.0.0.1", announce=False, home=tmp_path)
            await host_game(
                HOST,
                "t",
                BotFrontEnd(make_bot("random", 1)),
                net=net,
                on_lobby=on_lobby,
                approve=approve,
                game="belot",
                players=2,
            )

        nursery.start_soon(host)
        await in_feed.wait()  # the welcome one is in, and stays until the host stops
        await refused.wait()
        nursery.cancel_scope.cancel()
    assert {r.name for r in asked} == {"Welcome", "Stranger"} and all(r.watcher for r in asked)
    assert got["Stranger"].refused == "the host did not let you in"
    names = [w.name for w in events[-1].watchers]
    assert names == ["Welcome"] and events[-1].places == NET.watchers - 1


async def test_a_host_that_takes_watchers_announces_its_table_through_the_game(
    tmp_path: Path,
) -> None:
    from functools import partial

    from p2pbelka.net.directory import TableDirectory, TableInfo
    from p2pbelka.net.discovery import listen_for_tables
    from p2pbelka.peer.lan import GameStarting, host_game, join_game

    heard: list[tuple[bool, TableInfo]] = []
    started = trio.Event()

    class Heard(TableDirectory):
        def handle_datagram(
            self, datagram: bytes, source: str, now: float, wall_ms: int | None = None
        ) -> TableInfo | None:
            info = super().handle_datagram(datagram, source, now, wall_ms)
            if info is not None:
                heard.append((started.is_set(), info))
            return info

    async with trio.open_nursery() as nursery:
        beacons = await nursery.start(
            partial(listen_for_tables, Heard(), group="127.0.0.1", port=0)
        )
        net = replace(
            NET, listen_host="127.0.0.1", group="127.0.0.1", beacon_port=beacons, watchers=3
        )
        port: list[int] = []
        opened = trio.Event()

        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                port.append(event.lobby_port)
                opened.set()
            if isinstance(event, GameStarting):
                started.set()

        async def host() -> GameResult:
            return await host_game(
                HOST,
                "t",
                BotFrontEnd(make_bot("random", 1)),
                net=replace(net, home=tmp_path / "h"),
                on_lobby=on_lobby,
                game="belot",
                players=2,
            )

        async def joiner() -> None:
            await opened.wait()
            await join_game(
                Identity.generate("Bot"),
                "127.0.0.1",
                port[0],
                BotFrontEnd(make_bot("random", 2)),
                host_key=HOST.public_key,
                net=replace(net, home=tmp_path / "j"),
            )

        nursery.start_soon(joiner)
        await host()
        nursery.cancel_scope.cancel()
    during = [info for playing, info in heard if playing]
    assert during, "beacons went on after the start"
    assert all(info.free_seats == 0 and info.watch == 3 for info in during[:1])
    assert {info.watch for _, info in heard} <= {0, 3}
