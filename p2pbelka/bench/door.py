"""``p2pbelka bench door``: the host's invite code against a stranger with one laptop.

A host under a code runs in a process of its own on loopback (its CPU is read from
the kernel); this process attacks it with bounded loops from up to sixteen loopback
addresses (127.0.0.2 ...), which the host treats as a LAN's: no address is exempt.
Every attack ends by itself (a count and a time).  Figures:

- ``parallel_tested`` / ``parallel_right_in``: sixty HELLOs at once under one code
  from one address (admitted as far as its token bucket goes, 12 at once), the
  right one among them sent first: REPLYs the host sent (guesses tested), and
  whether the right one got in; ``parallel15_tested``: the same from fifteen
  addresses, four each;
- ``flood_codes_per_s``: new codes drawn a second while sixteen addresses replay
  HELLOs four at a time (what a guess costs a laptop: nothing); ``flood_tested`` the
  guesses tested in all; ``honest_in``: of ten tries by a joiner who reads the code
  off the host's screen and types it 3 s later, how many got in.  The host's person
  draws a new code 1 s after the old one is used up;
- ``bare_ms`` / ``bare_x``: host CPU per connection that sends nothing (ms, and in
  yardsticks: one PyNaCl ed25519 multiplication timed in the same run), and
  ``bare_core_at_283``: the share of a core a flood of 283 such a second costs;
- ``bare_spake2_starts``: SPAKE2 starts the host computed for those (-1: a version
  that does not count them);
- ``replay_ms``: host CPU per replayed HELLO, from one address.

Against a version before guesses were counted when tested (``net/guesses.py``),
the same script measures the old behaviour: its host redraws the code itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio

import p2pbelka
from p2pbelka.net.channel import read_frame
from p2pbelka.net.connection import open_secure_channel
from p2pbelka.net.errors import HandshakeError

try:
    from p2pbelka.net.errors import GuessRefused
except ImportError:  # a version before guesses were counted when tested: never raised

    class GuessRefused(HandshakeError):  # type: ignore[no-redef]
        reason, seconds = "", 0.0


from p2pbelka.net.frames import FrameDecoder, encode_frame
from p2pbelka.net.handshake import HANDSHAKE_MAX_MESSAGE, MSG_REPLY, Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import normal_code

LOCAL = "127.0.0.1"
ROOT = str(Path(p2pbelka.__file__).resolve().parents[1])  # the host runs this same code
PATH = os.environ.get("PYTHONPATH", "")
CTX = b"bench door"
CODE = "482 913"
GUESS_WAIT = 30.0  # as p2pbelka join waits, on its own, for a host that asks it to

# The host, run as ``python -c``: one JSON line per news; "cpu" on stdin asks its CPU.
HOST = r"""
import json, resource, sys, trio
from functools import partial
from p2pbelka.net.connection import serve_secure
from p2pbelka.net.door import Door, DoorPolicy
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import InvitePake
try:
    from p2pbelka.net.guesses import GuessPolicy, InviteGuard
    new = True
except ImportError:
    from p2pbelka.net.pake import InviteGuard
    new = False

def say(**kw):
    print(json.dumps(kw), flush=True)

async def main():
    if new:
        guard = InviteGuard(sys.argv[1], GuessPolicy(exempt_loopback=False),
                            on_change=lambda code, n: say(code=code))
    else:
        guard = InviteGuard(sys.argv[1], on_change=lambda code, n: say(code=code))
    # LAN admission, no address exempt; the rate per address is left to the guesses
    rate = float(sys.argv[4])
    door = Door(DoorPolicy(exempt_loopback=False, per_address=int(sys.argv[3]), rate=rate,
                           burst=max(12.0, rate)))

    async def handler(channel):
        async for _ in channel:
            pass

    async def person():  # draws a new code a second after the old is used up
        while new:
            await trio.sleep(0.1)
            if guard.spent:
                await trio.sleep(1.0)
                guard.redraw(trio.current_time())

    async def commands():
        stdin = trio.lowlevel.FdStream(0)
        buf = b""
        while True:
            data = await stdin.receive_some()
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                use = resource.getrusage(resource.RUSAGE_SELF)
                starts = getattr(InvitePake, "starts", None)
                say(cpu=use.ru_utime + use.ru_stime, changes=guard.changes,
                    tested=getattr(guard, "tested", -1),
                    spake2=-1 if starts is None else starts["responder"])

    async with trio.open_nursery() as nursery:
        port = await nursery.start(partial(serve_secure, handler, Identity.generate("host"),
                                           host="127.0.0.1", context=sys.argv[2].encode(),
                                           invite=guard, door=door))
        say(port=port, code=guard.code)
        nursery.start_soon(person)
        await commands()
        nursery.cancel_scope.cancel()

trio.run(main)
"""


@dataclass
class Host:
    process: trio.Process
    port: int = 0
    code: str = ""
    answers: list[dict[str, object]] = field(default_factory=list)
    got: trio.Event = field(default_factory=trio.Event)

    async def read(self, started: trio.Event) -> None:
        assert self.process.stdout is not None
        buf = b""
        async for data in self.process.stdout:
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                news = json.loads(line)
                self.code = str(news.get("code", self.code))
                if "port" in news:
                    self.port = int(news["port"])
                    started.set()
                if "cpu" in news:
                    self.answers.append(news)
                    self.got.set()

    async def ask(self) -> dict[str, object]:
        """The host's CPU seconds, codes drawn and guesses tested, now."""
        assert self.process.stdin is not None
        self.got = trio.Event()
        await self.process.stdin.send_all(b"cpu\n")
        with trio.fail_after(60):
            await self.got.wait()
        return self.answers[-1]


async def _host(nursery: trio.Nursery, per_address: int = 4, rate: float = 4.0) -> Host:
    process = await nursery.start(
        lambda task_status: trio.run_process(
            [sys.executable, "-P", "-c", HOST, CODE, CTX.decode(), str(per_address), str(rate)],
            stdin=-1,
            stdout=-1,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, PATH]))},
            check=False,
            task_status=task_status,
        )
    )
    host = Host(process)
    started = trio.Event()
    nursery.start_soon(host.read, started)
    with trio.fail_after(60):
        await started.wait()
    return host


async def _hello(port: int, hello: bytes, source: str) -> tuple[trio.SocketStream, bytes | None]:
    """Send a HELLO; the stream and the host's first answer (None: closed)."""
    stream = await trio.open_tcp_stream(LOCAL, port, local_address=source)
    await stream.send_all(encode_frame(hello))
    try:
        with trio.fail_after(10):
            return stream, await read_frame(stream, FrameDecoder(HANDSHAKE_MAX_MESSAGE))
    except (trio.TooSlowError, OSError, trio.BrokenResourceError, Exception):
        return stream, None


def _joiner(code: str) -> Handshake:
    return Handshake(Identity.generate("j"), Role.INITIATOR, context=CTX, code=normal_code(code))


async def _parallel(addresses: int) -> tuple[int, bool]:
    """Sixty HELLOs at once, the right one first: REPLYs, and whether the right got in."""
    async with trio.open_nursery() as nursery:
        host = await _host(nursery, 4 if addresses > 1 else 64)
        right = _joiner(host.code)
        sources = [f"127.0.0.{2 + n % addresses}" for n in range(60)]
        hellos = [right.start()] + [_joiner(f"{100000 + n}").start() for n in range(59)]
        streams = []
        for hello, source in zip(hellos, sources, strict=True):
            stream = await trio.open_tcp_stream(LOCAL, host.port, local_address=source)
            await stream.send_all(encode_frame(hello))
            streams.append(stream)
        answers = []
        for stream in streams:
            answer = None
            with trio.move_on_after(10), contextlib.suppress(trio.BrokenResourceError):
                answer = await read_frame(stream, FrameDecoder(HANDSHAKE_MAX_MESSAGE))
            answers.append(answer)
        replies = sum(1 for a in answers if a and a[0] == MSG_REPLY)
        got_in = False
        first = answers[0] if answers else None
        if first and first[0] == MSG_REPLY:
            try:
                auth = right.receive(first)
                assert auth is not None
                await streams[0].send_all(encode_frame(auth))
                with trio.move_on_after(10):
                    confirm = await read_frame(streams[0], FrameDecoder(HANDSHAKE_MAX_MESSAGE))
                    if confirm:
                        right.receive(confirm)
                        got_in = right.done
            except (HandshakeError, OSError, trio.BrokenResourceError):
                pass
        for stream in streams:
            await stream.aclose()
        assert host.process.stdin is not None
        await host.process.stdin.aclose()
    return replies, got_in


async def _flood(seconds: float, addresses: int, honest: bool) -> dict[str, object]:
    """Replayed HELLOs four at a time from each address, for ``seconds`` at most, and
    (``honest``) a joiner's ten tries meanwhile."""
    figures: dict[str, object] = {}
    async with trio.open_nursery() as nursery:
        host = await _host(nursery)
        hello = _joiner("000000").start()
        stop = trio.current_time() + seconds
        tested = [0]

        async def flood(source: str) -> None:
            for _ in range(100_000):  # bounded: a count and a time
                if trio.current_time() > stop:
                    return
                try:
                    stream, answer = await _hello(host.port, hello, source)
                except OSError:
                    await trio.sleep(0.05)
                    continue
                if answer and answer[0] == MSG_REPLY:
                    tested[0] += 1
                await stream.aclose()
                if not answer or answer[0] != MSG_REPLY:
                    await trio.sleep(0.02)

        results: list[str] = []

        async def joiner() -> None:
            for _ in range(10):
                code = host.code  # read off the host's screen
                await trio.sleep(3.0)  # and typed
                results.append(await _friend(host.port, code))
                await trio.sleep(1.0)

        start = trio.current_time()
        before = await host.ask()
        async with trio.open_nursery() as attack:
            for n in range(addresses):
                for _ in range(4):
                    attack.start_soon(flood, f"127.0.0.{2 + n}")
            if honest:
                await joiner()
                attack.cancel_scope.cancel()
        after = await host.ask()
        took = trio.current_time() - start
        changes = int(str(after["changes"])) - int(str(before["changes"]))
        figures["codes_per_s"] = round(changes / took, 2)
        figures["tested"] = tested[0]
        figures["tested_per_code"] = round(tested[0] / (changes + 1), 1)
        if honest:
            figures["honest_in"] = f"{results.count('in')} of {len(results)}"
            figures["honest_not_in"] = ",".join(r for r in results if r != "in") or "-"
        assert host.process.stdin is not None
        await host.process.stdin.aclose()
    return figures


async def _friend(port: int, code: str) -> str:
    """A friend's try with ``code``, as ``p2pbelka join`` makes it: a host that asks it
    to wait a little (a wrong code from its address a moment ago) is waited for."""
    for _ in range(5):
        stream = await trio.open_tcp_stream(LOCAL, port)
        try:
            channel = await open_secure_channel(
                stream,
                Identity.generate("friend"),
                Role.INITIATOR,
                context=CTX,
                code=normal_code(code),
            )
        except GuessRefused as exc:
            if exc.reason != "wait" or exc.seconds > GUESS_WAIT:
                return f"{exc.reason}"
            await trio.sleep(exc.seconds)
        except HandshakeError as exc:
            return type(exc).__name__
        else:
            await channel.aclose()
            return "in"
    return "waited"


async def _cpu(rate: float, seconds: float, replay: int) -> tuple[float, float, int]:
    """Host CPU ms per bare connection (at ``rate`` a second, every one admitted), and
    per replayed HELLO; and the SPAKE2 starts the bare ones cost (-1: not counted)."""
    async with trio.open_nursery() as nursery:
        host = await _host(nursery, 64, 1e6)
        await trio.sleep(0.5)
        before = await host.ask()
        n = int(rate * seconds)
        streams = []
        for _ in range(n):
            streams.append(await trio.open_tcp_stream(LOCAL, host.port))
            await trio.sleep(1 / rate)
            if len(streams) > 32:  # a flood opens and drops them
                await streams.pop(0).aclose()
        for stream in streams:
            await stream.aclose()
        await trio.sleep(0.5)
        mid = await host.ask()
        hello = _joiner("000000").start()
        for _ in range(replay):
            stream, _answer = await _hello(host.port, hello, "127.0.0.20")
            await stream.aclose()
        await trio.sleep(0.5)
        after = await host.ask()
        assert host.process.stdin is not None
        await host.process.stdin.aclose()

    def cpu(a: dict[str, object], b: dict[str, object]) -> float:
        return float(str(b["cpu"])) - float(str(a["cpu"]))

    counted = int(str(before["spake2"])) >= 0
    starts = int(str(mid["spake2"])) - int(str(before["spake2"])) if counted else -1
    return 1000 * cpu(before, mid) / n, 1000 * cpu(mid, after) / replay, starts


def run(quick: bool = False) -> dict[str, object]:
    from p2pbelka.bench.deal_crypto import yardstick_us

    unit_ms = yardstick_us(200 if quick else 2000) / 1000
    figures: dict[str, object] = {"yardstick_us": round(1000 * unit_ms, 1)}
    tested, right_in = trio.run(_parallel, 1)
    figures["parallel_tested"], figures["parallel_right_in"] = tested, right_in
    figures["parallel15_tested"] = trio.run(_parallel, 15)[0]
    # --quick (a smoke test: every figure, none worth quoting): each flood and the
    # bare connections half a second, each a CPU-bound loop in both processes
    one = trio.run(_flood, 0.5 if quick else 20.0, 1, False)
    figures["flood1_codes_per_s"] = one["codes_per_s"]
    many = trio.run(_flood, 0.5 if quick else 60.0, 16, not quick)
    figures.update({f"flood16_{k}": v for k, v in many.items()})
    bare, replay, starts = trio.run(_cpu, 283.0, 0.5 if quick else 3.0, 20 if quick else 100)
    figures["bare_spake2_starts"] = starts
    figures["bare_ms"] = round(bare, 3)
    figures["bare_x"] = round(bare / unit_ms, 1)
    figures["bare_core_at_283"] = f"{283 * bare / 10:.0f}%"
    figures["replay_ms"] = round(replay, 2)
    figures["replay_x"] = round(replay / unit_ms, 1)
    return figures


if __name__ == "__main__":  # against another checkout: python path/to/door.py
    start = time.perf_counter()
    for key, value in run(quick="--quick" in sys.argv).items():
        print(f"{key:28} {value}")
    print(f"{'seconds':28} {time.perf_counter() - start:.0f}")
