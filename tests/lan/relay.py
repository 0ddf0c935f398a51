"""A faulty TCP relay for the LAN tests (the kernel here has no netem).

It sits in front of a peer's listener and forwards whole frames (it reads the
4-byte length prefix; the bodies are encrypted), each after a random delay;
now and then it stalls a direction, and it cuts every connection after a
random lifetime.  All choices come from one seeded generator.  Loopback only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import trio


@dataclass
class Faults:
    delay: float = 0.0  # upper bound of the delay before each frame, seconds
    stall_chance: float = 0.0  # per frame
    stall: float = 0.0  # seconds
    life: float | None = None  # mean lifetime of a connection before the cut
    # Cut each relay's first connection after this many frames: a cut bound to the
    # game's progress, so that even a game short enough to outrun every random
    # lifetime still sees one.
    first_cut_after: int | None = None


class Relay:
    def __init__(self, faults: Faults, seed: int) -> None:
        self.faults = faults
        self.rng = random.Random(seed)
        self.target: int | None = None
        self.port = 0
        self.cuts = 0
        self.frames = 0
        self.connections = 0

    async def serve(self, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started(self.port)
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        # The peer behind may not listen yet: its port becomes known when the game starts.
        with trio.move_on_after(10):
            while self.target is None:
                await trio.sleep(0.01)
        if self.target is None:
            await client.aclose()
            return
        try:
            upstream = await trio.open_tcp_stream("127.0.0.1", self.target)
        except OSError:
            await client.aclose()
            return
        life = self.rng.expovariate(1 / self.faults.life) if self.faults.life else None
        self.connections += 1
        budget = self.faults.first_cut_after if self.connections == 1 else None
        link = _Link(budget)
        async with client, upstream:
            with trio.move_on_after(life if life is not None else float("inf")) as scope:
                link.cut = scope
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._pump, client, upstream, nursery.cancel_scope, link)
                    nursery.start_soon(self._pump, upstream, client, nursery.cancel_scope, link)
            if scope.cancelled_caught:
                self.cuts += 1
            await trio.aclose_forcefully(client)
            await trio.aclose_forcefully(upstream)

    async def _pump(
        self,
        source: trio.SocketStream,
        sink: trio.SocketStream,
        scope: trio.CancelScope,
        link: _Link,
    ) -> None:
        buffer = b""
        try:
            while True:
                data = await source.receive_some(65536)
                if not data:
                    break
                buffer += data
                while len(buffer) >= 4:
                    size = 4 + int.from_bytes(buffer[:4], "big")
                    if len(buffer) < size:
                        break
                    frame, buffer = buffer[:size], buffer[size:]
                    await self._delay()
                    await sink.send_all(frame)
                    self.frames += 1
                    link.forwarded()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        scope.cancel()

    async def _delay(self) -> None:
        f = self.faults
        if f.delay:
            await trio.sleep(self.rng.uniform(0, f.delay))
        if f.stall_chance and self.rng.random() < f.stall_chance:
            await trio.sleep(f.stall)


class _Link:
    """One relayed connection: its frames forwarded both ways, and the scope whose
    cancellation cuts it."""

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.cut: trio.CancelScope | None = None

    def forwarded(self) -> None:
        if self.budget is None:
            return
        self.budget -= 1
        if self.budget <= 0 and self.cut is not None:
            self.cut.cancel()
