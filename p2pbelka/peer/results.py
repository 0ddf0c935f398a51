"""A game's result kept once it ended: its certificate beside the saved game, and the
result in its player's ledger (``ladder/``), for the ladder.

Nothing here may spoil a game's end: a game with no certificate (disputed,
unfinished) is only logged, and a disk or database that fails
is logged and left.  The ledger is the one of the games directory the transcript is
in (``games/<id>/transcript.p2pb``: ``ladder.sqlite`` beside ``games/``).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from p2pbelka.ladder.certificate import Certificate
from p2pbelka.ladder.files import keep_beside, write_beside
from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.ladder.make import certify_table
from p2pbelka.peer import wallclock
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import TranscriptError, iter_records
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)


def keep_result(
    table: Table,
    signer: Signer,
    transcript: Path,
    source: str,
    game: Sequence[Envelope] | None = None,
) -> Certificate | None:
    """Certify the game ``table`` ended (signed by ``signer``, a seat's or a watcher's
    key), write the certificate beside ``transcript`` and count it in the ledger of the
    games directory it is in (``source``: played or watched); the certificate, or None.
    ``game``: every segment's envelopes, for a game in which a seat changed hands (the
    table holds its last segment's only); None reads them from ``transcript``."""
    if game is None and table.state.previous is not None:
        game = _segments_of(transcript)
    try:
        made = certify_table(table, signer, int(wallclock.now()), game or ())
    except ValueError:  # a certificate our own table's game does not give: a bug, logged
        log.exception("the result certificate could not be made")
        return None
    if isinstance(made, str):
        log.info("no result certificate: %s", made)
        return None
    keep_beside(transcript, made)
    count(made, ledger_path(transcript.parent.parent), signer.public_key, source)
    return made


def _segments_of(transcript: Path) -> list[Envelope]:
    """Every record of the saved game (none if it cannot be read: no certificate then)."""
    try:
        return [r.envelope for r in iter_records(transcript.read_bytes())]
    except (OSError, TranscriptError) as exc:
        log.warning("%s: the game's segments could not be read: %s", transcript, exc)
        return []


def count(made: Certificate, path: Path, owner: bytes, source: str) -> None:
    """Add ``made`` to the ledger at ``path``, and log what the ledger set aside."""
    try:
        with Ledger(path, owner) as ledger:
            ledger.add_read(made, source)
            for note in ledger.notes:
                log.warning("ladder: %s", note)
    except (OSError, sqlite3.Error) as exc:
        log.warning("%s: the result could not be counted: %s", path, exc)


def keep_saved(transcript: Path, signer: Signer, games: Path) -> Certificate | None:
    """The same for a game saved as ``transcript`` in the games directory ``games`` (a
    local table's: the player's copy, verified again here)."""
    made = write_beside(transcript, signer)
    if isinstance(made, str):
        log.info("no result certificate: %s", made)
        return None
    count(made, ledger_path(games), signer.public_key, "played")
    return made
