"""The ledger: every result this machine played, watched or was given, in one sqlite
file in the player's data directory (``ladder.sqlite``, beside ``games/``).

A certificate is read (every signature checked, ``certificate.read``) before it is
stored, and stored only if its maker sat at the game or is the ledger's owner
(protocol/results.md section 4).  What is not counted is never lost: a certificate
refused, or a record found damaged when read back, is written to ``ladder-aside/``
with why, and said (``Ledger.notes``); a database file that sqlite cannot read is
renamed ``ladder.sqlite.damaged-<time>`` and a new one started.

Reading back is cheap (no signature is checked again): each row keeps a hash over
what it counts for and its certificate's hash, and a row whose hash does not match is
read again from its certificate (and mended), or moved aside; a certificate whose bytes
no longer match its hash is found when certificates are handed out (``certificates``)
and moved aside, its result no longer counted.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgpack

from p2pbelka.ladder.certificate import Certificate, CertificateError, read
from p2pbelka.ladder.results import Result, Seat, result_of

FILE = "ladder.sqlite"
ASIDE = "ladder-aside"
BUSY_WAIT = 30.0
"""Seconds to wait for another program writing the ledger (a game that just ended)."""
BACKDATED = 600
"""Seconds another maker's certificate of a game may be dated before the owner's own
of it and still be the one kept (results.md section 4): two seats' clocks and the
moments each finished differ by seconds, a back-dated certificate by more."""
AHEAD = 600
"""Seconds another maker's certificate may be dated after this machine's clock and
still count now (results.md section 4): clocks differ by seconds, a post-dated one,
which would stay last in every ledger's order and "last played", by more.  Set aside
until then; an exchange brings it again once its date has come."""
SOURCES = ("played", "watched", "given", "shared")
SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game_id BLOB PRIMARY KEY, game TEXT NOT NULL, at INTEGER NOT NULL,
    source TEXT NOT NULL, facts BLOB NOT NULL, digest BLOB NOT NULL, checksum BLOB NOT NULL,
    cert BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    game_id BLOB NOT NULL, seat INTEGER NOT NULL, key BLOB NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE INDEX IF NOT EXISTS seats_by_key ON seats (key);
CREATE TABLE IF NOT EXISTS conflicts (game_id BLOB PRIMARY KEY);
CREATE TABLE IF NOT EXISTS own (game_id BLOB PRIMARY KEY, at INTEGER NOT NULL);
"""


def ledger_path(games_root: Path) -> Path:
    """The ledger of the player whose games are in ``games_root``."""
    return games_root.parent / FILE


def facts_of(result: Result) -> bytes:
    """What a row counts for, as stored: each seat's key, name, side and rank."""
    return msgpack.packb([[s.key, s.name, s.side, s.rank] for s in result.seats])  # type: ignore[no-any-return]


def _checksum(game_id: bytes, game: str, at: int, facts: bytes, digest: bytes) -> bytes:
    """A row's own hash, over what it counts for and its certificate's hash (so reading
    the ledger back hashes no certificate: ``certificates`` checks those it hands out)."""
    h = hashlib.sha256()
    for part in (game_id, game.encode(), str(at).encode(), facts, digest):
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


class Ledger:
    def __init__(
        self, path: Path, owner: bytes | None = None, now: Callable[[], float] = time.time
    ) -> None:
        """The ledger in ``path`` (made if missing); ``owner``: the key whose own
        certificates count even where it sat at no seat (a watcher's); ``now``: this
        machine's clock (a certificate dated after it counts only from its date)."""
        self.path = path
        self.owner = owner
        self.now = now
        self.notes: list[str] = []
        """What was set aside or refused, in the order it happened, for the player."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=BUSY_WAIT)
        try:
            # Reading the schema fails on a file that is no database (a page damaged
            # later fails where it is read: ``results`` moves the file aside then).
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            db.executescript(SCHEMA)
            return db
        except sqlite3.OperationalError:
            db.close()
            raise  # busy, or no room: not damage, and never a reason to move it aside
        except sqlite3.DatabaseError as exc:
            db.close()
            return self._begin_again(exc)

    def _begin_again(self, exc: sqlite3.DatabaseError) -> sqlite3.Connection:
        """Move a database sqlite cannot read aside (never deleted) and begin a new one."""
        aside = self.path.with_name(f"{self.path.name}.damaged-{_stamp()}")
        self.path.rename(aside)
        self.notes.append(f"{self.path}: unreadable ({exc}); moved to {aside}, a new one begun")
        db = sqlite3.connect(self.path, timeout=BUSY_WAIT)
        db.executescript(SCHEMA)
        return db

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- adding ---------------------------------------------------------------------

    def add(self, raw: bytes, source: str) -> Certificate | None:
        """Count the certificate ``raw`` (``source``: played, watched or given); the
        certificate if it is counted now, None if not (held already, or set aside: the
        notes say why)."""
        try:
            certificate = read(raw)
        except CertificateError as exc:
            self.set_aside(raw, f"refused: {exc}")
            return None
        return self.add_read(certificate, source)

    def add_read(self, certificate: Certificate, source: str) -> Certificate | None:
        """``add`` for a certificate ``read`` gave (checked already)."""
        maker = certificate.maker_seat
        if maker is None and certificate.by != self.owner:
            why = "refused: made by a key that sat at no seat of the game"
            self.set_aside(certificate.raw, why)
            return None
        if certificate.by != self.owner and certificate.at > self.now() + AHEAD:
            why = f"refused: dated more than {AHEAD // 60} minutes after this machine's clock"
            self.set_aside(certificate.raw, why)
            return None
        with self._transaction():
            return self._add_checked(certificate, source)

    def add_shared(self, raw: bytes, via: bytes, wanted: set[bytes]) -> Certificate | None:
        """A certificate a peer (key ``via``) sent when asked for one of the games
        ``wanted``: counted as ``add`` does, and, if that peer never sat at a table with
        the owner (a stranger), only if every seat of it did, or the owner held a seat of
        it (its own signature is in it: a game it left before the end, results.md
        section 6; docs/playing.md says what this stops and what not)."""
        try:
            certificate = read(raw)
        except CertificateError as exc:
            self.set_aside(raw, f"refused from a peer: {exc}")
            return None
        if certificate.game_id not in wanted:
            self.set_aside(raw, "refused: a peer sent a game that was not asked for")
            return None
        known = self.companions()
        mine = self.owner is not None and self.owner in certificate.keys
        if via not in known and not set(certificate.keys) <= known and not mine:
            why = "not counted: a stranger's result between keys never at a table with you"
            self.set_aside(raw, why)
            return None
        return self.add_read(certificate, "shared")

    def companions(self) -> set[bytes]:
        """The owner and every key that sat at a table with the owner in a counted game."""
        if self.owner is None:
            return set()
        rows = self.db.execute(
            "SELECT DISTINCT key FROM seats WHERE game_id IN"
            " (SELECT game_id FROM seats WHERE key = ?)",
            (self.owner,),
        )
        return {bytes(k) for (k,) in rows.fetchall()} | {self.owner}

    def _add_checked(self, certificate: Certificate, source: str) -> Certificate | None:
        game_id = certificate.game_id
        if self.db.execute("SELECT 1 FROM conflicts WHERE game_id = ?", (game_id,)).fetchone():
            self.set_aside(certificate.raw, "refused: its game's certificates disagree")
            return None
        held = self.db.execute("SELECT cert FROM results WHERE game_id = ?", (game_id,)).fetchone()
        if held is not None:
            return self._second(read(held[0]), certificate, source)
        result = result_of(certificate)
        facts = facts_of(result)
        digest = hashlib.sha256(certificate.raw).digest()
        check = _checksum(game_id, result.game, result.at, facts, digest)
        self.db.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, result.game, result.at, source, facts, digest, check, certificate.raw),
        )
        self.db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?)",
            [(game_id, n, s.key) for n, s in enumerate(result.seats)],
        )
        return certificate

    def _second(self, held: Certificate, new: Certificate, source: str) -> Certificate | None:
        """A second certificate of a game held: the same result (the earlier one is
        kept, so every ledger keeps the same), or a disagreement (both set aside)."""
        if held.raw == new.raw:
            return None
        if held.outcome != new.outcome and self.owner in (held.by, new.by):
            # the owner's own certificate came of a transcript its table checked: the
            # other one's maker lied, and no liar may take the owner's result away
            kept, liar = (held, new) if held.by == self.owner else (new, held)
            self.set_aside(liar.raw, "refused: it names another outcome than your own")
            return None if kept is held else self._replace(held, new, source)
        if held.outcome != new.outcome:
            self._forget(held.game_id)
            self.db.execute("INSERT INTO conflicts VALUES (?)", (held.game_id,))
            why = "set aside: two certificates of one game name different outcomes"
            self.set_aside(held.raw, why)
            self.set_aside(new.raw, why)
            return None
        own = self._own_at(held.game_id, held, new)
        if self._backdated(new, own):
            return None
        if self._backdated(held, own) or (new.at, new.raw) < (held.at, held.raw):
            return self._replace(held, new, source)
        return None

    def _own_at(self, game_id: bytes, *seen: Certificate) -> int | None:
        """When the owner's own certificate of the game says it ended (the earliest, if
        it made more than one), remembered even once another's earlier one is kept;
        None if the owner made none."""
        row = self.db.execute("SELECT at FROM own WHERE game_id = ?", (game_id,)).fetchone()
        ats = [int(row[0])] if row is not None else []
        ats += [c.at for c in seen if c.by == self.owner]
        if not ats:
            return None
        at = min(ats)
        self.db.execute("INSERT OR REPLACE INTO own VALUES (?, ?)", (game_id, at))
        return at

    def _backdated(self, certificate: Certificate, own: int | None) -> bool:
        """``certificate``, another maker's, is dated more than ``BACKDATED`` seconds
        before the owner's own of its game: it is set aside, never kept."""
        if own is None or certificate.by == self.owner or certificate.at >= own - BACKDATED:
            return False
        why = f"refused: dated more than {BACKDATED // 60} minutes before your own certificate"
        self.set_aside(certificate.raw, why)
        return True

    def _replace(self, held: Certificate, new: Certificate, source: str) -> Certificate | None:
        self._forget(held.game_id)
        return self._add_checked(new, source)

    def _forget(self, game_id: bytes) -> None:
        """The game's row and seats (what the owner's own certificate said stays)."""
        self.db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
        self.db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One commit (one sync of the file) for everything inside, however nested."""
        if self.db.in_transaction:
            yield
            return
        with self.db:
            yield

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Add many certificates with one commit (a share from a peer, a benchmark)."""
        with self.db:
            self.db.execute("BEGIN")
            yield

    # -- reading --------------------------------------------------------------------

    def results(self, game: str | None = None) -> list[Result]:
        """Every result counted (of ``game``, or all), in the canonical order."""
        query = "SELECT game_id, game, at, facts, digest, checksum FROM results"
        try:
            where = " WHERE game = ?" if game else ""
            rows = self.db.execute(
                query + where + " ORDER BY at, game_id", (game,) if game else ()
            ).fetchall()
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            self.db.close()
            self.db = self._begin_again(exc)
            return []
        out = []
        for game_id, name, at, facts, digest, check in rows:
            if _checksum(game_id, name, at, facts, digest) == check:
                out.append(_result(game_id, name, at, facts))
            else:
                mended = self._mend(game_id)
                if mended is not None and (game is None or mended.game == game):
                    out.append(mended)
                    out.sort(key=lambda r: r.order)
        return out

    def _mend(self, game_id: bytes) -> Result | None:
        """A row whose hash fails: counted again from its certificate if that still
        checks out, else moved aside."""
        row = self.db.execute("SELECT cert FROM results WHERE game_id = ?", (game_id,))
        cert = bytes(row.fetchone()[0])
        with self._transaction():
            self._forget(game_id)
        self.add(cert, "given")
        row = self.db.execute("SELECT facts, game, at FROM results WHERE game_id = ?", (game_id,))
        found = row.fetchone()
        if found is None:
            self.notes.append(f"a damaged record of game {game_id.hex()} was moved aside")
            return None
        return _result(game_id, found[1], found[2], found[0])

    def games_of(self, key: bytes) -> int:
        """How many results counted ``key`` sat in (the index by player key)."""
        row = self.db.execute("SELECT COUNT(*) FROM seats WHERE key = ?", (key,)).fetchone()
        return int(row[0])

    def certificates(self) -> list[tuple[bytes, bytes]]:
        """Every counted certificate: (game id, bytes), by game id.  One whose bytes are
        not the ones counted any more (damaged on the disk) is moved aside and its result
        no longer counted."""
        rows = self.db.execute("SELECT game_id, digest, cert FROM results ORDER BY game_id")
        out = []
        for game_id, digest, cert in rows.fetchall():
            if hashlib.sha256(cert).digest() == digest:
                out.append((bytes(game_id), bytes(cert)))
                continue
            with self._transaction():
                self._forget(game_id)
            self.set_aside(bytes(cert), f"the certificate of game {game_id.hex()} was damaged")
        return out

    # -- set aside ------------------------------------------------------------------

    def set_aside(self, raw: bytes, why: str) -> Path:
        """Keep bytes that are not counted, with why, and say so; nothing is deleted."""
        folder = self.path.parent / ASIDE
        folder.mkdir(exist_ok=True)
        name = hashlib.sha256(raw).hexdigest()[:16]
        out = folder / f"{name}.cert"
        if not out.exists():
            out.write_bytes(raw)
            (folder / f"{name}.why").write_text(why + "\n", encoding="utf-8")
        self.notes.append(f"{why}; kept as {out}")
        return out


def _result(game_id: bytes, game: str, at: int, facts: bytes) -> Result:
    seats = tuple(Seat(bytes(k), str(n), int(s), int(r)) for k, n, s, r in msgpack.unpackb(facts))
    return Result(bytes(game_id), game, int(at), seats)


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")
