"""Peer processes for the LAN tests: each its own process group, home and output file.

Every process gets a deadline and is killed with its whole group at the end, so
nothing outlives a test, even a failing one (use ``PeerSet`` as a context manager).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import trio

from p2pbelka.cli.main import main
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import PeerDriver
from p2pbelka.peer.lan import GameResult, NetOptions, OnLobby
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.drivers import Endpoint
from tests import quickdisk

REPO = Path(__file__).resolve().parents[2]
HANG = 180.0
"""The shortest wait for a process (``Peer.wait_for``, ``PeerSet.wait``): each wait
ends as soon as what it waits for happens, so its timeout only says when to call
it a hang.  A test's own figure is kept when longer; a shorter one (a process's
first line in 10 s) failed on a slow, loaded machine where a start-up alone took
that long, though nothing was wrong."""


@dataclass
class Peer:
    name: str
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path
    home: Path
    _read: int = field(default=0, init=False, repr=False)
    _text: str = field(default="", init=False, repr=False)
    _decoder: codecs.IncrementalDecoder = field(
        default_factory=lambda: codecs.getincrementaldecoder("utf-8")(errors="replace"),
        init=False,
        repr=False,
    )

    def text(self) -> str:
        """Its standard output so far.  Only what it wrote since the last call is read
        (the file only grows): a test polls it every 50 ms for a whole game, and
        reading and decoding it all each time cost more than the wait itself."""
        with open(self.out, "rb") as f:
            f.seek(self._read)
            more = f.read()
        if more:
            self._read += len(more)
            self._text += self._decoder.decode(more)
        return self._text

    def log(self) -> str:
        return self.err.read_text(errors="replace")

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        timeout = max(timeout, HANG)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.text())
            if found:
                return found
            if self.proc.poll() is not None:
                found = re.search(pattern, self.text())
                if found:
                    return found
                raise AssertionError(f"{self.name} exited before {pattern!r}:\n{self.dump()}")
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: no {pattern!r} within {timeout} s:\n{self.dump()}")

    def type(self, line: str) -> None:
        """Type ``line`` and Enter, as a person at the keyboard (``spawn(typed=True)``)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def stats(self) -> dict[str, Any]:
        lines = [ln for ln in self.text().splitlines() if ln.startswith("{")]
        assert lines, f"{self.name} printed no stats:\n{self.dump()}"
        result: dict[str, Any] = json.loads(lines[-1])
        return result

    def transcript(self) -> Path:
        return Path(self.stats()["transcript"])

    def seat(self) -> int:
        return int(self.wait_for(r"you: seat (\d)", 10).group(1))

    def dump(self) -> str:
        return f"--- stdout\n{self.text()[-3000:]}\n--- stderr\n{self.log()[-3000:]}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)


class PeerSet:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.peers: list[Peer] = []
        self.count = 0

    def spawn(
        self,
        name: str,
        *args: str,
        home: Path | None = None,
        netns: str | None = None,
        module: str = "p2pbelka.cli.main",
        typed: bool = False,
        locale: str | None = None,
    ) -> Peer:
        """``p2pbelka ARGS`` (or ``python -m MODULE ARGS``) with its own config dir
        (``home``, new by default), inside the network namespace ``netns`` if given;
        ``typed``: its standard input is a pipe the test writes to (``Peer.type``);
        ``locale``: the ``LANG`` it runs under, no other language variable set."""
        self.count += 1
        home = home or self.root / f"home-{name}"
        home.mkdir(parents=True, exist_ok=True)
        out = self.root / f"{name}-{self.count}.out"
        err = self.root / f"{name}-{self.count}.err"
        # LANGUAGE: the lines the tests read are English, whatever the tester's locale
        env = dict(os.environ, P2PBELKA_HOME=str(home), PYTHONPATH=str(REPO), LANGUAGE="en")
        env.pop("PYTEST_CURRENT_TEST", None)
        if locale is not None:
            for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
                env.pop(variable, None)
            env["LANG"] = locale
        inside = ["ip", "netns", "exec", netns] if netns else []
        # the test's disk: quick syncs unless it is marked real_disk (tests/quickdisk.py)
        disk = ["tests.quickdisk"] if quickdisk.in_use() else []
        with open(out, "wb") as fo, open(err, "wb") as fe:
            proc = subprocess.Popen(
                [*inside, sys.executable, "-m", *disk, module, *args],
                stdout=fo,
                stderr=fe,
                stdin=subprocess.PIPE if typed else subprocess.DEVNULL,
                env=env,
                cwd=self.root,
                start_new_session=True,  # its own process group, killed as one
            )
        peer = Peer(name, proc, out, err, home)
        self.peers.append(peer)
        return peer

    def wait(self, peers: list[Peer], timeout: float) -> list[int]:
        timeout = max(timeout, HANG)
        deadline = time.monotonic() + timeout
        codes = []
        for peer in peers:
            try:
                codes.append(peer.proc.wait(timeout=max(0.1, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                dumps = "\n".join(f"== {p.name}\n{p.dump()}" for p in peers)
                message = f"{peer.name} still running after {timeout} s\n{dumps}"
                raise AssertionError(message) from None
        return codes

    def __enter__(self) -> PeerSet:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for peer in self.peers:
            peer.kill()


def when(check: Callable[[], object]) -> Iterator[bool]:
    """``check()`` as often as asked: the ``done`` of ``Typist.until``."""
    while True:
        yield bool(check())


class Typist:
    """Types "1" (the first choice) at each prompt of a person's text-mode seat."""

    def __init__(self, peer: Peer) -> None:
        self.peer, self.answered = peer, 0

    def step(self) -> None:
        asked = self.peer.text().count("\n  1) ")
        while self.answered < asked and self.peer.proc.poll() is None:
            self.answered += 1
            self.peer.type("1")

    def until(self, done: Iterator[bool] | None, what: str, timeout: float, peer: Peer) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.step()
            if done is not None and next(done):
                return
            time.sleep(0.05)
        raise AssertionError(f"{what} not within {timeout} s:\n{peer.dump()}")


def verify(path: Path) -> str:
    """The verdict line of ``p2pbelka verify`` (run in this process: no start-up cost)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["verify", str(path)])
    return out.getvalue().strip().splitlines()[-1]


def bot_args(*extra: str) -> list[str]:
    return ["--bot", "random", "--quiet", "--stats", "--listen", "127.0.0.1", *extra]


def start_table(peers: PeerSet, *extra: str) -> tuple[Peer, list[Peer]]:
    """A host and three joiners (by address), bots in every seat."""
    name = ("--name", "Kitchen table")
    host = peers.spawn("host", "host", "--auto-approve", *name, "--no-announce", *bot_args(*extra))
    port = host.wait_for(r"lobby port (\d+)", 20).group(1)
    joiners = [
        peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bot_args(*extra))
        for n in range(1, 4)
    ]
    return host, joiners


@dataclass
class WatchedTable:
    """A host's table on loopback that a watcher follows from before the start: one
    seat a person in text mode (``typist`` types the first choice offered, so the
    game waits for that seat while the test does something), two bot joiners."""

    host: Peer
    watcher: Peer
    joiners: list[Peer]
    typist: Typist
    lobby: tuple[str, str]  # ``--connect HOST:PORT`` of the host's lobby
    port: str


def watched_table(peers: PeerSet, beacons: tuple[str, ...] = ()) -> WatchedTable:
    """``beacons``: where the host announces its table (``--group``, ``--beacon-port``),
    given to the watcher too; none by default."""
    name = ("--name", "Kitchen table")
    announce = beacons or ("--no-announce",)
    # no deal wins the game at once (goli: all 120 card points), so the game lasts the
    # three deals or more a test's host comebacks need, whatever the shuffle
    rules = ("--option", "goli=off")
    host = peers.spawn("host", "host", "--auto-approve", *name, *announce, *rules, *bot_args())
    port = host.wait_for(r"lobby port (\d+)", 20).group(1)
    lobby = ("--connect", f"127.0.0.1:{port}")
    watcher = peers.spawn("early", "watch", "--text", *lobby, "--name", "Wall", *beacons)
    watcher.wait_for(r"watching: ", 30)
    person = ("--text", "--player", "Person", "--stats", "--listen", "127.0.0.1")
    joiners = [peers.spawn("joiner1", "join", *lobby, *person, typed=True)]
    joiners += [peers.spawn(f"joiner{n}", "join", *lobby, *bot_args()) for n in (2, 3)]
    return WatchedTable(host, watcher, joiners, Typist(joiners[0]), lobby, port)


def namespaced_table(
    lan: Any,
    peers: PeerSet,
    host_args: list[str],
    joiner_args: Callable[[int], list[str]],
    typed: int | None = None,
) -> list[Peer]:
    """A host in ``lan``'s namespace 0 and a joiner by address in each other one, seated
    one at a time (peer k in seat k); ``typed``: the joiner whose input the test types."""

    def at(k: int) -> list[str]:
        return ["--listen", lan.addresses[k], "--interface", lan.addresses[k]]

    host = peers.spawn("host", "host", "--no-announce", *host_args, *at(0), netns=lan.namespaces[0])
    port = host.wait_for(r"lobby port (\d+)", 30).group(1)
    everyone = [host]
    for k in range(1, len(lan.namespaces)):
        joiner = peers.spawn(
            f"joiner{k}",
            "join",
            "--connect",
            f"{lan.addresses[0]}:{port}",
            *joiner_args(k),
            *at(k),
            netns=lan.namespaces[k],
            typed=k == typed,
        )
        joiner.wait_for(r"seats: ", 30)
        everyone.append(joiner)
    return everyone


def transcript_of(peer: Peer) -> Path:
    files = list(peer.home.glob("games/*/transcript.p2pb"))
    return files[0] if files else peer.home / "none"


def wait_for_bytes(peer: Peer, size: int, timeout: float) -> None:
    """Wait until ``peer``'s transcript holds ``size`` bytes (the game is under way)."""
    deadline = time.monotonic() + max(timeout, HANG)
    while time.monotonic() < deadline:
        path = transcript_of(peer)
        if path.exists() and path.stat().st_size >= size:
            return
        assert peer.proc.poll() is None, peer.dump()
        time.sleep(0.02)
    raise AssertionError(f"{peer.name}'s transcript did not grow:\n{peer.dump()}")


def mesh_of(driver: PeerDriver) -> Mesh:
    """The seat's mesh, under the endpoint that also feeds a bot seat run here."""
    transport = driver.transport
    mesh = transport.mesh if isinstance(transport, Endpoint) else transport
    assert isinstance(mesh, Mesh)
    return mesh


async def host_or_join(
    n: int,
    ids: Any,
    table: str,
    front_ends: Any,
    net: Any,
    on_lobby: Any,
    opened: trio.Event,
    lobby_port: list[int],
) -> Any:
    """Seat ``n`` of an in-process LAN game on loopback: seat 0 hosts ``table``, the
    others join it once it is open (``opened``, its port in ``lobby_port[0]``)."""
    from p2pbelka.peer.lan import host_game, join_game

    if n == 0:
        return await host_game(ids[0], table, front_ends[0], net=net, on_lobby=on_lobby)
    await opened.wait()
    return await join_game(
        ids[n], "127.0.0.1", lobby_port[0], front_ends[n], net=net, on_lobby=on_lobby
    )


def two_players(root: Path) -> list[Identity]:
    """Two players with homes of their own under ``root`` (``loopback.seat_home``)."""
    from p2pbelka.peer.loopback import seat_home

    return [Identity.load_or_create(seat_home(root, n), f"player {n}") for n in range(2)]


async def belot_of_two(
    root: Path, players: list[Identity], net: NetOptions, on_lobby: OnLobby | None = None
) -> list[GameResult]:
    """One short game of Belot between ``players``' two homes, random bots at both seats
    (real peers on loopback); ``on_lobby`` hears the host's lobby."""
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.driver import BotFrontEnd
    from p2pbelka.peer.loopback import loopback_table

    return await loopback_table(
        BotFrontEnd(make_bot("random", 3)),
        ["random"],
        transcript_dir=root,
        identities=players,
        game="belot",
        net=net,
        **({"on_lobby": on_lobby} if on_lobby is not None else {}),
    )
