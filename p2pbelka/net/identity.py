"""A player's long-term identity: an Ed25519 key pair and a display name.

The key is the player: peers pin it, envelopes are signed with it, and the
fingerprint is what humans compare when they want to be sure who sits where.
It is created on first use and kept in the user's config directory, readable
by the user only.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from p2pbelka.edkeys import is_sound_key, verify

from .oserrors import explain

__all__ = [
    "KEY_FILE",
    "MAX_NAME_LENGTH",
    "PROFILE_FILE",
    "Identity",
    "IdentityError",
    "config_dir",
    "fingerprint",
    "is_sound_key",
    "matches_pin",
    "normal_pin",
    "verify_signature",
]

log = logging.getLogger(__name__)

KEY_FILE = "identity.pem"
PROFILE_FILE = "profile.json"
MAX_NAME_LENGTH = 32
PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64


class IdentityError(Exception):
    """The stored identity cannot be read or written."""


def fingerprint(public_key: bytes) -> str:
    """Short human-comparable form of a raw public key: ``ab12 cd34 ef56 7890``."""
    digest = hashlib.sha256(public_key).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


def normal_pin(text: str) -> str | None:
    """A key pin as a user types it (the 16-digit fingerprint, or the whole key in 64 hex
    digits; spaces and case ignored), normalised; None if it is neither."""
    compact = "".join(text.split()).lower()
    if len(compact) not in (16, 64) or any(c not in "0123456789abcdef" for c in compact):
        return None
    return compact


def matches_pin(public_key: bytes, pin: str) -> bool:
    """True if ``public_key`` is the key ``pin`` (from :func:`normal_pin`) names.

    A 16-digit fingerprint is 64 bits of SHA-256: finding another key with the same
    fingerprint costs about 2**64 key generations, far beyond a LAN game's attacker;
    the full key leaves nothing to chance."""
    if len(pin) == 64:
        return hmac.compare_digest(public_key.hex(), pin)
    return hmac.compare_digest("".join(fingerprint(public_key).split()), pin)


def verify_signature(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """True if ``signature`` is a valid Ed25519 signature of ``data`` by ``public_key``.

    Never raises on malformed input, since keys and signatures come from peers.
    Small-order and non-canonical keys never verify (:mod:`p2pbelka.edkeys`).
    """
    return verify(public_key, signature, data)


DEFAULT_NAME = "Player"
"""The name of a player who gave none and has no login name: one for every command."""


def clean_name(name: str) -> str:
    """Normalise a display name: printable, single-line, bounded length."""
    cleaned = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LENGTH]
    return cleaned or DEFAULT_NAME


def config_dir(directory: str | os.PathLike[str] | None = None) -> Path:
    """Where the identity lives: the explicit argument, else ``$P2PBELKA_HOME``,
    else ``$XDG_CONFIG_HOME/p2pbelka``, else ``~/.config/p2pbelka``."""
    if directory is not None:
        return Path(directory)
    home = os.environ.get("P2PBELKA_HOME")
    if home:
        return Path(home)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    # The XDG spec says relative values are invalid and must be ignored.
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "p2pbelka"
    return Path.home() / ".config" / "p2pbelka"


def default_name(fallback: str = DEFAULT_NAME) -> str:
    """The login name, else ``fallback`` (a local screen passes it translated)."""
    return clean_name(os.environ.get("USER") or os.environ.get("USERNAME") or fallback)


def _ensure_private_dir(path: Path) -> None:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("tightening permissions of %s from %o to 700", path.name, mode)
        path.chmod(0o700)


def _create_exclusive(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` with mode 0600 unless it already exists.

    Returns False if another process created it first. The file appears
    complete or not at all (temp file + hard link), so a concurrent reader
    never sees half a key.
    """
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)  # in case the umask took bits we wanted
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def _read_private(path: Path) -> bytes:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("tightening permissions of %s from %o to 600", path.name, mode)
        path.chmod(0o600)
    return path.read_bytes()


@dataclass(frozen=True)
class Identity:
    """An Ed25519 signing key with the name its owner shows to other players."""

    private_key: Ed25519PrivateKey
    name: str

    @classmethod
    def generate(cls, name: str = "bot") -> Identity:
        """A fresh in-memory identity (tests, bots); nothing is written to disk."""
        return cls(Ed25519PrivateKey.generate(), clean_name(name))

    @classmethod
    def from_seed(cls, seed: bytes, name: str = "bot") -> Identity:
        """A deterministic identity from a 32-byte seed (test vectors)."""
        return cls(Ed25519PrivateKey.from_private_bytes(seed), clean_name(name))

    @classmethod
    def load_or_create(
        cls,
        directory: str | os.PathLike[str] | None = None,
        name: str | None = None,
    ) -> Identity:
        """Load the stored identity, creating it (and the directory) on first use.

        ``name`` is used only when the profile is created; use :meth:`rename`
        to change an existing one.
        """
        root = config_dir(directory)
        _ensure_private_dir(root)
        key_path = root / KEY_FILE
        profile_path = root / PROFILE_FILE

        if not key_path.exists():
            key = Ed25519PrivateKey.generate()
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            if _create_exclusive(key_path, pem):
                log.info("created a new identity in %s", root)
        try:
            loaded = serialization.load_pem_private_key(_read_private(key_path), password=None)
        except OSError as exc:
            raise IdentityError(
                f"cannot read the identity key: {explain(exc, str(key_path))}"
            ) from exc
        except (ValueError, TypeError) as exc:
            raise IdentityError(
                f"{key_path} is not a private key p2pbelka can read: restore it from a backup,"
                " or move it away to start a new identity (the others will see a new fingerprint)"
            ) from exc
        if not isinstance(loaded, Ed25519PrivateKey):
            raise IdentityError(f"{key_path.name} does not hold an Ed25519 key")

        if not profile_path.exists():
            profile = {"name": clean_name(name) if name else default_name()}
            _create_exclusive(profile_path, json.dumps(profile).encode())
        try:
            profile_data = json.loads(_read_private(profile_path))
            stored_name = profile_data["name"]
            if not isinstance(stored_name, str):
                raise TypeError("name is not a string")
        except (ValueError, TypeError, KeyError, OSError) as exc:
            raise IdentityError(f"cannot read {profile_path.name}: {exc}") from exc
        return cls(loaded, clean_name(stored_name))

    @staticmethod
    def rename(new_name: str, directory: str | os.PathLike[str] | None = None) -> None:
        """Change the stored display name (the key stays)."""
        root = config_dir(directory)
        _ensure_private_dir(root)
        path = root / PROFILE_FILE
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"name": clean_name(new_name)}, f)
        os.replace(tmp, path)

    @cached_property
    def public_key(self) -> bytes:
        """The raw 32-byte Ed25519 public key."""
        return self.private_key.public_key().public_bytes_raw()

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        return self.private_key.sign(data)

    def __repr__(self) -> str:
        # Never let a stray log line print key material.
        return f"Identity(name={self.name!r}, fingerprint={self.fingerprint!r})"
