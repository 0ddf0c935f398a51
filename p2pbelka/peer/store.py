"""A game's files in the user's data directory: what ``p2pbelka resume`` needs.

``games/<game id hex>/`` holds ``game.json`` (who sits where and how to reach
them), ``secrets`` (every 32-byte value the table drew from its seed source:
the lot value, then one seed per deal, in order, and one drawn ahead; a
continuation segment's values go to ``secrets-<segment id hex>``, so no secret
is ever used in two segments), ``signed.p2pb`` (every envelope this seat
signed, kept before it was sent, then zeros: room written ahead, see ``keep``),
``agreements`` (every continuation it signed at a seat change, one a line, kept
before it was sent: ``keep_agreement``), ``transcript.p2pb`` and ``lock``, held by the
one program playing the seat (``hold``, ``storelock.py``: a second one is refused before
it reads or writes).  The
directory and the secrets are readable by the user only: the seeds of a deal
in progress would show the seat's hand.

Durability, like a database that syncs before it acknowledges: a seat sends an
envelope only once everything it was computed from is on the disk, so even a
power cut can never make it sign another envelope for the same place in its
chain.  Before any step's envelopes leave (``keep`` then ``sync``, the driver's
one group commit): the transcript so far (every envelope the table accepted:
the inputs), the envelopes themselves (``signed.p2pb``) and every secret the
table was handed, each file with one ``fdatasync`` if it changed (the transcript's
and the journal's at once).  After a cut
the disk holds, for every envelope any other seat may hold of ours, the envelope
and what it followed: a resumed seat reuses its envelopes as they are, and an
envelope of another seat's that comes back different is a second version of a
place it filled, its proof.  The cost is kept off the critical path where it can
be: the journal's records go into room written ahead (a sync that does not
change the file's size), and the next secret is drawn and synced ahead, while
the current deal is played (``sync_ahead``), so handing it out waits for nothing.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import trio

from p2pbelka.net.identity import config_dir
from p2pbelka.peer import disk, storelock, wallclock
from p2pbelka.peer.seatchange.effects import Agreed
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.messages import TableMsg
from p2pbelka.protocol.transcript import (
    MAGIC,
    TranscriptWriter,
    encode_record,
    iter_records,
    valid_prefix_length,
)

log = logging.getLogger(__name__)

SEED_SIZE = 32
JOURNAL_ROOM = 256 * 1024
"""Zeros written ahead in ``signed.p2pb`` for records to come (a record's length is
never 0, so a reader stops there): about thirty deals of a four-seat game."""


@dataclass
class GameMeta:
    game_id: str  # hex
    seat: int
    keys: list[str]  # hex, by seat
    names: list[str]
    peers: list[tuple[str, int]]  # where each seat listens; seat 0's address as dialled
    listen_host: str
    listen_port: int
    bot: str | None = None
    table_name: str = ""
    started: float = 0.0
    finished: bool = False
    ended: str = ""  # why the game was aborted, if it was
    # A host's lobby, reopened to watchers when it resumes (lan/rehost.py); a seat
    # that hosted no lobby keeps lobby_port 0.
    lobby_port: int = 0
    table_id: str = ""  # hex: the lobby's table id, the beacons' name for the table
    watchers: int = 0  # how many may watch at once
    watcher_chat: str = "off"
    announce: bool = False  # the host sent beacons
    watch_approve: bool = False  # every watcher was let in without asking
    invite: str = ""  # the invite code in force ("" none)
    watcher_keys: list[str] = field(default_factory=list)  # hex: every watcher let in
    lang: str = ""  # the language the player chose (a ui's code; "" not said): resume speaks it


KNOWN_IDS = "known-game-ids"
"""Beside the games directory (not in it, where every entry is a game): the id of
every game this machine created a store for, one hex id a line, appended and never
rewritten, so an id stays known after its game's directory was moved aside or
removed."""


class GameIdUsed(ValueError):
    """A new game under an id this machine already played or saved."""


def id_used_reason(game_id: bytes | str) -> str:
    hex_id = game_id if isinstance(game_id, str) else game_id.hex()
    return (
        f"this machine already played a game with id {hex_id}: a host that reuses"
        " an id could make your old messages count again"
    )


def known_game(game_id: bytes, home: str | os.PathLike[str] | None = None) -> bool:
    """Whether this machine ever kept a game with this id: its directory is there, or
    the id is in ``known-game-ids`` (its directory moved aside or removed since, or a
    continuation segment a seat sat in)."""
    return _known_in(games_dir(home), game_id)


def _known_in(root: Path, game_id: bytes) -> bool:
    if (root / game_id.hex()).exists():
        return True
    try:
        lines = (root.parent / KNOWN_IDS).read_text().split()
    except FileNotFoundError:
        return False
    return game_id.hex() in lines


def _remember_id(root: Path, game_id: bytes, sync: bool) -> None:
    _append_line(root.parent / KNOWN_IDS, game_id.hex().encode(), sync)


def _append_line(path: Path, line: bytes, sync: bool) -> None:
    """Append ``line`` to ``path`` (made if need be); ``sync``: on the disk (through the
    disk seam, ``disk.current()``: a simulated power cut knows what it covered) before
    this returns."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, line + b"\n")
        if sync:
            disk.current().datasync(fd)
    finally:
        os.close(fd)


class _Secrets:
    """One segment's values: the file, what is in it, handed out and on the disk."""

    def __init__(self, path: Path, values: list[bytes]) -> None:
        self.path = path
        self.values = values
        self.written = len(values)
        self.handed = 0
        # What a killed process wrote may be in the kernel only: synced again, once.
        self.synced = 0


class GameStore:
    def __init__(self, directory: Path, *, sync: bool = True) -> None:
        self.directory = directory
        self.syncs = sync
        """Whether ``sync`` waits for the disk (fdatasync): on by default, so the seat's
        signatures, transcript and secrets survive a power cut; off, they survive the
        process being killed only (the kernel holds them before they are sent)."""
        self.meta_path = directory / "game.json"
        self.secrets_path = directory / "secrets"
        self.transcript_path = directory / "transcript.p2pb"
        self.signed_path = directory / "signed.p2pb"
        self.agreements_path = directory / "agreements"
        self._transcript: TranscriptWriter | None = None
        self._sync_helper: ThreadPoolExecutor | None = None
        self._signed_fd: int | None = None
        self._signed_end = 0  # where the next record goes
        self._signed_size = 0  # the file's size: records, then room (zeros)
        self._journal_dirty = False
        self._directory_dirty = False
        self._secrets: list[_Secrets] = []
        """Every segment's secrets opened so far (``seed_source``)."""
        self._ahead = trio.Event()
        self._ahead_lock = threading.Lock()
        self.sync_seconds = 0.0
        """Time ``sync`` waited for the disk, in all (the cost on the critical path)."""
        self.syncs_done = 0
        """Calls of ``sync`` that waited for the disk: one per step that signed."""
        self.file_syncs = 0
        """The ``fdatasync``/``fsync`` calls those made (files and the directory)."""
        self.ahead_seconds = 0.0
        """Time ``sync_ahead`` spent, in all (off the critical path)."""

    @classmethod
    def create(
        cls, game_id: bytes, home: str | os.PathLike[str] | None = None, *, sync: bool = True
    ) -> GameStore:
        """A new game's directory.  ``GameIdUsed`` if this machine already knows the
        id (``known_game``): a new game never opens another game's files, so it never
        appends to its transcript or replays its secrets (revealed at its deals' ends).
        A game that goes on opens its directory with ``GameStore(directory)``."""
        root = games_dir(home)
        directory = root / game_id.hex()
        if known_game(game_id, home):
            raise GameIdUsed(id_used_reason(game_id))
        _remember_id(root, game_id, sync)
        try:
            directory.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile by another process
            raise GameIdUsed(id_used_reason(game_id)) from None
        store = cls(directory, sync=sync)
        store.hold()  # ours from the start: nothing is written before
        os.chmod(directory, 0o700)
        if sync:  # once a game: its directory's name on the disk too
            cls._sync_path(directory.parent)
        return store

    @classmethod
    def find(cls, prefix: str = "", home: str | os.PathLike[str] | None = None) -> GameStore:
        """The game whose id starts with ``prefix``; with no prefix, the most recent
        unfinished one.  ``LookupError`` with the reason if there is none."""
        root = games_dir(home)
        found = []
        for directory in sorted(root.iterdir()) if root.is_dir() else []:
            store = cls(directory)
            if not directory.name.startswith(prefix) or not store.meta_path.exists():
                continue
            try:
                meta = store.load_meta()
            except (OSError, ValueError, TypeError, KeyError):
                continue
            if prefix or not meta.finished:
                found.append((meta.started, store))
        if not found:
            raise LookupError("no game to resume" + (f" with id {prefix}…" if prefix else ""))
        if prefix and len(found) > 1:
            raise LookupError(f"several games start with {prefix}")
        return max(found, key=lambda pair: pair[0])[1]

    def hold(self) -> None:
        """Make the game this program's alone until it exits (an OS lock: a crash
        lets go of it): ``StoreBusy``, saying which program has it, if another one
        does.  Before anything of the game is read for playing or written."""
        storelock.hold(self.directory, self.directory.name)

    # -- the ids this machine has seen ----------------------------------------------

    def knows(self, segment: bytes) -> bool:
        """Whether this machine kept a game, or sat in a segment, with this id."""
        return _known_in(self.directory.parent, segment)

    def remember(self, segment: bytes) -> None:
        """A continuation segment this seat sits in: its id is used from now on (synced
        before anything the seat signs in it leaves).  ``GameIdUsed`` if it was
        already."""
        if self.knows(segment):
            raise GameIdUsed(id_used_reason(segment))
        _remember_id(self.directory.parent, segment, self.syncs)

    # -- the continuations this seat signed ------------------------------------------

    def keep_agreement(self, agreed: Agreed) -> None:
        """Append a continuation this seat signs (``Agreed``) to ``agreements``, synced
        before the signature is sent (the machine's effect comes before the send): like
        an envelope, an agreement is never signed twice for one cut, even after a
        power cut."""
        fields = [agreed.previous, agreed.cut, agreed.segment, agreed.sig]
        line = " ".join([*(f.hex() for f in fields), str(agreed.seat), str(int(agreed.proposed))])
        created = not self.agreements_path.exists()
        _append_line(self.agreements_path, line.encode(), self.syncs)
        if created and self.syncs:
            self._sync_path(self.directory)

    def saved_agreements(self) -> list[Agreed]:
        """Every continuation this seat signed and kept; a line that cannot be read (a
        torn last write: never sent) is skipped, and the file left as it is."""
        try:
            lines = self.agreements_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []
        saved = []
        for line in lines:
            try:
                previous, cut, segment, sig, seat, proposed = line.split()
                ids = [bytes.fromhex(h) for h in (previous, cut, segment)]
                signed = bytes.fromhex(sig)
                saved.append(Agreed(ids[0], ids[1], ids[2], int(seat), signed, proposed == "1"))
            except ValueError:
                log.warning("skipped a line of %s that cannot be read", self.agreements_path)
        return saved

    # -- game.json ---------------------------------------------------------------

    def save_meta(self, meta: GameMeta, *, durable: bool = False) -> None:
        """Write ``meta`` in place of the old (a new file renamed over it); ``durable``:
        on the disk before this returns, the file and its name (a power cut keeps it)."""
        tmp = self.meta_path.with_name(f".game.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(asdict(meta), f, indent=1)
            if durable and self.syncs:
                f.flush()
                disk.current().datasync(f.fileno())
        os.replace(tmp, self.meta_path)
        if durable and self.syncs:
            self._sync_path(self.directory)

    def load_meta(self) -> GameMeta:
        data: dict[str, Any] = json.loads(self.meta_path.read_text())
        data["peers"] = [(str(h), int(p)) for h, p in data["peers"]]
        return GameMeta(**data)

    def mark_finished(self, why: str = "") -> None:
        """The game is over (or aborted, ``why``): ``resume`` no longer offers it."""
        meta = self.load_meta()
        meta.finished = True
        meta.ended = why
        self.save_meta(meta)

    # -- secrets -----------------------------------------------------------------

    def saved_secrets(self, segment: bytes | None = None) -> list[bytes]:
        """The values saved for the game's first segment (``segment`` None) or for the
        continuation ``segment``."""
        path = self._secrets_path(segment)
        if not path.exists():
            return []
        data = path.read_bytes()
        whole = len(data) - len(data) % SEED_SIZE  # a torn last write was never used
        return [data[i : i + SEED_SIZE] for i in range(0, whole, SEED_SIZE)]

    def saved_secret_count(self) -> int:
        """How many values every segment's files hold together (what a reproducible
        stream of fresh values has given so far)."""
        paths = [self.secrets_path, *self.directory.glob(f"{self.secrets_path.name}-*")]
        return sum(p.stat().st_size // SEED_SIZE for p in paths if p.is_file())

    def _secrets_path(self, segment: bytes | None) -> Path:
        if segment is None:
            return self.secrets_path
        return self.secrets_path.with_name(f"{self.secrets_path.name}-{segment.hex()}")

    def seed_source(
        self,
        fresh: Callable[[], bytes] | None = None,
        *,
        new_game: bool = False,
        segment: bytes | None = None,
    ) -> Callable[[], bytes]:
        """Replays the saved values in order, then draws fresh ones (from the OS, or
        ``fresh`` for reproducible tests).  The values are bound to this game and to
        one segment of it: they live in its own directory (named by its id, never
        reused: ``create``), in a file of the segment's own (``segment``: None for the
        game's first, else the continuation's id), and are handed out by position, in
        the order the segment's table drew them, so they are replayed only to the same
        segment resumed from its own transcript, and a new segment never uses a value
        drawn for another (a seed drawn ahead for a deal the cut voided stays unused).
        A ``new_game`` refuses (``GameIdUsed``) a directory that already holds any.
        One value is always drawn and written ahead of the one handed out, so
        ``sync_ahead`` can put it on the disk while the deal is played; a value the
        table uses was saved first (and synced by ``sync`` at the latest, before any
        envelope that depends on it is sent).  Open each segment's source once."""
        path = self._secrets_path(segment)
        # A torn tail would shift every later value: set it aside before appending.
        if path.exists():
            data = path.read_bytes()
            if len(data) % SEED_SIZE:
                move_aside(path, data, len(data) - len(data) % SEED_SIZE)
        values = self.saved_secrets(segment)
        if new_game and values:
            raise GameIdUsed(id_used_reason(self.directory.name))
        stream = _Secrets(path, values)
        with self._ahead_lock:
            self._secrets.append(stream)
        draw = fresh or (lambda: secrets.token_bytes(SEED_SIZE))

        def write_ahead() -> None:
            value = draw()
            fd = os.open(stream.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, value)
            finally:
                os.close(fd)
            if not stream.written:
                self._directory_dirty = True
            values.append(value)
            stream.written += 1
            self._ahead.set()

        def source() -> bytes:
            if stream.handed == len(values):
                write_ahead()
            value = values[stream.handed]
            stream.handed += 1
            if stream.handed == len(values):
                write_ahead()
            return value

        if not values:
            write_ahead()
        else:
            self._ahead.set()
        return source

    def sync_ahead(self) -> None:
        """Put the secrets written so far, and the directory's new names, on the disk
        (blocking: for a worker thread, while the table goes on)."""
        started = time.perf_counter()
        with self._ahead_lock:
            self._sync_written()
        self.ahead_seconds += time.perf_counter() - started

    def _sync_written(self) -> int:
        """``sync_ahead``'s work, under its lock (the driver's ``sync`` waits for a
        worker's sync under way, whose flags already say done): the syncs it made."""
        done = 0
        for stream in list(self._secrets):
            written = stream.written
            if written > stream.synced:
                self._sync_path(stream.path)
                stream.synced = max(stream.synced, written)
                done += 1
        if self._directory_dirty:
            self._directory_dirty = False
            self._sync_path(self.directory)
            done += 1
        return done

    async def keep_ahead(self) -> None:
        """Run ``sync_ahead`` in a worker thread whenever a secret was drawn ahead,
        until cancelled (beside the driver)."""
        if not self.syncs:
            return
        while True:
            await self._ahead.wait()
            self._ahead = trio.Event()
            await disk.current().blocking(self.sync_ahead)

    @staticmethod
    def _sync_path(path: Path) -> None:
        disk.current().fsync(path)

    # -- the transcript ------------------------------------------------------------

    def read_transcript(self) -> list[Envelope]:
        """The whole records of the transcript, the file left as it is (a game running
        in another program may be writing its last record)."""
        try:
            data = self.transcript_path.read_bytes()
        except FileNotFoundError:
            return []
        keep = valid_prefix_length(data)
        return [record.envelope for record in iter_records(data[:keep])] if keep else []

    def saved_transcript(self) -> list[Envelope]:
        """The whole records of the transcript; a torn last record is cut off the file
        (by the program playing the game: ``hold``)."""
        if not self.transcript_path.exists():
            return []
        data = self.transcript_path.read_bytes()
        keep = valid_prefix_length(data)
        if keep <= len(MAGIC):
            # Not one whole record: a power cut in the first write (or the magic alone,
            # as an earlier version wrote it first).  No game of its own: what is there
            # goes aside whole, and the host's game begins again from its journal.
            if data:
                move_aside(self.transcript_path, data, 0)
            return self._opening()
        if keep < len(data):
            move_aside(self.transcript_path, data, keep)
            data = data[:keep]
        return [record.envelope for record in iter_records(data)]

    def _opening(self) -> list[Envelope]:
        """A transcript lost before its first record reached the disk: the table
        description this seat signed (the host's, the first thing any game holds),
        kept in its journal before it left, written again as the first record.  None
        for a joiner: the host's description was only in its memory."""
        signed = self.saved_signed()
        if not signed or not isinstance(signed[0].msg, TableMsg) or signed[0].msg.after:
            return []
        writer = TranscriptWriter(self.transcript_path)
        try:
            writer.append(signed[0])
            if self.syncs:
                writer.sync(disk.current().datasync)
                self._sync_path(self.directory)
        finally:
            writer.close()
        log.warning(
            "%s: no record was saved; begun again from the table this seat signed",
            self.transcript_path,
        )
        return signed[:1]

    def transcript_writer(self) -> TranscriptWriter:
        """The writer the driver appends accepted envelopes with; ``sync`` puts what it
        wrote on the disk (the inputs of what the seat sends next)."""
        writer = TranscriptWriter(self.transcript_path)
        if writer.created:
            self._directory_dirty = True  # its name, with the next sync
        self._transcript = writer
        return writer

    # -- what this seat signed -------------------------------------------------------

    def keep(self, envelopes: list[Envelope]) -> None:
        """Write what this seat signed (a ``SignedJournal`` for the driver) before the
        envelopes are sent; ``sync`` then waits for the disk.

        The records go into room written ahead as zeros, so that the file's size
        does not change with each one: syncing data into blocks the file already
        has is one disk write, where an append also waits for the file system's
        journal (its new size and blocks), which every process on the machine
        shares.  The room grows by ``JOURNAL_ROOM`` when it runs out, once a few
        dozen deals."""
        if self._signed_fd is None:
            self._open_journal()
            assert self._signed_fd is not None
        blob = b"".join(encode_record(e) for e in envelopes)
        end = self._signed_end + len(blob)
        if end > self._signed_size:
            grown = end + JOURNAL_ROOM
            os.pwrite(self._signed_fd, bytes(grown - self._signed_size), self._signed_size)
            self._signed_size = grown
        os.pwrite(self._signed_fd, blob, self._signed_end)
        self._signed_end = end
        self._journal_dirty = True

    def _open_journal(self) -> None:
        records = self._journal_records() if self.signed_path.exists() else b""
        fd = os.open(self.signed_path, os.O_RDWR | os.O_CREAT, 0o600)
        if not records:
            os.ftruncate(fd, 0)  # nothing readable was left in it (moved aside)
            os.write(fd, MAGIC)
            self._directory_dirty = True
            records = MAGIC
        self._signed_end, self._signed_size = len(records), os.fstat(fd).st_size
        self._signed_fd = fd

    def sync(self) -> None:
        """Wait until everything the envelopes ``keep`` wrote were computed from is on
        the disk, and they too (blocking: the driver may run it in a worker thread):
        the transcript appended so far, the journal, every secret handed out and the
        directory's names.  One sync (one ``fdatasync`` a file, the transcript's and
        the journal's at once) covers all that one step signed.  Nothing to do
        without ``syncs``."""
        if not self.syncs:
            return
        started = time.perf_counter()
        transcript = self._transcript
        journal = self._signed_fd if self._journal_dirty else None
        beside: Future[bool] | None = None
        if transcript is not None and transcript.unsynced:
            self.file_syncs += 1
            if journal is None or not disk.current().threads:
                transcript.sync(disk.current().datasync)
            else:
                # Both at once, the transcript's in a helper thread: a busy disk
                # flushes them together (flushes under way are merged), so the pair
                # costs about one sync's wait, not two in a row.
                beside = self._helper().submit(transcript.sync, disk.current().datasync)
        if journal is not None:
            self._journal_dirty = False
            disk.current().datasync(journal)
            self.file_syncs += 1
        if beside is not None:
            beside.result()
        with self._ahead_lock:  # after a worker's sync_ahead under way, if any
            unsynced = any(stream.handed > stream.synced for stream in self._secrets)
            if unsynced or self._directory_dirty:
                # The value drawn ahead was not synced yet (a very short deal), or a
                # file is new: now, then.
                self.file_syncs += self._sync_written()
        self.sync_seconds += time.perf_counter() - started
        self.syncs_done += 1

    def _helper(self) -> ThreadPoolExecutor:
        if self._sync_helper is None:
            self._sync_helper = ThreadPoolExecutor(1, thread_name_prefix="p2pbelka-sync")
        return self._sync_helper

    def saved_signed(self) -> list[Envelope]:
        """Every envelope this seat signed and kept (its own, in order)."""
        if not self.signed_path.exists():
            return []
        data = self._journal_records()
        return [record.envelope for record in iter_records(data)] if data else []

    def _journal_records(self) -> bytes:
        """The journal's whole records (with the magic; empty if none could be read).
        What follows them and is not room (zeros) is moved aside, never overwritten."""
        data = self.signed_path.read_bytes()
        keep = valid_prefix_length(data)
        if keep < len(data) and data.count(0, keep) < len(data) - keep:  # not just room
            move_aside(self.signed_path, data, keep)
        return data[:keep]

    def close(self) -> None:
        if self._sync_helper is not None:
            self._sync_helper.shutdown()
            self._sync_helper = None
        if self._transcript is not None:
            self._transcript.close()
        if self._signed_fd is not None:
            os.close(self._signed_fd)
            self._signed_fd = None


def move_aside(path: Path, data: bytes, keep: int) -> Path:
    """Keep the first ``keep`` bytes of ``path`` (whose content is ``data``) and move
    the rest, which could not be read, to a file beside it: nothing is deleted."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
    with open(aside, "xb") as out:
        out.write(data[keep:])
        out.flush()
        os.fsync(out.fileno())
    os.truncate(path, keep)
    log.warning(
        "%s: %d bytes at the end could not be read; moved to %s, the %d bytes before them are kept",
        path,
        len(data) - keep,
        aside,
        keep,
    )
    return aside


def games_dir(home: str | os.PathLike[str] | None = None) -> Path:
    """Where games are kept (made if missing): see ``games_root``."""
    root = config_dir(home) / "games" if home is not None else games_root()
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return root


def seat_home(root: Path, seat: int) -> Path:
    """Where ``seat`` of a table on this machine keeps its game (its config directory, in
    a LAN peer's terms)."""
    return root / f"seat{seat}"


def games_root(environ: Mapping[str, str] | None = None) -> Path:
    """Where games are kept: ``$P2PBELKA_HOME/games`` when that is set (every command:
    a local table's transcripts and seats, a LAN seat's store, a watch, ``games``),
    else the user's data directory, ``$XDG_DATA_HOME/p2pbelka/games`` (usually
    ``~/.local/share/p2pbelka/games``); the identity stays in the config directory."""
    home = (os.environ if environ is None else environ).get("P2PBELKA_HOME")
    return Path(home) / "games" if home else data_home(environ) / "games"


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/p2pbelka``, else ``~/.local/share/p2pbelka`` (a relative
    ``XDG_DATA_HOME`` is invalid by the XDG spec and ignored)."""
    xdg = (os.environ if environ is None else environ).get("XDG_DATA_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "p2pbelka"


def now() -> float:
    return wallclock.now()
