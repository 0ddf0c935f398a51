"""One simulated game, start to end: the real peers of a table (the host's lobby, the
joiners, their meshes, drivers, seat changes, stores and bots) in one process,
on the simulated network, under trio's ``MockClock``, with the faults of a
schedule; everything drawn from one seed.

Each seat's program is a task tree of its own (``Program``), run on its own
view of the network and as a program of its own (its game's lock is its own,
``storelock.program``).  A kill cancels that tree wherever it waits (a crash
between two awaits: what it wrote stays, as the kernel would keep it), breaks its
streams and lets go of its lock; a resume starts the real resume path
(``peer.lan.resume_game``: a host reopens its lobby to its watchers) from the seat's
game directory, as ``p2pbelka resume`` does; now and then two copies resume at once,
as a user who ran the command twice: the second is refused (``StoreBusy``, exit 3).

What comes out (``Outcome``) is what the checks read (``checks.py``): every
program's exit, every saved copy's bytes, the people's answers and what the
network did.
"""

from __future__ import annotations

import contextlib
import math
import random
import shutil
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
import trio.testing

from p2pbelka import edkeys
from p2pbelka.bots import make_bot
from p2pbelka.fairdeal.secp256k1 import SECP256K1
from p2pbelka.net import network
from p2pbelka.net.identity import Identity
from p2pbelka.peer import chat, disk, storelock, wallclock
from p2pbelka.peer.lan import (
    GameResult,
    LobbyEvent,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
    resume_game,
)
from p2pbelka.peer.local import SEAT_NAMES
from p2pbelka.peer.loopback import seeded, stream
from p2pbelka.peer.seat import NetOptions
from p2pbelka.peer.store import GameStore
from p2pbelka.peer.watch import watch_game
from p2pbelka.protocol import envelope
from p2pbelka.protocol.chat import open_chat
from p2pbelka.protocol.transcript import MAGIC, valid_prefix_length
from p2pbelka.rules import registry
from p2pbelka.sim import faults
from p2pbelka.sim.coverage import counting
from p2pbelka.sim.disk import SimDisk
from p2pbelka.sim.faults import Kill, Reset, Schedule, host_of
from p2pbelka.sim.network import SimNetwork
from p2pbelka.sim.people import MOODS, Person, Watcher

BOT = "random"
WATCHER = 10
"""The first watcher's number, where seats' copies and programs are numbered by seat."""
OFFER_TIMEOUT = 30.0
LIMIT = 2 * 3600.0
"""Simulated seconds every program must have ended by: the checks' bound."""


@dataclass
class Exit:
    """How one run of a seat's program ended."""

    seat: int
    started: float
    ended: float | None = None
    result: GameResult | None = None
    error: BaseException | None = None
    killed: bool = False
    resumed: bool = False
    watched: bool | None = None  # a watcher's: fed to the end
    left: bool = False  # a watcher's: it left before the end (its person stopped watching)
    stopped: bool = False  # still running when a short run stopped the world

    @property
    def what(self) -> str:
        if self.stopped:
            return "stopped with the short run"
        if self.killed:
            return "killed"
        if self.left:
            return "left"
        if self.watched is not None:
            return "watched to the end" if self.watched else "watch given up"
        if self.error is not None:
            return f"{type(self.error).__name__}: {self.error}"
        if self.result is None:
            return "still running"
        if self.result.finished:
            return "finished"
        return "aborted" if self.result.aborted else "stopped"


@dataclass
class Copy:
    """A seat's saved game as the run left it (a watcher's: ``seat`` from ``WATCHER``)."""

    seat: int
    transcript: bytes
    signed: bytes
    finished: bool


@dataclass
class Outcome:
    seed: int
    game: str
    players: int
    schedule: Schedule
    exits: list[Exit] = field(default_factory=list)
    copies: list[Copy] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    """Faults and recovery paths reached."""
    events: list[tuple[int, object]] = field(default_factory=list)
    ended_at: float = 0.0
    keys: list[bytes] = field(default_factory=list)
    limit: float = LIMIT
    """Simulated seconds every program had to end in."""
    stop: float | None = None
    """A short run's end: the world stops every program then (``simulate``'s ``stop``)."""
    declined_back: list[float] = field(default_factory=list)
    """When a person declined to hand a seat back to its player."""
    watchers_lines: dict[int, str | None] = field(default_factory=dict)
    """The last line naming who watches each seat's latest program showed (SPEC 7.5),
    by seat; the host's is the latest it said (its ``Chat.standing``)."""
    watchers_said: list[tuple[float, str]] = field(default_factory=list)
    """Every line naming who watches the host said, and when (all its programs')."""
    over_at: dict[int, float | None] = field(default_factory=dict)
    """When each seat's game was over, by seat (its latest program's table said so)."""
    watchers_due: str | None = None
    """The host's line naming who watches that its sending limit still held back at the
    end, if any (``Chat.say_standing``)."""
    signatures: edkeys.Known = field(default_factory=dict, repr=False, compare=False)
    products: dict[tuple[bytes, bytes], bytes] = field(
        default_factory=dict, repr=False, compare=False
    )
    opened: envelope.Opened = field(default_factory=dict, repr=False, compare=False)
    """The run's signature checks, point products and envelopes opened, remembered
    (``remembered``)."""


@contextlib.contextmanager
def remembered(outcome: Outcome) -> Iterator[None]:
    """Pure crypto answered once for the run and its checks: every peer checks every
    envelope and opens every card shown, and the checks read every copy again
    (``edkeys.remembering``, ``SECP256K1.remembering``); and each envelope opened once
    (``envelope.remembering``)."""
    with (
        edkeys.remembering(outcome.signatures),
        SECP256K1.remembering(outcome.products),
        envelope.remembering(outcome.opened),
    ):
        yield


def simulate(
    seed: int,
    game: str = registry.DEFAULT,
    players: int = 4,
    schedule: Schedule | None = None,
    *,
    keep: Path | None = None,
    twice: bool = True,
    limit: float = LIMIT,
    stop: float | None = None,
) -> Outcome:
    """Run the game ``seed`` names (its faults drawn from it, unless ``schedule``;
    ``twice``: a kill may be followed by two resumes at once).  ``stop``: a short
    run, the world stopped that many simulated seconds in, its faults drawn from the
    time before (``SHORT_FAULTS`` of it), checked as the game stands then."""
    rng = random.Random(f"sim/{game}/{players}/{seed}")
    span = horizon(game, players) if stop is None else stop * SHORT_FAULTS
    drawn = faults.draw(random.Random(rng.getrandbits(64)), players, span, twice=twice)
    schedule = drawn if schedule is None else schedule
    outcome = Outcome(seed, game, players, schedule, limit=limit, stop=stop)
    root = Path(tempfile.mkdtemp(prefix="p2pbelka-sim-")) if keep is None else keep
    try:
        sim_disk = SimDisk(random.Random(rng.getrandbits(64)), outcome.counts)
        with (
            deterministic(rng.getrandbits(64)),
            counting(outcome.counts),
            disk.use(sim_disk),
            wallclock.use(wall_clock),
            remembered(outcome),
            quiet_io(),
        ):
            world = World(outcome, rng, root, sim_disk)
            trio.run(world.run, clock=sim_clock())
        world.collect()
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return outcome


EPOCH = 1_750_000_000.0
"""The wall clock's time when a simulated run starts (June 2025): the run's wall clock is
its simulated clock from there (``wall_clock``), so a certificate's time, a game's
start and a chat line's counter follow from the seed."""


def wall_clock() -> float:
    """The simulated run's wall clock (``peer.wallclock``): ``EPOCH`` plus trio's time."""
    try:
        return EPOCH + trio.current_time()
    except RuntimeError:  # outside the run (reading its results back): its start
        return EPOCH


SHORT_FAULTS = 0.6
"""The share of a short run its faults fall in: the rest is for the table to answer them."""


def horizon(game: str, players: int) -> float:
    """About how long (simulated seconds) a game of people lasts: faults fall in it."""
    return 600.0 if players == 4 else 400.0


@contextlib.contextmanager
def deterministic(seed: int) -> Iterator[None]:
    """Trio's scheduler and the ``random`` module from ``seed`` for the block: trio
    shuffles the tasks ready at once with a generator of its own, seeded only under
    hypothesis (TESTING.md, "Deterministic simulation")."""
    from trio._core import _run

    saved = _run._r.getstate(), _run._ALLOW_DETERMINISTIC_SCHEDULING, random.getstate()
    _run._r.seed(seed)
    _run._ALLOW_DETERMINISTIC_SCHEDULING = True  # type: ignore[misc]
    random.seed(seed)
    try:
        yield
    finally:
        _run._r.setstate(saved[0])
        _run._ALLOW_DETERMINISTIC_SCHEDULING = saved[1]  # type: ignore[misc]
        random.setstate(saved[2])


def sim_clock() -> trio.testing.MockClock:
    """``MockClock(autojump_threshold=0)`` answering the same times for less (trio's run
    loop asks the time at every step).  Its rate is 0, never changed: the time moves only
    by jumps, when every task waits; so the time is the last jump's, never worked out from
    the real clock (``MockClock`` adds ``0 * (real - base)`` to it).  And a jump goes to
    the next deadline, found without ``current_statistics`` (which counts every task and
    file descriptor).  (``MockClock`` may not be subclassed: the instance's own.)"""
    from trio._core._run import GLOBAL_RUN_CONTEXT

    clock = trio.testing.MockClock(autojump_threshold=0)

    def current_time() -> float:
        return clock._virtual_base

    def autojump() -> None:
        jump = GLOBAL_RUN_CONTEXT.runner.deadlines.next_deadline() - clock._virtual_base
        if 0 < jump < math.inf:
            clock.jump(jump)

    clock.current_time = current_time  # type: ignore[method-assign]
    clock._autojump = autojump  # type: ignore[method-assign]
    return clock


@contextlib.contextmanager
def quiet_io() -> Iterator[None]:
    """Trio's I/O manager for the block's runs asks the kernel for events only when one
    may be waiting.  A simulated world has no socket, file descriptor or thread: at every
    step trio's run loop asks epoll, with no wait, whether one is ready, and the answer
    is always none.  So it asks only when the run's queue of calls from outside (a
    thread, a signal, an async generator closed) holds one, or it would wait, or every
    ``QUIET_POLLS`` steps (a signal's byte, Ctrl-C)."""
    from trio._core import _run

    names = vars(_run)
    real: Any = names["TheIOManager"]
    if not hasattr(real, "_registered"):  # not epoll: left as it is
        yield
        return

    class Quiet(real):  # type: ignore[misc]
        skipped = 0

        def get_events(self, timeout: float) -> object:
            queue = _run.GLOBAL_RUN_CONTEXT.runner.entry_queue
            if (
                timeout > 0
                or len(self._registered) > 1  # more than the queue's own wake-up
                or queue.queue
                or queue.idempotent_queue
                or self.skipped >= QUIET_POLLS
            ):
                self.skipped = 0
                return super().get_events(timeout)
            self.skipped += 1
            return []  # what epoll says when nothing is ready

    names["TheIOManager"] = Quiet
    try:
        yield
    finally:
        names["TheIOManager"] = real


QUIET_POLLS = 1000


class World:
    def __init__(self, outcome: Outcome, rng: random.Random, root: Path, disk: SimDisk) -> None:
        self.outcome = outcome
        self.disk = disk
        self.rng = rng
        self.root = root
        self.players = outcome.players
        self.net = SimNetwork(outcome.schedule, random.Random(rng.getrandbits(64)))
        parts = seeded(outcome.seed, self.players, outcome.game)
        self.ids = [Identity.from_seed(parts.keys[n], SEAT_NAMES[n]) for n in range(self.players)]
        outcome.keys = [i.public_key for i in self.ids]
        self.nets = [
            NetOptions(
                listen_host=host_of(n),
                announce=False,
                home=root / f"seat{n}",
                fresh_seeds=stream(parts.streams[n]),
                fresh_nonces=stream(parts.nonces[n], size=16),
                fresh_bots=stream(rng.randbytes(8)),
                sync=True,
                give_up_after=faults.WINDOW,
                offer_timeout=OFFER_TIMEOUT,
                table_id=parts.game_id,
                share_in_lobby=False,  # the scenarios are timed to the game, drawn as before
            )
            for n in range(self.players)
        ]
        mood = rng.choice(MOODS)
        self.people = [
            Person(
                n,
                make_bot(BOT, outcome.seed * 10 + n),
                random.Random(rng.getrandbits(64)),
                OFFER_TIMEOUT,
                mood,
            )
            for n in range(self.players)
        ]
        self.watchers = [Watcher() for _ in range(rng.choice((0, 0, 1, 2)))]
        comings = random.Random(f"sim/{outcome.game}/{outcome.players}/{outcome.seed}/watchers")
        self.comings = [_coming(comings) for _ in self.watchers]
        """When each watcher leaves and comes back, if it does (a generator of their own:
        every other draw of the run is as it was before watchers came and went)."""
        self.scopes: dict[int, list[trio.CancelScope]] = {n: [] for n in range(self.players)}
        self.running: dict[int, list[trio.Event]] = {n: [] for n in range(self.players)}
        self.lobby_port = 0
        self.powered_off: set[int] = set()
        """Seats whose machine lost its power and has not been resumed since."""

    async def run(self) -> None:
        """The host, then each joiner once the one before is seated (so the seats follow
        the seed), the faults at their times, the watchers; until every program ended
        or the bound."""
        stop = self.outcome.stop
        with trio.move_on_after(self.outcome.limit if stop is None else min(stop, LIMIT)):
            async with trio.open_nursery() as programs:
                self.programs = programs
                opened = trio.Event()
                programs.start_soon(self._program, 0, self._host, opened)
                await opened.wait()
                for n in range(1, self.players):
                    seated = trio.Event()
                    programs.start_soon(self._program, n, self._joiner, seated)
                    with trio.move_on_after(120):
                        await seated.wait()
                self._faults(programs)
                for n in range(len(self.watchers)):
                    programs.start_soon(self._watch, n, self.rng.choice((0.0, 100.0, 300.0)))
        self.outcome.ended_at = trio.current_time()
        self.outcome.counts.update(self.net.counts)
        if stop is not None:
            for exit in self.outcome.exits:
                if exit.ended is None:
                    exit.stopped, exit.ended = True, self.outcome.ended_at

    async def _program(
        self, seat: int, main: Callable[..., Awaitable[GameResult]], *args: object
    ) -> None:
        """One run of seat ``seat``'s program: ``main`` on its own network view, in a
        scope a kill cancels.  (Two runs at once, a resume started twice, share the
        seat's person: its thinks go to the later run's nursery.)"""
        exit = Exit(seat, trio.current_time(), resumed=main == self._resume)
        self.outcome.exits.append(exit)
        scope, done = trio.CancelScope(), trio.Event()
        self.scopes[seat].append(scope)
        self.running[seat].append(done)
        person = self.people[seat]
        # a program of its own: its game's lock is its own, and let go of when it ends
        with (
            network.use(self.net.node(host_of(seat))),
            storelock.program(),
            chat.opened(person.opened),
            scope,
        ):
            before = person.nursery
            try:
                async with trio.open_nursery() as nursery:
                    person.nursery = nursery
                    exit.result = await main(seat, *args)
                    nursery.cancel_scope.cancel()
            except Exception as exc:
                exit.error = _alone(exc)
            finally:
                if person.nursery is nursery:  # the other run, if any, thinks on
                    person.nursery = before
        exit.killed = scope.cancelled_caught
        exit.ended = trio.current_time()
        self.scopes[seat].remove(scope)
        self.running[seat].remove(done)
        done.set()

    async def _host(self, seat: int, opened: trio.Event) -> GameResult:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                self.lobby_port = event.lobby_port
                opened.set()

        return await host_game(
            self.ids[0],
            "simulated table",
            self.people[0],
            net=self.nets[0],
            on_lobby=on_lobby,
            game=self.outcome.game,
            players=self.players,
        )

    async def _joiner(self, seat: int, seated: trio.Event) -> GameResult:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, SeatsChanged) and event.me is not None:
                seated.set()

        return await join_game(
            self.ids[seat],
            host_of(0),
            self.lobby_port,
            self.people[seat],
            host_key=self.ids[0].public_key,
            net=self.nets[seat],
            on_lobby=on_lobby,
        )

    async def _watch(self, n: int, at: float) -> None:
        """A watcher on a machine of its own, from the lobby (or later) to the end; or it
        leaves on the way (``comings``), and may come back once, as a program of its
        own (``watchers``: one more front end, and copy), to the end."""
        await trio.sleep_until(at)
        identity = Identity.from_seed(self.rng.randbytes(32), f"Watcher {n + 1}")
        leave, back = self.comings[n]
        left = await self._watching(n, identity, leave)
        if not left or back is None:
            return
        await trio.sleep(back)
        self.outcome.counts["watcher back"] += 1
        self.watchers.append(Watcher())
        await self._watching(len(self.watchers) - 1, identity, None)

    async def _watching(self, n: int, identity: Identity, leave: float | None) -> bool:
        """One run of ``watch``, as the watcher ``n`` (its front end, copy and machine);
        ``leave``: its person stops it after so many seconds (if it runs that long).
        Whether it left so."""
        watcher = WATCHER + n
        exit = Exit(watcher, trio.current_time())
        self.outcome.exits.append(exit)
        home = self.root / f"watcher{n}"
        net = NetOptions(listen_host=host_of(watcher), announce=False, home=home)
        with network.use(self.net.node(host_of(watcher))):
            with trio.move_on_after(math.inf if leave is None else leave) as stopped:
                try:
                    result = await watch_game(
                        identity,
                        host_of(0),
                        self.lobby_port,
                        self.watchers[n],
                        host_key=self.ids[0].public_key,
                        net=net,
                    )
                    exit.watched = result.fed
                except Exception as exc:
                    exit.error = exc
            if stopped.cancelled_caught:
                exit.left = True
                self.outcome.counts["watcher left"] += 1
        exit.ended = trio.current_time()
        return exit.left

    async def _resume(self, seat: int, directory: Path) -> GameResult:
        self.outcome.counts["resume"] += 1
        net = self.nets[seat]
        fresh = NetOptions(**{**net.__dict__, "listen_port": 0})
        return await resume_game(self.ids[seat], GameStore(directory), self.people[seat], net=fresh)

    def _faults(self, programs: trio.Nursery) -> None:
        """The schedule's resets and kills, at their times (cuts need no task: the
        network reads them)."""
        for fault in self.outcome.schedule.faults:
            self.outcome.counts[fault.kind] += 1
            if isinstance(fault, Reset):
                programs.start_soon(self._reset, fault)
            elif isinstance(fault, Kill):
                programs.start_soon(self._kill, fault)

    async def _reset(self, fault: Reset) -> None:
        await trio.sleep_until(fault.at)
        if self.net.reset(host_of(fault.a), host_of(fault.b)):
            self.outcome.counts["streams reset"] += 1

    async def _kill(self, fault: Kill) -> None:
        await trio.sleep_until(fault.at)
        if not self.scopes[fault.seat]:
            return  # it has ended already
        self.outcome.counts["killed"] += 1
        for scope in list(self.scopes[fault.seat]):
            scope.cancel()
        self.net.crash(host_of(fault.seat))
        for done in list(self.running[fault.seat]):
            await done.wait()
        if fault.power:
            self.disk.power_cut(self.root / f"seat{fault.seat}")
            self.powered_off.add(fault.seat)
        if math.isinf(fault.down):
            return
        await trio.sleep(fault.down)
        directory = self.directory(fault.seat)
        if directory is None:
            self.outcome.counts["killed before its game"] += 1
            return
        self.powered_off.discard(fault.seat)
        self.programs.start_soon(self._program, fault.seat, self._resume, directory)
        if fault.twice:
            self.outcome.counts["resumed twice at once"] += 1
            self.programs.start_soon(self._program, fault.seat, self._resume, directory)

    def directory(self, seat: int) -> Path | None:
        games = self.root / f"seat{seat}" / "games"
        found = sorted(p.parent for p in games.glob("*/game.json")) if games.exists() else []
        return found[0] if found else None

    def collect(self) -> None:
        """Every seat's saved copy, as the run left it."""
        for seat in range(self.players):
            directory = self.directory(seat)
            if directory is None:
                continue
            store = GameStore(directory)
            transcript = _read(store.transcript_path)
            if seat in self.powered_off and self.outcome.stop is not None:
                # Stopped before its resume read past a torn last write: what it will read
                # (not one whole record: the resume moves it all aside).
                keep = valid_prefix_length(transcript)
                transcript = transcript[:keep] if keep > len(MAGIC) else b""
            signed = _read(store.signed_path)
            finished = store.load_meta().finished
            self.outcome.copies.append(Copy(seat, transcript, signed, finished))
        for n, watcher in enumerate(self.watchers):
            if watcher.path is not None and watcher.path.exists():
                data = watcher.path.read_bytes()
                self.outcome.copies.append(Copy(WATCHER + n, data, b"", watcher.report is not None))
        for person in self.people:
            self.outcome.watchers_lines[person.seat] = person.watchers_line
            self.outcome.over_at[person.seat] = person.over_at
            if person.seat == 0 and person.chat is not None:
                standing = person.chat.standing
                said = open_chat(standing).text if standing is not None else None
                self.outcome.watchers_lines[0] = said
                self.outcome.watchers_due = person.chat._due
                self.outcome.watchers_said = list(person.said_watchers)
            self.outcome.answers.update(person.answers)
            self.outcome.declined_back.extend(person.declined_back)
            self.outcome.events.extend((person.seat, e) for e in person.events)


WATCHERS_LEAVE = 0.5
"""The share of watchers that leave before the end (half of them come back)."""


def _coming(rng: random.Random) -> tuple[float | None, float | None]:
    """A watcher's coming and going: after how many seconds of watching it leaves (None:
    it stays to the end), and how many seconds later it comes back (None: it does not)."""
    if rng.random() >= WATCHERS_LEAVE:
        return None, None
    leave = round(rng.uniform(20.0, 250.0), 3)
    return leave, (round(rng.uniform(5.0, 120.0), 3) if rng.random() < 0.5 else None)


def _alone(exc: Exception) -> Exception:
    """The one error a program's nursery wrapped (a second resume refused: the seat's
    ``StoreBusy``, as the real program says it), else the group as it came."""
    while isinstance(exc, ExceptionGroup) and len(exc.exceptions) == 1:
        inner = exc.exceptions[0]
        if not isinstance(inner, Exception):
            break
        exc = inner
    return exc


def _read(path: Path) -> bytes:
    return path.read_bytes() if path.exists() else b""
