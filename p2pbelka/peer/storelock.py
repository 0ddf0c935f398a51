"""One program at a time in a saved game's folder: an operating-system lock.

Every folder a running game writes (a LAN seat's ``games/<id>/``, a local table's
``local-<id>/``, a watcher's ``watch-<id>/``) has a file ``lock`` that the program
playing it holds with ``flock`` from before it reads or writes anything there
until it exits.  A second program that opens the same game is refused
(``StoreBusy``) before it touches a file: two programs playing one seat would sign
two different envelopes for one place in its chain, and write over each other's
transcript.  The kernel lets go of the lock when its process ends, however it ends
(a crash, ``kill -9``, a power cut), so the file never needs clearing by hand; it is
never removed either (another program may be opening it).  Reading a game (``games``,
``verify``, ``replay``) takes no lock: it writes nothing.

The lock is the program's: holding a folder again in the same program is a no-op,
and the file says which program holds it (its pid, command line and start), so the
refused one can say where the game is open.  A program is a process, unless a
simulation runs several in one (``program``: each its own, and ``release_program``
where a real crash would have let the kernel let go of its locks).
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import json
import os
import shlex
import sys
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

LOCK_FILE = "lock"
COMMAND_WIDTH = 60
"""The longest command line a refusal quotes (a longer one is cut, with "…")."""

_held: dict[str, tuple[int, int, int]] = {}
"""Each folder this process holds: its absolute path -> (our pid, the program, the lock
file's descriptor).  A child forked with a copy of it holds nothing (another pid)."""

_program: ContextVar[int] = ContextVar("program", default=0)
"""The program running in this context: 0, the process itself, but in a simulation."""
_programs = itertools.count(1)


@contextlib.contextmanager
def program() -> Iterator[int]:
    """Run the block (and every task it starts) as a program of its own, one of several
    in this process (a simulation's): it holds its own locks, and a folder another of
    them holds is refused as if by another process.  Its locks are let go of at the end,
    however it ends, as the kernel does for a process."""
    token = next(_programs)
    reset = _program.set(token)
    try:
        yield token
    finally:
        _program.reset(reset)
        release_program(token)


@dataclass(frozen=True)
class Holder:
    """Who holds a game's lock, as the holder wrote it into the file."""

    pid: int
    command: str
    since: float  # seconds since the epoch


class StoreBusy(Exception):
    """The game's folder is held by another program (``holder``, None if it could not
    be read): continue the game there."""

    def __init__(self, directory: Path, game: str, holder: Holder | None) -> None:
        self.directory = directory
        self.game = game
        self.holder = holder
        super().__init__(f"game {game[:12]} is open in another p2pbelka{_who(holder)}")


def _who(holder: Holder | None) -> str:
    if holder is None:
        return ": continue it there"
    when = time.strftime("%H:%M", time.localtime(holder.since))
    return f" (pid {holder.pid}, `{holder.command}`, since {when}): continue it there"


def hold(directory: Path, game: str = "") -> None:
    """Take ``directory``'s lock for the rest of this process's life (``release`` lets
    go sooner); nothing if this process holds it already.  ``StoreBusy`` if another
    program does (``game``: the id it is named by).  The folder must exist."""
    if held(directory):
        return
    path = Path(directory) / LOCK_FILE
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreBusy(Path(directory), game or Path(directory).name, holder(path)) from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            break
        # The folder was renamed away (a local table being removed) between our open
        # and our lock: that lock guards nothing any more.  Open the name again.
        os.close(fd)
    _held[os.path.abspath(directory)] = (os.getpid(), _program.get(), fd)
    record = {"pid": os.getpid(), "command": command_line(), "since": time.time()}
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(record).encode(), 0)
    except OSError:  # a full disk: the lock holds all the same, a refusal names nobody
        pass


def _same_file(fd: int, path: Path) -> bool:
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (mine.st_dev, mine.st_ino)


def held(directory: Path) -> bool:
    """Whether this program holds ``directory``'s lock."""
    pid, holder, _fd = _held.get(os.path.abspath(directory), (0, 0, -1))
    return pid == os.getpid() and holder == _program.get()


def release(directory: Path) -> None:
    """Let go of ``directory``'s lock if this process holds it (its folder removed, or
    a test done with it)."""
    pid, _holder, fd = _held.pop(os.path.abspath(directory), (0, 0, -1))
    if pid == os.getpid():
        os.close(fd)


def release_program(token: int) -> None:
    """Let go of every lock the program ``token`` holds (it ended)."""
    for directory, (_pid, holder, _fd) in list(_held.items()):
        if holder == token:
            release(Path(directory))


def release_all() -> None:
    """Let go of every lock this process holds (between tests run in one process)."""
    for directory in list(_held):
        release(Path(directory))


def holder(path: Path, tries: int = 100) -> Holder | None:
    """Who holds the lock file ``path``, as written there.  The holder writes it just
    after it took the lock: until then the file is empty, half written, or names a
    program that ended (the last one to hold it), so it is read again a few times."""
    for attempt in range(tries):
        found = _written(path)
        if found is not None and _alive(found.pid):
            return found
        if attempt + 1 < tries:
            time.sleep(0.01)
    return None


def _written(path: Path) -> Holder | None:
    try:
        data = json.loads(path.read_bytes())
        return Holder(int(data["pid"]), str(data["command"]), float(data["since"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive
        return True
    return True


def command_line() -> str:
    """This program's command as a player typed it: ``p2pbelka resume --text``."""
    words = shlex.join(["p2pbelka", *sys.argv[1:]])
    return words if len(words) <= COMMAND_WIDTH else words[: COMMAND_WIDTH - 1] + "…"
