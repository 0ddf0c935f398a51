"""Ed25519 public keys that come from other peers: the weak ones are refused.

A key enters the program in the handshake, a beacon, the lobby, the ``table``
envelope and every envelope's sender field; each of those places asks
:func:`is_sound_key` (or verifies through :func:`verify`), so the rule is
written once.  A key is sound when it is the canonical encoding of a point on
the curve, of large prime order, in the main subgroup: libsodium's
``crypto_core_ed25519_is_valid_point``.  Every key made by Ed25519 key
generation passes; small-order keys do not, and under those a forged signature
(R = neutral element, S = 0) verifies for every message in some libraries.

Signatures are checked by libsodium (``crypto_sign_open``, through PyNaCl): RFC
8032 verification with S canonical (below the group order), the key sound, R
not of small order, and the encoding of [S]B - [h]A equal to R's bytes (so R's
encoding is canonical).  The one signature OpenSSL also accepts and libsodium
refuses is, under a sound key, R = the neutral element: only the key's owner
can make one, no honest signer ever does, and refusing it costs nothing.
libsodium verifies in about half OpenSSL's time here, and a peer verifies
every envelope of the game.

A simulator, which runs every peer of a table in one process, may have the
answers remembered (``remembering``): a check is a pure function of the key, the
signature and the data, and every peer checks every envelope, then the
simulator's own checks read every copy again.  The field never does.

This module imports nothing of the package, so every layer may use it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import lru_cache

from nacl import bindings as _nacl
from nacl.exceptions import BadSignatureError as _BadSignature

__all__ = ["KEY_SIZE", "SIGNATURE_SIZE", "is_sound_key", "remembering", "verify"]

KEY_SIZE = 32
SIGNATURE_SIZE = 64
_FIELD_PRIME = 2**255 - 19


def is_sound_key(key: object) -> bool:
    """True if ``key`` is 32 bytes holding a canonical, large-order Ed25519 point."""
    return type(key) is bytes and len(key) == KEY_SIZE and _sound(key)


@lru_cache(maxsize=4096)
def _sound(key: bytes) -> bool:
    # libsodium checks the canonical encoding too; saying it here keeps the rule
    # readable and independent of one library version.
    if int.from_bytes(key, "little") & ((1 << 255) - 1) >= _FIELD_PRIME:
        return False
    return bool(_nacl.crypto_core_ed25519_is_valid_point(key))


def verify(key: bytes, signature: bytes, data: bytes) -> bool:
    """True if ``signature`` is a valid Ed25519 signature of ``data`` by a sound ``key``.

    Never raises on malformed input, since keys and signatures come from peers.
    """
    if not is_sound_key(key) or type(signature) is not bytes:
        return False
    if len(signature) != SIGNATURE_SIZE:
        return False
    known = _known
    if known is None or type(data) is not bytes:
        return _opens(key, signature, data)
    place = (key, signature, data)
    answer = known.get(place)
    if answer is None:
        answer = known[place] = _opens(key, signature, data)
    return answer


def _opens(key: bytes, signature: bytes, data: bytes) -> bool:
    try:
        _nacl.crypto_sign_open(signature + data, key)
    except (_BadSignature, ValueError, TypeError):
        return False
    return True


Known = dict[tuple[bytes, bytes, bytes], bool]
_known: Known | None = None
"""The answers remembered, while ``remembering``."""


@contextlib.contextmanager
def remembering(known: Known | None = None) -> Iterator[None]:
    """Each check's answer, for the block, remembered in ``known`` (if None, the
    enclosing block's, or else a new dict) and given again for the same key,
    signature and data (a simulated table's peers share them, and the simulator's
    checks after the run)."""
    global _known
    if known is None:
        known = _known
    saved, _known = _known, {} if known is None else known
    try:
        yield
    finally:
        _known = saved
