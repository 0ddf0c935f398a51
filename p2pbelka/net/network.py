"""Where a peer's connections come from: the seam between the connection path and
the network itself.

``dial`` and ``serve_secure`` open their streams through the ``Network`` in effect
(``current``): TCP by default.  A simulator runs whole tables in one process on
a network of its own (in-memory streams through a relay that delays, stalls and
resets them) by setting another ``Network`` for a peer's task tree with ``use``:
trio tasks inherit the context they were started in, so every task of that peer
(its listeners, its dials, its mesh) sees the same network, and one peer's view
(its address) never leaks into another's.  The handshake, the encryption, the
framing and everything above run unchanged on whatever stream comes back.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Protocol

import trio

__all__ = ["TCP", "Network", "TcpNetwork", "current", "jitter", "use"]


class Network(Protocol):
    """Streams to other peers and listeners for theirs."""

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        """A stream to ``host:port`` (``OSError`` if nothing answers there)."""
        ...

    async def listen(
        self, host: str, port: int
    ) -> tuple[list[trio.abc.Listener[trio.abc.Stream]], int]:
        """Listeners on ``host:port`` (0: any free port) and the port they are bound to."""
        ...

    def peer_host(self, stream: trio.abc.Stream) -> str:
        """The address a stream accepted by ``listen`` comes from (the door counts by it)."""
        ...

    def uniform(self, low: float, high: float) -> float:
        """A random delay factor (backoff jitter): a simulated network draws it from its seed."""
        ...


class TcpNetwork:
    """The real network: TCP sockets."""

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        return await trio.open_tcp_stream(host, port)

    async def listen(
        self, host: str, port: int
    ) -> tuple[list[trio.abc.Listener[trio.abc.Stream]], int]:
        listeners = await trio.open_tcp_listeners(port, host=host)
        bound: int = listeners[0].socket.getsockname()[1]
        return list(listeners), bound

    def peer_host(self, stream: trio.abc.Stream) -> str:
        sock = getattr(stream, "socket", None)
        try:
            return str(sock.getpeername()[0]) if sock is not None else "unknown"
        except OSError:
            return "unknown"

    def uniform(self, low: float, high: float) -> float:
        return random.uniform(low, high)


TCP = TcpNetwork()
_current: ContextVar[Network] = ContextVar("p2pbelka_network", default=TCP)


def current() -> Network:
    """The network of the task asking (TCP unless a simulator set another)."""
    return _current.get()


def jitter(low: float, high: float) -> float:
    """A backoff's random factor, from the current network (so a simulation replays it)."""
    return current().uniform(low, high)


@contextlib.contextmanager
def use(network: Network) -> Iterator[None]:
    """Run the block, and every task started from it, on ``network``."""
    token = _current.set(network)
    try:
        yield
    finally:
        _current.reset(token)


Factory = Callable[[], Network]
