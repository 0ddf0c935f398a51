"""The harness of the exchange vectors whose state lives in the reference's trio code
(``exchange_hostdoor.py``, ``exchange_linger.py``): the real tasks (the host's lobby,
its watchers' feed, a seat's mesh) run over real secure channels (handshake and
ChaCha20-Poly1305) on in-memory streams, under trio's ``MockClock`` (autojump: every
wait passes in an instant, and the times written are the clock's, the same every run).

The far end of each channel is a probe: it sends what the case says and writes down
every payload it gets with the time it came, and when the channel closed.  The bytes
written are the channel's payloads (SPEC.md section 7.1), as every exchange vector
gives them; the handshake's own bytes draw fresh ephemeral keys and are
``transport.json``'s.  Each link is written down on its own: the payloads of one link
come in one order whatever order trio runs the tasks in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import trio
import trio.testing

from p2pbelka.bench.exchange_control import read
from p2pbelka.net.channel import SecureChannel
from p2pbelka.net.connection import open_secure_channel
from p2pbelka.net.errors import NetError
from p2pbelka.net.handshake import Role
from p2pbelka.net.identity import Identity

LOBBY_CONTEXT = b"p2pbelka/v1 lobby"


async def channel_pair(
    ours: Identity, theirs: Identity, context: bytes, address: str
) -> tuple[SecureChannel, SecureChannel]:
    """The real code's end (``ours``, the responder) and the probe's end of one channel;
    the real end sees the probe at ``address``."""
    left, right = trio.testing.memory_stream_pair()
    ends: dict[str, SecureChannel] = {}

    async def side(name: str, stream: trio.abc.Stream, who: Identity, role: Role) -> None:
        ends[name] = await open_secure_channel(stream, who, role, context=context)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(side, "ours", left, ours, Role.RESPONDER)
        nursery.start_soon(side, "probe", right, theirs, Role.INITIATOR)
    ends["ours"].peer_address = address
    return ends["ours"], ends["probe"]


def now() -> float:
    return round(trio.current_time(), 3)


def kind(payload: bytes) -> str:
    """The payload's `t` (or ``envelope``, ``chat``), told apart as SPEC.md 7.1 says."""
    if payload[:1] == b"\x92":
        return "envelope"
    if payload[:1] == b"\x93":
        return "chat"
    if read(payload)[0] == "refused":
        return "refused"
    return str(msgpack.unpackb(payload)["t"])


class Probe:
    """The far end of one link: what it sends and gets, in order, with the times."""

    def __init__(self, name: str, channel: SecureChannel) -> None:
        self.name = name
        self.channel = channel
        self.steps: list[dict[str, Any]] = []
        self.closed_at: float | None = None
        self.replies: dict[str, bytes] = {}
        """What the probe answers at once to a payload of each `t` (a ``resent`` to a
        ``resend``, as a seat holding nothing more answers)."""

    def _write(self, direction: str, payload: bytes) -> None:
        step = {"at": now(), "dir": direction, "t": kind(payload), "payload": payload.hex()}
        self.steps.append(step)

    async def send(self, payload: bytes) -> None:
        self._write("to", payload)
        await self.channel.send(payload)

    async def read_all(self) -> None:
        """Every payload until the real end closes the channel."""
        try:
            async for payload in self.channel:
                self._write("from", payload)
                reply = self.replies.get(kind(payload))
                if reply is not None:
                    await self.send(reply)
        except NetError:
            pass
        self.closed_at = now()

    async def until_closed(self) -> None:
        """Read on (through ``tap``'s receive, which writes down what comes) until the
        real end closes the channel: when a peer's code left, when the other closed."""
        try:
            while True:
                await self.channel.receive()
        except NetError:
            pass
        self.closed_at = now()

    async def read_one(self) -> bytes:
        payload = await self.channel.receive()
        self._write("from", payload)
        return payload

    def tap(self) -> SecureChannel:
        """The channel, each payload sent or received through it written down: for a
        real peer's code to run on this end."""
        send, receive = self.channel.send, self.channel.receive

        async def sending(payload: bytes) -> None:
            self._write("to", payload)
            await send(payload)

        async def receiving() -> bytes:
            payload = await receive()
            self._write("from", payload)
            return payload

        # this instance's methods, not the class's
        setattr(self.channel, "send", sending)  # noqa: B010
        setattr(self.channel, "receive", receiving)  # noqa: B010
        return self.channel

    def written(self) -> dict[str, Any]:
        return {"steps": self.steps, "closed_at": self.closed_at}


Cases = dict[str, tuple[str, Callable[[], Awaitable[dict[str, Any]]]]]
"""A vector's cases: name -> (the path it shows, the trio function that runs it)."""


def run_cases(cases: Cases) -> list[dict[str, Any]]:
    return [{"name": name, "path": what, **run(case)} for name, (what, case) in cases.items()]


def run(main: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    """``main`` under a ``MockClock`` that jumps whenever every task waits."""
    result: dict[str, Any] = trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
    return result
