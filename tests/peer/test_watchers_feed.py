"""The host's feed to its watchers off the game's path (peer/lan/watchers.py): the
seat's record costs no encryption whatever the number of watchers, the watchers'
tasks send what queued in a few writes, and a watcher that never reads holds at
most ``BEHIND`` bytes of the host's memory before it is dropped.  Real channels
(handshake, ChaCha20-Poly1305) over TCP on the loopback."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import pytest
import trio
import trio.testing

from p2pbelka.net import cipher
from p2pbelka.net.channel import SecureChannel
from p2pbelka.net.connection import open_secure_channel
from p2pbelka.net.handshake import Role
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan import watchers
from p2pbelka.peer.lan.events import WatcherView
from p2pbelka.peer.lan.watchers import BEHIND, Feed

HOST = Identity.generate("Host")


@dataclass
class Record:
    raw: bytes


async def pair(name: str) -> tuple[SecureChannel, SecureChannel, WatcherView]:
    """The host's and a watcher's ends of a real secure channel, and the watcher's view."""
    (listener,) = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listener.socket.getsockname()[1]
    theirs = await trio.open_tcp_stream("127.0.0.1", port)
    ours = await listener.accept()
    await listener.aclose()
    me = Identity.generate(name)
    ends: dict[str, SecureChannel] = {}

    async def side(key: str, stream: trio.SocketStream, who: Identity, role: Role) -> None:
        ends[key] = await open_secure_channel(stream, who, role)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(side, "host", ours, HOST, Role.RESPONDER)
        nursery.start_soon(side, "watcher", theirs, me, Role.INITIATOR)
    view = WatcherView(me.public_key, name, "127.0.0.1", watcher=True)
    return ends["host"], ends["watcher"], view


class Counted:
    """Every encryption the process does, counted (the real one is still done)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = cipher.CipherState.encrypt

        def encrypt(state: cipher.CipherState, plaintext: bytes, ad: bytes = b"") -> bytes:
            self.count += 1
            return real(state, plaintext, ad)

        monkeypatch.setattr(cipher.CipherState, "encrypt", encrypt)


class Writes:
    """How many writes each host end made (``send_many`` calls), counted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = SecureChannel.send_many

        async def send_many(channel: SecureChannel, payloads: list[bytes]) -> None:
            self.count += 1
            await real(channel, payloads)

        monkeypatch.setattr(SecureChannel, "send_many", send_many)


async def test_the_seat_s_record_does_no_encryption_whatever_the_watchers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    crypto, writes = Counted(monkeypatch), Writes(monkeypatch)
    feed = Feed(watchers.MAX_WATCHERS)
    records = [Record(b"\x92" + n.to_bytes(2, "big") + bytes(300)) for n in range(200)]
    got: dict[str, list[bytes]] = {}

    async def read(name: str, channel: SecureChannel) -> None:
        got[name] = [payload async for payload in channel]

    async def serve(channel: SecureChannel, view: WatcherView) -> None:
        async with channel:  # as the host's lobby does: closed once the feed is over
            await feed.serve(channel, view, 0)

    async with trio.open_nursery() as nursery:
        for n in range(watchers.MAX_WATCHERS):
            host_end, watcher_end, view = await pair(f"w{n}")
            nursery.start_soon(serve, host_end, view)
            nursery.start_soon(read, view.name, watcher_end)
        await trio.testing.wait_all_tasks_blocked()  # all in, each told ``watching``
        before = crypto.count, writes.count
        for record in records:
            feed.record(record)  # type: ignore[arg-type]
        # the seat's part, for every record and all the watchers: no encryption, no write
        assert (crypto.count, writes.count) == before
        while any(w.queue for w in feed.watchers):  # the game's part goes (the end's, one
            await trio.sleep(watchers.PACE)  # payload a write: ``Feed._next_batch``)
        await feed.end()
    want = [r.raw for r in records]
    assert len(got) == watchers.MAX_WATCHERS
    for payloads in got.values():
        assert lb.decode_control(payloads[0]) == lb.Watching("off")
        assert payloads[1] == watchers.ALIVE  # at once: the link is kept alive from the start
        assert payloads[2:-1] == want, "each watcher gets the host's records, in order"
        assert lb.decode_control(payloads[-1]) == lb.Fed(len(records))
    # the watchers' tasks: one encryption a payload each, in a few writes, not one a record
    per_watcher = (crypto.count - before[0]) / watchers.MAX_WATCHERS
    assert per_watcher == len(records) + 1  # the records and ``fed``
    assert (writes.count - before[1]) / watchers.MAX_WATCHERS <= 3


async def test_a_watcher_that_never_reads_holds_a_bounded_share_and_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    feed = Feed(2)
    big = 60 * 1024  # about the largest record a game writes
    held: list[int] = []
    async with trio.open_nursery() as nursery:
        host_end, watcher_end, view = await pair("Stuck")  # its end never reads
        nursery.start_soon(feed.serve, host_end, view, 0)
        await trio.testing.wait_all_tasks_blocked()
        n = 0
        while feed.watchers:
            feed.record(Record(n.to_bytes(4, "big") + bytes(big)))  # type: ignore[arg-type]
            held += [w.queued for w in feed.watchers]
            await trio.testing.wait_all_tasks_blocked()  # its task writes what it can
            n += 1
            assert n < 1000, "the kernel's buffers hold a few megabytes at most"
        await feed.end()
        await watcher_end.aclose()
    assert feed.stats["dropped"] == 1
    assert max(held) <= BEHIND
    assert n * big > BEHIND, "it was dropped for what the host held, not before"


def test_a_host_takes_at_most_max_watchers() -> None:
    """Beyond it the players' pace was not measured to hold (docs/network.md): a limit
    kept by an older game is cut to it, and ``host --watchers`` refuses more."""
    from p2pbelka.cli.lan_args import watcher_count

    assert Feed(50).limit == watchers.MAX_WATCHERS and Feed(-1).limit == 0
    assert watcher_count(str(watchers.MAX_WATCHERS)) == watchers.MAX_WATCHERS
    for text in (str(watchers.MAX_WATCHERS + 1), "-1", "many"):
        with pytest.raises(argparse.ArgumentTypeError, match="a host takes 0 to"):
            watcher_count(text)
