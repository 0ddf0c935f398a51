"""A watched game on the disk: its transcript as the host fed it, and what it was.

``games/watch-<game id hex>/`` (beside the seats' games, in the same games
directory) holds ``transcript.p2pb``, each record appended as it comes and synced
with those that came with it (so a killed watcher keeps all it was fed but the
record being written, a power cut all but the last few, and ``p2pbelka verify``
reads the file as it reads a seat's);
``chat.log``, the seats' signed chat as ``peer/chat.py`` keeps it; and
``watch.json``, where it was watched from and how the watch ended; ``set-aside-N.p2pb``,
records past N the host's own transcript no longer holds (``set_aside``).  Not a
seat's game: no ``game.json``, so ``resume`` never offers it, and its name is
not the game id, so a seat of this machine is never told it played it.
A payload the host fed that is no envelope cannot go into a transcript: it is
kept in ``refused.hex``, one a line, and said so.  ``lock`` is held by the watching
program (``storelock.py``) from the folder's making: one writer, as for a seat's game
(a second watch of the game, from the same home too, gets a folder of its own).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from p2pbelka.peer import disk, storelock
from p2pbelka.peer.chat import ChatLog
from p2pbelka.peer.store import now
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import TranscriptWriter, iter_records

WATCH_PREFIX = "watch-"
WATCH_META = "watch.json"


@dataclass
class WatchMeta:
    game_id: str  # hex
    host: str  # where the lobby was dialled, HOST:PORT
    host_key: str  # hex
    table_name: str = ""
    started: float = 0.0
    records: int = 0
    finished: bool = False  # the host said the game is over and every record came
    ended: str = ""  # why the watch ended otherwise


class WatchSave:
    """One watched game's directory; made when the first record (the ``table``) comes."""

    def __init__(self, directory: Path, meta: WatchMeta, *, sync: bool = True) -> None:
        storelock.hold(directory, meta.game_id)  # before anything is written in it
        self.directory = directory
        self.meta = meta
        self.syncs = sync
        self.transcript_path = directory / "transcript.p2pb"
        self.chat_log = ChatLog(directory / "chat.log")
        self._writer = TranscriptWriter(self.transcript_path)
        self.save_meta()

    @classmethod
    def create(cls, root: Path, game_id: bytes, meta: WatchMeta, *, sync: bool = True) -> WatchSave:
        """A new directory for the game ``game_id`` under ``root`` (the games directory):
        ``watch-<id>``, or ``watch-<id>-2``... when this game was watched here before."""
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        base = f"{WATCH_PREFIX}{game_id.hex()}"
        for n in range(1, 1000):
            directory = root / (base if n == 1 else f"{base}-{n}")
            try:
                directory.mkdir(mode=0o700)
            except FileExistsError:
                continue
            return cls(directory, meta, sync=sync)
        raise FileExistsError(f"too many watches of game {game_id.hex()} in {root}")

    def write(self, envelopes: list[Envelope]) -> None:
        """Write the records (the kernel has them: a killed watcher keeps them)."""
        for envelope in envelopes:
            self._writer.append(envelope)
        self.meta.records += len(envelopes)

    async def sync(self) -> None:
        """Wait for the disk to hold every record written (in a worker thread: the feed
        is read on meanwhile).  Once for the records that came together, not one by one:
        a sync a record made a watcher on a busy disk fall deals behind the game."""
        if self.syncs and self._writer.unsynced:
            on = disk.current()
            await on.blocking(partial(self._writer.sync, on.datasync))

    def set_aside(self, records: int) -> Path | None:
        """Keep the first ``records`` records of the transcript and move the rest to a
        file beside it, ``set-aside-<records>.p2pb`` (the host cut its own transcript
        back there: ``rewind``, SPEC section 7.5): where they went (None: nothing past)."""
        data = self.transcript_path.read_bytes()
        kept = list(iter_records(data))
        if records >= len(kept):
            return None
        aside = self.directory / f"set-aside-{records}.p2pb"
        n = 1
        while aside.exists():
            n += 1
            aside = self.directory / f"set-aside-{records}-{n}.p2pb"
        with open(aside, "xb") as out:
            out.write(data[kept[records].offset :])
            out.flush()
            disk.current().datasync(out.fileno())
        os.truncate(self.transcript_path, kept[records].offset)  # appends go on from there
        self.meta.records = records
        self.save_meta()
        return aside

    def refused(self, payload: bytes) -> Path:
        """Keep a payload that is no envelope beside the transcript; where it went."""
        path = self.directory / "refused.hex"
        with open(path, "a", encoding="ascii") as f:
            f.write(payload.hex() + "\n")
        return path

    def end(self, *, finished: bool, why: str = "") -> None:
        self.meta.finished = finished
        self.meta.ended = why
        self.save_meta()
        self._writer.close()

    def save_meta(self) -> None:
        meta_path = self.directory / WATCH_META
        tmp = meta_path.with_name(f".watch.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(asdict(self.meta), f, indent=1)
        os.replace(tmp, meta_path)


def load_watch_meta(directory: Path) -> WatchMeta:
    """``watch.json`` of a watched game's directory (``OSError``, ``ValueError``,
    ``TypeError`` if it does not read)."""
    data = json.loads((directory / WATCH_META).read_text())
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return WatchMeta(**data)


def new_meta(game_id: bytes, host: str, host_key: bytes, table_name: str) -> WatchMeta:
    return WatchMeta(game_id.hex(), host, host_key.hex(), table_name, now())
