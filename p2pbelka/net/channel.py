"""An established secure channel over a trio stream: AEAD frames after the handshake.

:mod:`p2pbelka.net.connection` runs the handshake and hands the result here; the
address helpers (``HOST:PORT`` as people type it) live here too, beside the
channel's ``peer_address``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from types import TracebackType

import trio

from .errors import ChannelClosed, FrameError, NetError
from .frames import FrameDecoder, encode_frame
from .handshake import HandshakeResult
from .identity import fingerprint

__all__ = [
    "RECEIVE_CHUNK",
    "SecureChannel",
    "describe",
    "format_host_port",
    "parse_host_port",
    "read_frame",
]

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


def describe(stream: trio.abc.Stream) -> str:
    sock = getattr(stream, "socket", None)
    if sock is None:
        return type(stream).__name__
    try:
        host, port = sock.getpeername()[:2]
    except OSError:
        return "unknown peer"
    return format_host_port(host, port)


async def read_frame(stream: trio.abc.Stream, decoder: FrameDecoder) -> bytes | None:
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
        # A socket's descriptor takes ``os.write`` on POSIX systems only; a stream of
        # the simulator's network its own ``write_nowait``.
        posix = os.name == "posix"
        self._socket = stream.socket if isinstance(stream, trio.SocketStream) and posix else None
        self._write_nowait: Callable[[bytes], int] | None = getattr(stream, "write_nowait", None)

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
        if self._unsent or self._send_lock.locked() or self.closed:
            return False
        fd = -1
        if self._socket is not None:
            fd = self._socket.fileno()  # asked each time: -1 once closed, never another file's
            if fd < 0:
                return False
        elif self._write_nowait is None:
            return False
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        try:
            body = self._session.seal(payload)
        except NetError:
            return False  # counter exhausted: ``send`` fails the channel and says so
        frame = encode_frame(body, self._session.max_frame_size)
        try:
            written = os.write(fd, frame) if fd >= 0 else self._write_nowait(frame)  # type: ignore[misc]
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
        await self.send_many((payload,))

    async def send_many(self, payloads: Sequence[bytes]) -> None:
        """Encrypt and send messages in order, one frame each, in one write: the peer
        reads them as if sent one by one, and the sender pays one task switch and one
        system call for all of them (a host's feed to its watchers, peer/lan/watchers.py)."""
        for payload in payloads:
            if len(payload) > self.max_payload:
                raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        if not payloads:
            return
        async with _Held(self._send_lock):
            self._check_open()
            await self._send_unsent()
            # Encrypt under the lock so nonce order equals wire order.
            frames = []
            try:
                for payload in payloads:
                    body = self._session.seal(payload)
                    frames.append(encode_frame(body, self._session.max_frame_size))
            except NetError as exc:  # counter exhausted: these keys are spent
                await self._fail(f"{type(exc).__name__}: {exc}")
                raise
            await self._send_frame(frames[0] if len(frames) == 1 else b"".join(frames))

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
                body = await read_frame(self._stream, self._decoder)
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
