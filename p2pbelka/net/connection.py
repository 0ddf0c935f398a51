"""Secure channels over trio streams: the handshake at the edge, then AEAD frames.

This module and channel.py (the established channel) are the connection path's
trio edge; the handshake and framing they drive are sans-IO (handshake.py,
frames.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import NoReturn

import trio

from .channel import SecureChannel, describe, format_host_port, parse_host_port, read_frame
from .door import Door, DoorPolicy, Ticket
from .errors import (
    ConnectError,
    FrameError,
    GuessRefused,
    HandshakeAborted,
    HandshakeTimeout,
    MalformedHandshake,
    NetError,
)
from .frames import DEFAULT_MAX_FRAME_SIZE, FrameDecoder, encode_frame
from .guesses import InviteGuard, Refusal, Reservation
from .handshake import HANDSHAKE_MAX_MESSAGE, Handshake, Role
from .identity import Identity
from .network import Network, jitter
from .network import current as current_network
from .oserrors import explain, first_os_error

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
    code: bytes | Callable[[], bytes] | None = None,
) -> SecureChannel:
    """Run the handshake over ``stream`` and return the channel.

    On any failure the stream is closed and a :class:`HandshakeError`
    subclass is raised; the peer gets no explanation, only a closed socket (or,
    for a HELLO of a version we do not speak, our version: transport.md 3.3; for a
    guess the host will not test, why: 3.5).  A responder's ``code`` may be a callable,
    asked once HELLO has passed its checks (see :class:`Handshake`).
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
                    msg = await read_frame(stream, decoder)
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
        await _refuse(stream, hs.refusal)
        raise
    decoder.max_size = max_frame_size
    return SecureChannel(stream, decoder, hs.result(), describe(stream))


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
                stream = await current_network().connect(host, port)
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
        await trio.sleep(delay * jitter(0.5, 1.5))
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
    door = _door_for(door, max_pending_handshakes, handshake_timeout)
    network = current_network()
    listeners, bound_port = await network.listen(host, port)
    server = _Server(handler, identity, door, network, context, authorize, invite, max_frame_size)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_summarise, door)
        task_status.started(bound_port)
        await trio.serve_listeners(server.on_stream, listeners, handler_nursery=handler_nursery)
    raise AssertionError("serve_listeners returned")  # pragma: no cover


def _door_for(door: Door | None, max_pending: int | None, timeout: float | None) -> Door:
    """``door``, else one with the default policy and the two limits given."""
    if door is not None:
        return door
    policy = DoorPolicy()
    if max_pending is not None:
        policy = dataclasses.replace(policy, max_pending=max_pending)
    if timeout is not None:
        policy = dataclasses.replace(policy, handshake_timeout=timeout)
    return Door(policy)


@dataclasses.dataclass
class _InviteCheck:
    """One connection's guess at the invite code: held (counted) once its HELLO passed
    the checks, before the host computes anything for it; given back only if proven."""

    invite: InviteGuard
    address: str
    authorize: Callable[[bytes], bool] | None
    held: Reservation | None = None
    proven: bool = False

    def code(self) -> bytes:
        """The code to test the guess against (asked once HELLO passed its checks)."""
        got = self.invite.reserve(self.address, trio.current_time())
        if isinstance(got, Refusal):
            raise GuessRefused(f"guess not tested: {got.reason}", got.reason, got.seconds)
        self.held = got
        return got.secret

    def current(self, key: bytes) -> bool:
        """Asked only once the joiner's confirmation checked: the code is proven.  A code
        the host redrew meanwhile admits nobody, even proven."""
        self.proven = True
        if self.held is not None and not self.invite.current(self.held):
            return False
        return self.authorize is None or self.authorize(key)

    def settle(self) -> None:
        if self.held is not None:
            self.invite.settle(self.held, self.proven, trio.current_time())


class _Server:
    """What ``serve_secure`` does with each connection: the door, the handshake as
    responder, then the handler."""

    def __init__(
        self,
        handler: Callable[[SecureChannel], Awaitable[object]],
        identity: Identity,
        door: Door,
        network: Network,
        context: bytes | Callable[[], bytes],
        authorize: Callable[[bytes], bool] | None,
        invite: InviteGuard | None,
        max_frame_size: int,
    ) -> None:
        self.handler = handler
        self.identity = identity
        self.door = door
        self.network = network
        self.context = context
        self.authorize = authorize
        self.invite = invite
        self.max_frame_size = max_frame_size
        self.evictions: dict[Ticket, trio.CancelScope] = {}
        """The handshakes under way, each cancelled if a fairer newcomer takes its slot."""

    async def on_stream(self, stream: trio.abc.Stream) -> None:
        ticket, evicted = self.door.arrive(self.network.peer_host(stream), trio.current_time())
        if evicted is not None and evicted in self.evictions:
            self.evictions.pop(evicted).cancel()
        if ticket is None:
            await trio.aclose_forcefully(stream)
            return
        try:
            await self._admitted(stream, ticket)
        finally:
            self.evictions.pop(ticket, None)
            self.door.leave(ticket)

    async def _admitted(self, stream: trio.abc.Stream, ticket: Ticket) -> None:
        scope = self.evictions[ticket] = trio.CancelScope()
        channel = None
        with scope:
            channel = await self._handshake(stream, ticket)
        self.evictions.pop(ticket, None)
        if channel is None:
            if scope.cancelled_caught:
                await trio.aclose_forcefully(stream)
            return
        if not self.door.established(ticket, trio.current_time()):
            await channel.aclose()
            return
        async with channel:
            await self._serve(channel)

    async def _handshake(self, stream: trio.abc.Stream, ticket: Ticket) -> SecureChannel | None:
        """The channel, or None when the handshake failed (the door is told why)."""
        check = None
        if self.invite is not None:
            check = _InviteCheck(self.invite, ticket.address, self.authorize)
        context = self.context
        try:
            return await open_secure_channel(
                stream,
                self.identity,
                Role.RESPONDER,
                authorize=check.current if check is not None else self.authorize,
                context=context() if callable(context) else context,
                timeout=self.door.policy.handshake_timeout,
                max_frame_size=self.max_frame_size,
                code=check.code if check is not None else None,
            )
        except NetError as exc:
            why = type(exc).__name__
            if isinstance(exc, GuessRefused):
                why = f"invite code not tested ({exc.reason})"
            elif check is not None and check.held is not None:
                why = "wrong invite code"
            self.door.failed(ticket, trio.current_time(), why)
            log.debug("handshake with %s failed: %s", describe(stream), exc)
            return None
        finally:
            if check is not None:
                check.settle()

    async def _serve(self, channel: SecureChannel) -> None:
        try:
            await self.handler(channel)
        except NetError as exc:
            log.warning(
                "dropped %s (%s): %s: %s",
                channel.peer_address,
                channel.peer_fingerprint,
                type(exc).__name__,
                exc,
            )


async def _summarise(door: Door) -> NoReturn:
    """One line every few seconds about the connections refused, never one per connection.

    While none was refused it sleeps until one is (a listener ticking every few seconds
    to find nothing was a wake-up of every listener of every peer), then says it at the
    tick it would have: the ticks it slept through each found nothing (``quiet_until``)."""
    every = door.policy.summary_every
    tick = trio.current_time() + every
    while True:
        if not door.refused:
            woken = trio.Event()
            door.on_refusal = woken.set
            try:
                await woken.wait()
            finally:
                door.on_refusal = None
            now, skipped = trio.current_time(), None
            while tick <= now:
                skipped, tick = tick, tick + every
            if skipped is not None:
                door.quiet_until(skipped)
        await trio.sleep_until(tick)
        tick = trio.current_time() + every
        line = door.take_summary(trio.current_time())
        if line is not None:
            log.warning("%s", line)
