"""Certificates on the disk: one beside every saved game once it ended.

A LAN seat's or a watcher's game directory holds ``transcript.p2pb``, its certificate
is ``result.cert`` beside it; a local game's ``belka-<time>.transcript`` gets
``belka-<time>.cert``.  The date is the transcript's last write (when its last record
came), so a certificate made again later says the same day.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from p2pbelka.ladder.certificate import Certificate
from p2pbelka.ladder.make import certify
from p2pbelka.net.identity import Identity
from p2pbelka.protocol.envelope import Signer

log = logging.getLogger(__name__)

SUFFIX = ".cert"
IN_A_DIRECTORY = "result.cert"


def certificate_path(transcript: Path) -> Path:
    """Where the certificate of the game in ``transcript`` is kept."""
    if transcript.name == "transcript.p2pb":
        return transcript.with_name(IN_A_DIRECTORY)
    return transcript.with_suffix(SUFFIX)


def player_signer() -> Signer:
    """The player's own key (made on first use, like every command's)."""
    return Signer(Identity.load_or_create().private_key)


def certificate_of(data: bytes, signer: Signer | None = None, at: int = 0) -> Certificate | str:
    """The certificate of transcript ``data`` (signed by the player's key unless
    ``signer``), or why there is none."""
    return certify(data, signer or player_signer(), at)


def write_beside(transcript: Path, signer: Signer) -> Certificate | str:
    """Write the certificate of the saved game ``transcript`` beside it (replacing
    nothing: a certificate already there stays); the certificate, or why there is none.
    An unreadable transcript is a reason too: a game's end never fails on this."""
    try:
        data = transcript.read_bytes()
        at = int(transcript.stat().st_mtime)
    except OSError as exc:
        return f"{transcript}: {os.strerror(exc.errno or 0)}"
    made = certify(data, signer, at)
    if isinstance(made, str):
        return made
    keep_beside(transcript, made)
    return made


def keep_beside(transcript: Path, made: Certificate) -> None:
    """Write ``made`` beside ``transcript``, unless a certificate is there already (a
    resumed seat that ended before: the first stays); a disk that fails is logged."""
    out = certificate_path(transcript)
    try:
        with open(out, "xb") as f:
            f.write(made.raw)
    except FileExistsError:
        pass
    except OSError as exc:
        log.warning("%s: the result certificate could not be written: %s", out, exc)


def saved_transcripts(games: Path) -> list[Path]:
    """The saved games in the games directory ``games``: local tables' transcripts, LAN
    seats' and watchers' directories (a local table's seats, inside ``local-*``, are
    the player's copy's)."""
    if not games.is_dir():
        return []
    return sorted(games.glob("*.transcript")) + sorted(games.glob("*/transcript.p2pb"))


def uncertified(games: Path) -> list[Path]:
    """The saved games with no certificate beside them yet."""
    return [t for t in saved_transcripts(games) if not certificate_path(t).exists()]
