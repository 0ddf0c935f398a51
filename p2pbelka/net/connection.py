"""Secure channels over trio streams: the handshake at the edge, then AEAD frames.

This is the only module of the connection path that touches trio; the
handshake and framing it drives are sans-IO (handshake.py, frames.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import NoReturn

import trio

from .door import Door, DoorPolicy, Ticket
from .errors import (
    ChannelClosed,
    ConnectError,
    FrameError,
    HandshakeAborted,
    HandshakeTimeout,
    MalformedHandshake,
    NetError,
)
from .frames import DEFAULT_MAX_FRAME_SIZE, FrameDecoder, encode_frame
from .handshake import HANDSHAKE_MAX_MESSAGE, Handshake, HandshakeResult, Role
from .identity import Identity, fingerprint
from .oserrors import explain, first_os_error
from .pake import InviteGuard

__all__ = [
    "DEFAULT_HANDSHAKE_TIMEOUT",
    "SecureChannel",
    "dial",
    "format_host_port",
    "open_secure_channel",
    "parse_host_port",
    "serve_secure",
]

log = logging.getLogger(__name__)

DEFAULT_HANDSHAKE_TIMEOUT = 10.0
RECEIVE_CHUNK = 64 * 1024


def parse_host_port(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` or ``[IPV6]:PORT`` (a link-local address with its ``%scope``, as in
    ``[fe80::1%eth0]:40123``) as typed by a user; None if it is neither."""
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        return None
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
        if ":" not in host:
            return None
    elif ":" in host or "[" in host or "]" in host:
        return None  # a bare IPv6 address: its last group would be read as the port
    return (host, int(port)) if host else None


def format_host_port(host: str, port: int) -> str:
    """The inverse of :func:`parse_host_port`: brackets around an IPv6 address."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _describe(stream: trio.abc.Stream) -> str:
    sock = getattr(stream, "socket", None)
    if sock is None:
        return type(stream).__name__
    try:
        host, port = sock.getpeername()[:2]
    except OSError:
        return "unknown peer"
    return format_host_port(host, port)


async def _read_frame(stream: trio.abc.Stream, decoder: FrameDecoder) -> bytes | None:
    """The next frame body, or None on a clean EOF between frames."""
    while True:
        frame = decoder.next_frame()
        if frame is not None:
            return frame
        data = await stream.receive_some(RECEIVE_CHUNK)
        if not data:
            decoder.end_of_stream()
            return None
        decoder.receive_data(data)


class _Held:
    """``async with`` a trio lock without a scheduling round when it is free (trio's
    own lock yields on every acquire): a channel's sends, and its receives, come
    from one task each in the mesh, and the socket call inside yields anyway.  Once
    per frame and direction, in every deal.  Cancellation is still checked first."""

    __slots__ = ("_lock",)

    def __init__(self, lock: trio.Lock) -> None:
        self._lock = lock

    async def __aenter__(self) -> None:
        await trio.lowlevel.checkpoint_if_cancelled()
        try:
            self._lock.acquire_nowait()
        except trio.WouldBlock:
            await self._lock.acquire()

    async def __aexit__(self, *exc_info: object) -> None:
        self._lock.release()


class SecureChannel:
    """An authenticated, encrypted, message-oriented connection to one peer.

    ``send`` and ``receive`` may run concurrently in different tasks; concurrent
    senders are serialised so frames never interleave. Any failure (a frame
    that fails authentication, an oversize frame, a broken connection) closes
    the channel, and every later call raises :class:`ChannelClosed`.
    """

    def __init__(
        self,
        stream: trio.abc.Stream,
        decoder: FrameDecoder,
        result: HandshakeResult,
        peer_address: str = "",
    ) -> None:
        self._stream = stream
        self._decoder = decoder
        self._session = result.session
        self.peer_key: bytes = result.peer_key
        self.session_id: bytes = result.transcript_hash
        self.peer_address = peer_address
        self._send_lock = trio.Lock()
        self._receive_lock = trio.Lock()
        self._closed_reason: str | None = None
        self._unsent = b""  # the tail of a frame ``send_now`` sealed and the kernel left
        # A socket's descriptor takes ``os.write`` on POSIX systems only.
        posix = os.name == "posix"
        self._socket = stream.socket if isinstance(stream, trio.SocketStream) and posix else None

    @property
    def peer_fingerprint(self) -> str:
        return fingerprint(self.peer_key)

    @property
    def closed(self) -> bool:
        return self._closed_reason is not None

    @property
    def close_reason(self) -> str | None:
        """Why the channel closed (None while open); iteration ends silently, this says why."""
        return self._closed_reason

    @property
    def max_payload(self) -> int:
        return self._session.max_payload

    def _check_open(self) -> None:
        if self._closed_reason is not None:
            raise ChannelClosed(self._closed_reason)

    async def _fail(self, reason: str) -> None:
        if self._closed_reason is None:
            self._closed_reason = reason
        await trio.aclose_forcefully(self._stream)

    def send_now(self, payload: bytes) -> bool:
        """Encrypt one message and hand it to the kernel at once, in the caller's task,
        when no send is under way (False: nothing done, ``send`` it).

        A peer's every envelope goes to three or more links: done here, each costs a
        write, where ``send`` costs a task switch and two scheduling rounds more.  A
        frame the kernel takes only part of is sealed already (its nonce spent), so
        the rest is kept and goes first in the next ``send`` or ``flush``: the
        caller must make sure one follows when this returns True and ``pending``."""
        if self._socket is None or self._unsent or self._send_lock.locked() or self.closed:
            return False
        fd = self._socket.fileno()  # asked each time: -1 once closed, never another file's
        if fd < 0:
            return False
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        try:
            body = self._session.seal(payload)
        except NetError:
            return False  # counter exhausted: ``send`` fails the channel and says so
        frame = encode_frame(body, self._session.max_frame_size)
        try:
            written = os.write(fd, frame)
        except BlockingIOError:
            written = 0
        except OSError as exc:
            # ``send`` raises ChannelClosed with this reason; the stream is closed there.
            self._closed_reason = f"connection lost while sending: {exc!r}"
            return True
        self._unsent = frame[written:]
        return True

    @property
    def pending(self) -> bool:
        """Part of a frame ``send_now`` started is still to go (``flush`` sends it)."""
        return bool(self._unsent)

    async def flush(self) -> None:
        """Send what ``send_now`` left, if anything."""
        async with _Held(self._send_lock):
            self._check_open()
            await self._send_unsent()

    async def _send_unsent(self) -> None:
        if not self._unsent:
            return
        frame, self._unsent = self._unsent, b""
        await self._send_frame(frame)

    async def send(self, payload: bytes) -> None:
        """Encrypt and send one message (at most ``max_payload`` bytes)."""
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        async with _Held(self._send_lock):
            self._check_open()
            await self._send_unsent()
            # Encrypt under the lock so nonce order equals wire order.
            try:
                body = self._session.seal(payload)
            except NetError as exc:  # counter exhausted: these keys are spent
                await self._fail(f"{type(exc).__name__}: {exc}")
                raise
            await self._send_frame(encode_frame(body, self._session.max_frame_size))

    async def _send_frame(self, frame: bytes) -> None:
        try:
            await self._stream.send_all(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            await self._fail(f"connection lost while sending: {exc!r}")
            raise ChannelClosed(self._closed_reason or "closed") from exc
        except BaseException:
            # Cancelled: part of the frame may be on the wire, and its nonce
            # is spent either way, so the peer could never decrypt the next
            # frame. The channel cannot continue.
            await self._fail("send cancelled")
            raise

    async def receive(self) -> bytes:
        """The next message from the peer.

        Raises :class:`ChannelClosed` when the peer closes cleanly, and
        :class:`DecryptError` / :class:`FrameError` (closing the channel) when
        it sends something that is not an authentic next frame.
        """
        async with _Held(self._receive_lock):
            self._check_open()
            try:
                body = await _read_frame(self._stream, self._decoder)
            except FrameError as exc:
                await self._fail(f"bad frame from peer: {exc}")
                raise
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                await self._fail(f"connection lost while receiving: {exc!r}")
                raise ChannelClosed(self._closed_reason or "closed") from exc
            if body is None:
                await self._fail("peer closed the connection")
                raise ChannelClosed("peer closed the connection")
            try:
                return self._session.open(body)
            except NetError as exc:
                await self._fail(f"{type(exc).__name__}: {exc}")
                raise

    async def aclose(self) -> None:
        if self._closed_reason is None:
            self._closed_reason = "closed locally"
        await self._stream.aclose()

    async def __aenter__(self) -> SecureChannel:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __aiter__(self) -> SecureChannel:
        return self

    async def __anext__(self) -> bytes:
        """Iterate messages until the channel closes; errors other than a close propagate."""
        try:
            return await self.receive()
        except ChannelClosed:
            raise StopAsyncIteration from None

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<SecureChannel {self.peer_address} peer={self.peer_fingerprint} {state}>"


async def open_secure_channel(
    stream: trio.abc.Stream,
    identity: Identity,
    role: Role,
    *,
    expected_peer_key: bytes | None = None,
    authorize: Callable[[bytes], bool] | None = None,
    context: bytes = b"",
    timeout: float = DEFAULT_HANDSHAKE_TIMEOUT,
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    code: bytes | None = None,
    on_guess_failed: Callable[[], None] | None = None,
) -> SecureChannel:
    """Run the handshake over ``stream`` and return the channel.

    On any failure the stream is closed and a :class:`HandshakeError`
    subclass is raised; the peer gets no explanation, only a closed socket (or,
    for a HELLO of a version we do not speak, our version: transport.md 3.3).
    With an invite ``code`` a responder calls ``on_guess_failed`` for a handshake
    that ends, however, after the peer could test its guess and before it proved
    the code.
    """
    hs = Handshake(
        identity,
        role,
        context=context,
        expected_peer_key=expected_peer_key,
        authorize=authorize,
        max_frame_size=max_frame_size,
        code=code,
    )
    decoder = FrameDecoder(HANDSHAKE_MAX_MESSAGE)
    try:
        try:
            with trio.fail_after(timeout):
                if role is Role.INITIATOR:
                    await stream.send_all(encode_frame(hs.start()))
                while not hs.done:
                    msg = await _read_frame(stream, decoder)
                    if msg is None:
                        raise HandshakeAborted("peer closed the connection during the handshake")
                    reply = hs.receive(msg)
                    if reply is not None:
                        await stream.send_all(encode_frame(reply))
        except trio.TooSlowError:
            raise HandshakeTimeout(f"handshake not completed within {timeout} s") from None
        except FrameError as exc:
            raise MalformedHandshake(f"bad handshake framing: {exc}") from exc
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise HandshakeAborted(f"connection lost during the handshake: {exc!r}") from exc
    except BaseException:
        if hs.guess_spent and on_guess_failed is not None:
            on_guess_failed()
        await _refuse(stream, hs.refusal)
        raise
    decoder.max_size = max_frame_size
    return SecureChannel(stream, decoder, hs.result(), _describe(stream))


async def _refuse(stream: trio.abc.Stream, last_word: bytes | None) -> None:
    """Close a failed handshake's stream; a version refusal is sent first, briefly
    (the peer may be gone), so the other side can say what it lacks."""
    if last_word is not None:
        with trio.move_on_after(1.0), contextlib.suppress(trio.BrokenResourceError, OSError):
            await stream.send_all(encode_frame(last_word))
    await trio.aclose_forcefully(stream)


async def dial(
    host: str,
    port: int,
    identity: Identity,
    *,
    expected_peer_key: bytes | None = None,
    authorize: Callable[[bytes], bool] | None = None,
    context: bytes = b"",
    attempts: int | None = 5,
    initial_backoff: float = 0.2,
    max_backoff: float = 5.0,
    connect_timeout: float = 5.0,
    handshake_timeout: float = DEFAULT_HANDSHAKE_TIMEOUT,
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    code: bytes | None = None,
) -> SecureChannel:
    """Connect to a peer and run the handshake as initiator, retrying with backoff.

    Retries cover what may heal (refused or unreachable, timeouts, a
    connection dropped mid-handshake); an authentication failure such as a
    wrong pinned key is raised at once, since retrying cannot change the
    peer's key. ``authorize`` may accept the responder's key by other means than
    an exact pin (a fingerprint typed by the user). ``attempts=None`` retries
    until cancelled. Raises
    :class:`ConnectError` when the attempts run out.
    """
    delay = initial_backoff
    last: BaseException | None = None
    attempt = 0
    while attempts is None or attempt < attempts:
        attempt += 1
        try:
            with trio.fail_after(connect_timeout):
                stream = await trio.open_tcp_stream(host, port)
        except (OSError, trio.TooSlowError) as exc:
            last = exc
        else:
            try:
                return await open_secure_channel(
                    stream,
                    identity,
                    Role.INITIATOR,
                    expected_peer_key=expected_peer_key,
                    authorize=authorize,
                    context=context,
                    timeout=handshake_timeout,
                    max_frame_size=max_frame_size,
                    code=code,
                )
            except (HandshakeTimeout, HandshakeAborted) as exc:
                last = exc
        log.info("dial %s:%d attempt %d failed: %r", host, port, attempt, last)
        if attempts is not None and attempt >= attempts:
            break
        # Jitter keeps four peers that lost the same link from redialling in lockstep.
        await trio.sleep(delay * random.uniform(0.5, 1.5))
        delay = min(delay * 2, max_backoff)
    raise ConnectError(
        f"could not connect to {host}:{port} after {attempt} attempts: {_why(last, host, port)}"
    ) from last


def _why(exc: BaseException | None, host: str, port: int) -> str:
    """The last failure in words: "nothing listens at ...", not a repr."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    os_error = first_os_error(exc) if exc is not None else None
    if os_error is not None:
        return explain(os_error, where)
    if isinstance(exc, trio.TooSlowError):
        return f"{where} did not answer in time: check the address and the firewall"
    return str(exc) or type(exc).__name__


async def serve_secure(
    handler: Callable[[SecureChannel], Awaitable[object]],
    identity: Identity,
    *,
    host: str = "0.0.0.0",
    port: int = 0,
    context: bytes | Callable[[], bytes] = b"",
    authorize: Callable[[bytes], bool] | None = None,
    handshake_timeout: float | None = None,
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    max_pending_handshakes: int | None = None,
    door: Door | None = None,
    invite: InviteGuard | None = None,
    handler_nursery: trio.Nursery | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> NoReturn:
    """Accept connections, run the handshake as responder, hand each channel to ``handler``.

    Use ``port = await nursery.start(serve_secure, handler, identity, ...)``;
    the bound port is reported (useful with ``port=0``). A connection whose
    handshake fails, or whose handler fails with a :class:`NetError`, is
    closed; the server keeps serving everyone else. The channel is closed when
    ``handler`` returns.

    Strangers are admitted by ``door`` (:mod:`p2pbelka.net.door`) before a byte
    is read: limits per source address, a rate per address, fair slots and a
    short deadline for the whole handshake.  Refusals are logged as one
    summary line every few seconds.  ``host`` may be an IPv6 address (``"::"``
    for every IPv6 address of the machine).  ``context`` may be a callable, asked at
    each handshake: a listener that opens before it knows what it serves (a seat's
    game listener, before the game's id is derived from every seat's nonce).
    """
    if door is None:
        policy = DoorPolicy()
        if max_pending_handshakes is not None:
            policy = dataclasses.replace(policy, max_pending=max_pending_handshakes)
        if handshake_timeout is not None:
            policy = dataclasses.replace(policy, handshake_timeout=handshake_timeout)
        door = Door(policy)
    listeners = await trio.open_tcp_listeners(port, host=host)
    bound_port: int = listeners[0].socket.getsockname()[1]
    evictions: dict[Ticket, trio.CancelScope] = {}

    async def on_stream(stream: trio.SocketStream) -> None:
        address = _peer_host(stream)
        ticket, evicted = door.arrive(address, trio.current_time())
        if evicted is not None and evicted in evictions:
            evictions.pop(evicted).cancel()
        if ticket is None:
            await trio.aclose_forcefully(stream)
            return
        try:
            await _admitted(stream, ticket)
        finally:
            evictions.pop(ticket, None)
            door.leave(ticket)

    async def _admitted(stream: trio.SocketStream, ticket: Ticket) -> None:
        scope = evictions[ticket] = trio.CancelScope()
        channel = None
        code = invite.secret if invite is not None else None
        generation = invite.changes if invite is not None else 0

        def guess_failed() -> None:
            if invite is not None:
                invite.failed(generation)

        with scope:
            try:
                channel = await open_secure_channel(
                    stream,
                    identity,
                    Role.RESPONDER,
                    authorize=authorize,
                    context=context() if callable(context) else context,
                    timeout=door.policy.handshake_timeout,
                    max_frame_size=max_frame_size,
                    code=code,
                    on_guess_failed=guess_failed,
                )
            except NetError as exc:
                door.failed(ticket, trio.current_time(), type(exc).__name__)
                log.debug("handshake with %s failed: %s", _describe(stream), exc)
        evictions.pop(ticket, None)
        if channel is None:
            if scope.cancelled_caught:
                await trio.aclose_forcefully(stream)
            return
        if not door.established(ticket, trio.current_time()):
            await channel.aclose()
            return
        async with channel:
            try:
                await handler(channel)
            except NetError as exc:
                log.warning(
                    "dropped %s (%s): %s: %s",
                    channel.peer_address,
                    channel.peer_fingerprint,
                    type(exc).__name__,
                    exc,
                )

    async with trio.open_nursery() as nursery:
        nursery.start_soon(_summarise, door)
        task_status.started(bound_port)
        await trio.serve_listeners(on_stream, listeners, handler_nursery=handler_nursery)
    raise AssertionError("serve_listeners returned")  # pragma: no cover


async def _summarise(door: Door) -> NoReturn:
    """One line every few seconds about the connections refused, never one per connection."""
    while True:
        await trio.sleep(door.policy.summary_every)
        line = door.take_summary(trio.current_time())
        if line is not None:
            log.warning("%s", line)


def _peer_host(stream: trio.SocketStream) -> str:
    try:
        return str(stream.socket.getpeername()[0])
    except OSError:
        return "unknown"
