"""Secure channels over real loopback TCP connections."""

from __future__ import annotations

import logging
import struct
from collections.abc import Callable

import pytest
import trio

from p2pbelka.net.connection import (
    SecureChannel,
    dial,
    format_host_port,
    open_secure_channel,
    parse_host_port,
    serve_secure,
)
from p2pbelka.net.door import Door, DoorPolicy
from p2pbelka.net.errors import (
    ChannelClosed,
    ConnectError,
    DecryptError,
    FrameTooLarge,
    HandshakeAborted,
    UnexpectedPeerKey,
)
from p2pbelka.net.frames import FrameDecoder, encode_frame
from p2pbelka.net.handshake import Handshake, Role, Session
from p2pbelka.net.identity import Identity

HOST = "127.0.0.1"
CTX = b"game-42"
SERVER = Identity.generate("server")
CLIENT = Identity.generate("client")


async def echo(channel: SecureChannel) -> None:
    async for msg in channel:
        await channel.send(b"echo:" + msg)


async def start_server(
    nursery: trio.Nursery, handler: object = echo, door: Door | None = None, **kw: object
) -> int:
    """A server whose refusal summary comes every 0.1 s, so tests need not wait for it."""
    policy = {k: kw.pop(k) for k in ("max_pending", "handshake_timeout") if k in kw}
    door = door or Door(DoorPolicy(summary_every=0.1, **policy))  # type: ignore[arg-type]
    port: int = await nursery.start(
        lambda task_status: serve_secure(
            handler,  # type: ignore[arg-type]
            SERVER,
            host=HOST,
            port=0,
            context=CTX,
            door=door,
            task_status=task_status,
            **kw,  # type: ignore[arg-type]
        )
    )
    return port


async def raw_handshake(port: int) -> tuple[trio.SocketStream, Session, FrameDecoder]:
    """A hand-driven client, so tests can put arbitrary bytes on the wire."""
    stream = await trio.open_tcp_stream(HOST, port)
    hs = Handshake(CLIENT, Role.INITIATOR, context=CTX, expected_peer_key=SERVER.public_key)
    dec = FrameDecoder()
    await stream.send_all(encode_frame(hs.start()))
    while not hs.done:
        frames = dec.feed(await stream.receive_some(4096))
        for f in frames:
            reply = hs.receive(f)
            if reply is not None:
                await stream.send_all(encode_frame(reply))
    return stream, hs.result().session, dec


async def eventually(predicate: Callable[[], bool]) -> None:
    """Wait for the server task to finish reacting (it closes the socket first, then logs)."""
    with trio.fail_after(60):
        while not predicate():
            await trio.sleep(0.01)


async def read_to_eof(stream: trio.SocketStream) -> bytes:
    data = b""
    with trio.fail_after(60):
        while chunk := await stream.receive_some(4096):
            data += chunk
    return data


async def test_roundtrip_both_ways() -> None:
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery)
        async with await dial(
            HOST, port, CLIENT, expected_peer_key=SERVER.public_key, context=CTX
        ) as ch:
            assert ch.peer_key == SERVER.public_key
            for payload in (b"", b"hi", bytes(range(256)) * 1000):
                await ch.send(payload)
                assert await ch.receive() == b"echo:" + payload
        nursery.cancel_scope.cancel()


async def _channel_pair() -> tuple[SecureChannel, SecureChannel, trio.SocketListener]:
    """Both ends of one real TCP connection (the reader side does not read until told)."""
    listeners = await trio.open_tcp_listeners(0, host=HOST)
    port = listeners[0].socket.getsockname()[1]
    ends: dict[str, SecureChannel] = {}

    async def accept() -> None:
        stream = await listeners[0].accept()
        ends["r"] = await open_secure_channel(stream, SERVER, Role.RESPONDER, context=CTX)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(accept)
        stream = await trio.open_tcp_stream(HOST, port)
        ends["i"] = await open_secure_channel(
            stream, CLIENT, Role.INITIATOR, expected_peer_key=SERVER.public_key, context=CTX
        )
    return ends["i"], ends["r"], listeners[0]


async def test_direct_stream_pair_agrees_on_session() -> None:
    # Both ends on one real TCP connection, without the server helper.
    i, r, listener = await _channel_pair()
    assert i.session_id == r.session_id
    assert r.peer_key == CLIENT.public_key
    await r.send(b"from responder first")
    assert await i.receive() == b"from responder first"
    await i.aclose()
    with pytest.raises(ChannelClosed):
        await r.receive()
    with pytest.raises(ChannelClosed):
        await r.send(b"after close")
    await r.aclose()
    await listener.aclose()


async def test_pinned_wrong_key_fails_fast(caplog: pytest.LogCaptureFixture) -> None:
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery)
        with trio.fail_after(60), pytest.raises(UnexpectedPeerKey):
            await dial(HOST, port, CLIENT, expected_peer_key=CLIENT.public_key, context=CTX)
        nursery.cancel_scope.cancel()


async def test_wrong_context_rejected(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery)
        with pytest.raises(ConnectError):
            await dial(HOST, port, CLIENT, context=b"other table", attempts=2, initial_backoff=0)
        await eventually(lambda: "ContextMismatch" in caplog.text)
        nursery.cancel_scope.cancel()
    assert "ContextMismatch" in caplog.text


async def test_server_authorize_rejects_unseated_player(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, authorize=lambda key: False)
        with pytest.raises(ConnectError):
            await dial(HOST, port, CLIENT, context=CTX, attempts=1)
        await eventually(lambda: "UnexpectedPeerKey" in caplog.text)
        nursery.cancel_scope.cancel()
    assert "UnexpectedPeerKey" in caplog.text


async def test_garbage_closes_only_that_connection(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    door = Door(DoorPolicy(summary_every=0.1))
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, door=door)
        good = await dial(HOST, port, CLIENT, expected_peer_key=SERVER.public_key, context=CTX)
        junk_streams = []
        for junk in (
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # length prefix "GET " is ~1.2 GB
            struct.pack(">I", 5) + b"hello",  # well framed, not a HELLO
            b"\x00\x00\x00\x42" + b"\xff" * 66,  # right size, wrong content
        ):
            raw = await trio.open_tcp_stream(HOST, port)
            await raw.send_all(junk)
            junk_streams.append(raw)
        for raw in junk_streams:
            assert await read_to_eof(raw) == b""  # server said nothing, just closed
            await raw.aclose()
        await eventually(lambda: door.stats["refused"] >= 3)
        # The good connection, opened before the junk, is unaffected...
        await good.send(b"still here")
        assert await good.receive() == b"echo:still here"
        # ...and new ones are still accepted.
        async with await dial(HOST, port, CLIENT, context=CTX) as again:
            await again.send(b"x")
            assert await again.receive() == b"echo:x"
        await good.aclose()
        await eventually(lambda: "from 127.0.0.1" in caplog.text)  # the summary line
        nursery.cancel_scope.cancel()
    assert caplog.text.count("refused") == caplog.text.count("\n")  # no line per connection
    assert "FrameTooLarge" in caplog.text or "MalformedHandshake" in caplog.text


async def test_silent_client_times_out(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, handshake_timeout=0.2)
        raw = await trio.open_tcp_stream(HOST, port)
        assert await read_to_eof(raw) == b""
        await raw.aclose()
        await eventually(lambda: "HandshakeTimeout" in caplog.text)
        nursery.cancel_scope.cancel()
    assert "HandshakeTimeout" in caplog.text


@pytest.mark.parametrize("attack", ["tamper", "replay", "reorder", "oversize"])
async def test_bad_frames_after_handshake_close_the_channel(
    attack: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    received: list[bytes] = []
    errors: list[BaseException] = []

    async def handler(channel: SecureChannel) -> None:
        try:
            async for msg in channel:
                received.append(msg)
        except Exception as exc:
            errors.append(exc)
            raise

    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, handler=handler)
        stream, session, _ = await raw_handshake(port)
        f1 = session.seal(b"first")
        f2 = session.seal(b"second")
        wire = {
            "tamper": encode_frame(f1[:3] + bytes([f1[3] ^ 0x80]) + f1[4:]),
            "replay": encode_frame(f1) + encode_frame(f1),
            "reorder": encode_frame(f2) + encode_frame(f1),
            "oversize": encode_frame(f1) + struct.pack(">I", 10**9),
        }[attack]
        await stream.send_all(wire)
        assert await read_to_eof(stream) == b""
        await stream.aclose()
        await eventually(lambda: bool(errors) and "dropped 127.0.0.1" in caplog.text)
        nursery.cancel_scope.cancel()
    expected = FrameTooLarge if attack == "oversize" else DecryptError
    assert len(errors) == 1 and isinstance(errors[0], expected)
    assert received == ([b"first"] if attack in ("replay", "oversize") else [])
    assert "dropped 127.0.0.1" in caplog.text


async def test_concurrent_senders_do_not_interleave() -> None:
    got: list[bytes] = []
    done = trio.Event()

    async def collect(channel: SecureChannel) -> None:
        async for msg in channel:
            got.append(msg)
        done.set()

    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, handler=collect)
        ch = await dial(HOST, port, CLIENT, context=CTX)

        async def sender(tag: int) -> None:
            for n in range(20):
                await ch.send(bytes([tag]) * (5000 + n))

        async with trio.open_nursery() as senders:
            for tag in range(8):
                senders.start_soon(sender, tag)
        await ch.aclose()
        with trio.fail_after(60):
            await done.wait()
        nursery.cancel_scope.cancel()
    assert len(got) == 160
    for msg in got:
        assert msg == bytes([msg[0]]) * len(msg)


async def test_dial_retries_until_server_appears() -> None:
    # Reserve a free port, release it, and start the server there a bit later.
    probe = trio.socket.socket()
    await probe.bind((HOST, 0))
    port = probe.getsockname()[1]
    probe.close()

    async with trio.open_nursery() as nursery:

        async def late_server() -> None:
            await trio.sleep(0.3)
            await serve_secure(echo, SERVER, host=HOST, port=port, context=CTX)

        nursery.start_soon(late_server)
        with trio.fail_after(60):
            ch = await dial(HOST, port, CLIENT, context=CTX, attempts=20, initial_backoff=0.05)
        await ch.send(b"late")
        assert await ch.receive() == b"echo:late"
        await ch.aclose()
        nursery.cancel_scope.cancel()


async def test_dial_gives_up_and_is_cancellable() -> None:
    probe = trio.socket.socket()
    await probe.bind((HOST, 0))
    port = probe.getsockname()[1]
    probe.close()
    with trio.fail_after(60), pytest.raises(ConnectError):
        await dial(HOST, port, CLIENT, attempts=3, initial_backoff=0.01)
    with trio.move_on_after(0.3) as scope:
        await dial(HOST, port, CLIENT, attempts=None, initial_backoff=0.05)
    assert scope.cancelled_caught


async def test_peer_vanishing_mid_handshake() -> None:
    listeners = await trio.open_tcp_listeners(0, host=HOST)
    port = listeners[0].socket.getsockname()[1]

    async def hang_up() -> None:
        stream = await listeners[0].accept()
        await stream.receive_some(100)
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hang_up)
        stream = await trio.open_tcp_stream(HOST, port)
        with pytest.raises(HandshakeAborted):
            await open_secure_channel(stream, CLIENT, Role.INITIATOR, context=CTX)
    await listeners[0].aclose()


async def test_pending_handshakes_are_bounded(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with trio.open_nursery() as nursery:
        # A handshake deadline far beyond the wait below: a close within that wait
        # can only be the refusal, so nothing here depends on how fast the machine is.
        door = Door(DoorPolicy(max_pending=2, handshake_timeout=600, summary_every=0.1))
        port = await start_server(nursery, door=door)
        idle = [await trio.open_tcp_stream(HOST, port) for _ in range(2)]
        await eventually(lambda: door.pending == 2)  # the server took both in
        extra = await trio.open_tcp_stream(HOST, port)
        with trio.fail_after(300):  # closed by the refusal, not by the 600 s deadline
            assert await read_to_eof(extra) == b""
        await extra.aclose()
        for s in idle:
            await s.aclose()
        # Slots free up again once those handshakes end.
        await eventually(lambda: "HandshakeAborted" in caplog.text)
        async with await dial(HOST, port, CLIENT, context=CTX) as ch:
            await ch.send(b"ok")
            assert await ch.receive() == b"echo:ok"
        nursery.cancel_scope.cancel()
    assert "all handshake slots taken" in caplog.text


async def test_cancelled_send_closes_the_channel() -> None:
    async def never_read(channel: SecureChannel) -> None:
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        port = await start_server(nursery, handler=never_read)
        ch = await dial(HOST, port, CLIENT, context=CTX)
        big = b"x" * (ch.max_payload)
        with trio.move_on_after(0.3):
            while True:  # fills the socket buffers, then blocks mid-frame
                await ch.send(big)
        assert ch.closed and ch.close_reason == "send cancelled"
        with pytest.raises(ChannelClosed):
            await ch.send(b"more")
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("10.0.0.5:4000", ("10.0.0.5", 4000)),
        ("kitchen.local:4000", ("kitchen.local", 4000)),
        ("[::1]:4000", ("::1", 4000)),
        ("[fe80::1%eth0]:4000", ("fe80::1%eth0", 4000)),
        ("fe80::1:4000", None),  # a bare IPv6 address: which part is the port?
        ("[10.0.0.5]:4000", None),
        ("10.0.0.5:0", None),
        ("10.0.0.5:99999", None),
        (":4000", None),
        ("10.0.0.5", None),
    ],
)
def test_addresses_as_users_type_them(text: str, parsed: tuple[str, int] | None) -> None:
    assert parse_host_port(text) == parsed
    if parsed is not None:
        assert parse_host_port(format_host_port(*parsed)) == parsed


async def test_a_channel_over_ipv6_loopback() -> None:
    async with trio.open_nursery() as nursery:
        try:
            port = await nursery.start(
                lambda task_status: serve_secure(
                    echo, SERVER, host="::1", context=CTX, task_status=task_status
                )
            )
        except OSError as exc:
            pytest.skip(f"no IPv6 loopback here: {exc}")
        async with await dial("::1", port, CLIENT, context=CTX) as channel:
            await channel.send(b"six")
            assert await channel.receive() == b"echo:six"
            assert channel.peer_address.startswith("[::1]:")
        nursery.cancel_scope.cancel()


async def test_send_now_keeps_what_a_full_kernel_buffer_left_and_sends_it_first() -> None:
    # The reader reads nothing until the writer's kernel buffers are full: a frame is
    # then sealed but only partly written, and must go out whole, first, in order.
    writer, reader, listener = await _channel_pair()
    sent: list[bytes] = []
    n = 0
    while not writer.pending:
        payload = bytes([n % 256]) * 40_000 + n.to_bytes(4, "big")
        assert writer.send_now(payload), "nothing may be under way on the channel"
        sent.append(payload)
        n += 1
    assert not writer.send_now(b"not now"), "a frame's tail waits: later ones must queue"
    got: list[bytes] = []

    async def read_all(count: int) -> None:
        while len(got) < count:
            got.append(await reader.receive())

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(read_all, len(sent) + 1)
            await writer.flush()  # the tail, once the reader makes room
            assert not writer.pending
            await writer.send(b"after the tail")
    assert got == [*sent, b"after the tail"]
    await writer.aclose()
    await reader.aclose()
    await listener.aclose()


async def test_send_now_on_a_closed_channel_does_nothing() -> None:
    writer, reader, listener = await _channel_pair()
    await writer.aclose()
    assert not writer.send_now(b"too late")
    with pytest.raises(ChannelClosed):
        await writer.send(b"too late")
    await reader.aclose()
    await listener.aclose()


async def test_send_now_to_a_peer_that_left_closes_the_channel_with_the_reason() -> None:
    writer, reader, listener = await _channel_pair()
    await reader.aclose()
    with trio.fail_after(60):
        while not writer.closed:  # the first writes may still be taken; then a reset
            assert writer.send_now(b"anyone there?")
            await trio.sleep(0.01)
    assert "connection lost while sending" in (writer.close_reason or "")
    with pytest.raises(ChannelClosed):
        await writer.flush()
    await writer.aclose()
    await listener.aclose()
