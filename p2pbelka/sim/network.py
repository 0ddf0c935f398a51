"""The simulated network: in-memory streams between simulated hosts, with the faults
of a schedule (``faults.Schedule``) applied to them.

TCP's promise is kept inside a live stream: no byte is lost, duplicated or
reordered.  What a LAN does to streams is modelled instead: each chunk takes a
latency drawn from the seed; a cut of one direction holds every byte sent that
way (and every new connection) until it heals, as a pulled cable does; a reset
breaks every stream between two hosts at once; a killed program's streams break
and its ports stop answering.  Duplicated and reordered envelopes come from the
real code's reconnects and resends above, never from here.

Each simulated host sees the network through a ``Node`` (``p2pbelka.net.network``'s
seam), set for its program's task tree; everything runs under trio's ``MockClock``,
so a cut of an hour passes in an instant.
"""

from __future__ import annotations

import errno
import math
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import trio

from p2pbelka.sim.faults import Cut, Schedule, held_by

FIRST_PORT = 40000
CONNECT_PATIENCE = 3.0
"""Seconds a connection attempt into a cut hangs before it fails (a SYN that gets no answer)."""


@dataclass
class _Chunk:
    at: float  # when it may arrive (the cut aside)
    data: bytes


@dataclass
class _Pipe:
    """One direction of one stream."""

    src: str
    dst: str
    chunks: deque[_Chunk] = field(default_factory=deque)
    last_at: float = 0.0
    eof: bool = False  # the sender closed: EOF once the chunks are read
    broken: bool = False  # reset: both ends fail at once
    reader: Alarm | None = None
    """The reader's wait, while it waits: it rings when the next chunk is due."""

    def wake(self) -> None:
        """The reader must look now (an end of stream, a reset)."""
        if self.reader is not None:
            self.reader.ring()

    def put(self, data: bytes, at: float) -> None:
        """A chunk, due at ``at``: the reader wakes then, not before (a wake now would
        only find it not due yet and wait again)."""
        self.chunks.append(_Chunk(at, data))
        self.last_at = at
        if self.reader is not None:
            self.reader.set(at)


class Alarm:
    """One task asleep until a time (``set``, the earliest kept) or a ``ring``: a wait with a
    deadline, as ``trio.sleep_until`` in a cancel scope would be, for less.  Trio keeps the
    time in its heap of deadlines, which the mock clock jumps to, as a cancel scope's; when
    it comes, trio wakes the task as ``ring`` does, where a cancel scope's deadline raises
    ``Cancelled`` for the scope to catch (a third of the cost of every chunk a simulated
    stream delivers).  A cancel from outside reaches the sleeping task as in any wait."""

    __slots__ = ("_deadlines", "_registered_deadline", "_task")

    def __init__(self) -> None:
        from trio._core._run import GLOBAL_RUN_CONTEXT

        self._task: trio.lowlevel.Task | None = trio.lowlevel.current_task()
        self._deadlines: Any = GLOBAL_RUN_CONTEXT.runner.deadlines  # takes what is like a scope
        self._registered_deadline = math.inf  # trio's heap reads this name

    def set(self, at: float) -> None:
        if self._task is not None and at < self._registered_deadline:
            self._forget()
            self._registered_deadline = at
            self._deadlines.add(at, self)

    async def wait(self) -> None:
        def abort(_: object) -> trio.lowlevel.Abort:
            self._forget()
            self._task = None
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)

    def ring(self) -> None:
        if self._task is not None:
            self._forget()
            trio.lowlevel.reschedule(self._task)
            self._task = None

    def _cancel(self, reason: object) -> None:
        """Trio's heap says the time has come (its name for a cancel scope's)."""
        self.ring()

    def _forget(self) -> None:
        if self._registered_deadline != math.inf:
            self._deadlines.remove(self._registered_deadline, self)
            self._registered_deadline = math.inf  # the heap's entry is stale now


class _Socket:
    """What ``describe`` and the door read of a stream: the peer's address."""

    def __init__(self, host: str, port: int) -> None:
        self._peer = (host, port)

    def getpeername(self) -> tuple[str, int]:
        return self._peer


class SimStream(trio.abc.Stream):
    """One end of a simulated TCP connection."""

    def __init__(self, net: SimNetwork, out: _Pipe, into: _Pipe, peer: tuple[str, int]) -> None:
        self.net = net
        self.out = out
        self.into = into
        self.socket = _Socket(*peer)
        self.closed = False

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await trio.lowlevel.checkpoint()
        if self.closed:
            raise trio.ClosedResourceError("stream closed")
        if self.out.broken:
            raise trio.BrokenResourceError("connection reset by peer")
        if data:
            self._send(bytes(data))

    def write_nowait(self, data: bytes) -> int:
        """Hand ``data`` to the network without waiting, as ``os.write`` on a socket whose
        buffer has room (``SecureChannel.send_now``): how many bytes it took, all of them."""
        if self.closed:
            raise OSError(errno.EBADF, "stream closed")
        if self.out.broken:
            raise OSError(errno.ECONNRESET, "connection reset by peer")
        self._send(data)
        return len(data)

    def _send(self, data: bytes) -> None:
        out, now = self.out, trio.current_time()
        out.put(data, max(out.last_at, now + self.net.latency(out.src, out.dst)))
        self.net.bytes_sent += len(data)

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """The next chunk once it is due (a cut holds it longer).  A read that waited
        has yielded already: it returns as soon as it wakes, not a scheduling round
        later (one per chunk, of every link, of every peer)."""
        pipe = self.into
        waited = False
        while True:
            if self.closed:
                raise trio.ClosedResourceError("stream closed")
            if pipe.broken:
                raise trio.BrokenResourceError("connection reset by peer")
            due = math.inf
            if pipe.chunks:
                now = trio.current_time()
                due = max(pipe.chunks[0].at, self.net.held_until(pipe.src, pipe.dst, now))
                if due <= now:
                    chunk = pipe.chunks[0]
                    size = len(chunk.data) if max_bytes is None else max_bytes
                    data, rest = chunk.data[:size], chunk.data[size:]
                    if rest:
                        chunk.data = rest
                    else:
                        pipe.chunks.popleft()
                    if not waited:
                        await trio.lowlevel.checkpoint()
                    return data
            elif pipe.eof:
                if not waited:
                    await trio.lowlevel.checkpoint()
                return b""
            pipe.reader = alarm = Alarm()
            alarm.set(due)
            try:
                await alarm.wait()
            finally:
                pipe.reader = None
            waited = True

    async def aclose(self) -> None:
        if not self.closed:
            self.closed = True
            self.out.eof = True
            self.out.wake()
            self.into.wake()
        await trio.lowlevel.checkpoint()

    def reset(self) -> None:
        """Break both directions (a reset, or the program on either end was killed)."""
        for pipe in (self.out, self.into):
            pipe.broken = True
            pipe.wake()


class SimListener(trio.abc.Listener[trio.abc.Stream]):
    def __init__(self, net: SimNetwork, host: str, port: int) -> None:
        self.net = net
        self.host = host
        self.port = port
        self.send, self.receive = trio.open_memory_channel[trio.abc.Stream](math.inf)

    async def accept(self) -> trio.abc.Stream:
        try:
            return await self.receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise trio.ClosedResourceError("listener closed") from None

    async def aclose(self) -> None:
        self.net.listeners.pop((self.host, self.port), None)
        self.send.close()
        self.receive.close()
        await trio.lowlevel.checkpoint()


class SimNetwork:
    """Every simulated host's streams and listeners, and the faults between them."""

    def __init__(self, schedule: Schedule, rng: random.Random) -> None:
        self.schedule = schedule
        self.rng = rng
        self.listeners: dict[tuple[str, int], SimListener] = {}
        self.streams: list[tuple[str, str, SimStream]] = []
        self.next_port: Counter[str] = Counter()
        self.bytes_sent = 0
        self._cuts: dict[tuple[str, str], tuple[Cut, ...]] = {}
        self.counts: Counter[str] = Counter()
        """Recovery paths and faults reached: "connect refused", "stream reset", ..."""

    def held_until(self, src: str, dst: str, now: float) -> float:
        """``Schedule.held_until``, each direction's cuts found once for the run (every
        chunk read asks)."""
        cuts = self._cuts.get((src, dst))
        if cuts is None:
            cuts = self._cuts[(src, dst)] = self.schedule.cuts(src, dst)
        return held_by(cuts, now) if cuts else now

    def node(self, host: str) -> Node:
        return Node(self, host)

    def latency(self, src: str, dst: str) -> float:
        """One chunk's delay: usually a LAN's fraction of a millisecond, now and then a
        stall of a second or two (a busy switch, a Wi-Fi hiccup), as the schedule says."""
        slow = self.schedule.slow
        if slow and self.rng.random() < slow:
            self.counts["delay spike"] += 1
            return self.rng.uniform(0.2, self.schedule.spike)
        return self.rng.uniform(0.0001, 0.002)

    async def connect(self, src: str, host: str, port: int) -> trio.abc.Stream:
        now = trio.current_time()
        held = max(self.held_until(src, host, now), self.held_until(host, src, now))
        if held > now:
            self.counts["connect into a cut"] += 1
            await trio.sleep(min(held - now, CONNECT_PATIENCE))
            if trio.current_time() < held:
                raise OSError(errno.ETIMEDOUT, f"connect to {host}:{port} timed out")
        await trio.sleep(self.latency(src, host))
        listener = self.listeners.get((host, port))
        if listener is None:
            self.counts["connect refused"] += 1
            raise ConnectionRefusedError(errno.ECONNREFUSED, f"nothing listens at {host}:{port}")
        self.next_port[src] += 1
        src_port = 50000 + self.next_port[src]
        there, back = _Pipe(src, host), _Pipe(host, src)
        mine = SimStream(self, there, back, (host, port))
        theirs = SimStream(self, back, there, (src, src_port))
        self.streams.append((src, host, mine))
        self.streams.append((host, src, theirs))
        listener.send.send_nowait(theirs)
        return mine

    def listen(self, host: str, port: int) -> tuple[list[trio.abc.Listener[trio.abc.Stream]], int]:
        if port == 0:
            port = FIRST_PORT + self.next_port[f"listen {host}"]
            self.next_port[f"listen {host}"] += 1
        if (host, port) in self.listeners:
            raise OSError(errno.EADDRINUSE, f"{host}:{port} is in use")
        listener = SimListener(self, host, port)
        self.listeners[(host, port)] = listener
        return [listener], port

    def reset(self, a: str, b: str) -> int:
        """Break every live stream between hosts ``a`` and ``b``: how many."""
        hit = 0
        for src, dst, stream in self.streams:
            if {src, dst} == {a, b} and not stream.out.broken and not stream.closed:
                stream.reset()
                hit += 1
        self._forget()
        return hit

    def crash(self, host: str) -> None:
        """``host``'s program died: its listeners are gone and its streams break."""
        for key in [k for k in self.listeners if k[0] == host]:
            listener = self.listeners.pop(key)
            listener.send.close()
        for src, dst, stream in self.streams:
            if host in (src, dst):
                stream.reset()
        self._forget()

    def _forget(self) -> None:
        self.streams = [
            s for s in self.streams if not (s[2].out.broken or (s[2].closed and s[2].out.eof))
        ]


class Node:
    """One simulated host's view of the network (``p2pbelka.net.network.Network``)."""

    def __init__(self, net: SimNetwork, host: str) -> None:
        self.net = net
        self.host = host

    async def connect(self, host: str, port: int) -> trio.abc.Stream:
        return await self.net.connect(self.host, host, port)

    async def listen(
        self, host: str, port: int
    ) -> tuple[list[trio.abc.Listener[trio.abc.Stream]], int]:
        await trio.lowlevel.checkpoint()
        return self.net.listen(self.host, port)

    def peer_host(self, stream: trio.abc.Stream) -> str:
        return stream.socket.getpeername()[0] if isinstance(stream, SimStream) else "unknown"

    def uniform(self, low: float, high: float) -> float:
        return self.net.rng.uniform(low, high)
