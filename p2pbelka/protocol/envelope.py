"""Signed envelopes: every message travels inside one.

Wire layout (see protocol/SPEC.md)::

    envelope = msgpack [inner: bin, sig: bin(64)]
    inner    = msgpack [version, game_id: bin(16), deal, seq, prev: bin(32),
                        sender: bin(32), view: [[uint, bin(32)], ...], type: str, body: map]

``view`` is what the sender had accepted of every seat's chain when it signed:
for each seat in seat order, how many of its envelopes and the hash of the
last (empty in the ``table`` envelope, which comes before any seat is known).
A receiver compares it with its own (protocol/SPEC.md section 2.1), so a seat
that told different peers different things is caught at the next message.

The signature is Ed25519 by ``sender`` over the exact ``inner`` bytes, so no
canonical re-serialisation is needed to check it; the envelope's hash (its
identity in hash chains and transcripts) is SHA-256 of ``inner``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl import bindings as _nacl

from p2pbelka.edkeys import SIGNATURE_SIZE as _SIGNATURE_SIZE
from p2pbelka.edkeys import is_sound_key, verify
from p2pbelka.protocol.codec import ProtocolError, decode, encode
from p2pbelka.protocol.messages import Message, parse_body

VERSION = 2
GAME_ID_SIZE = 16
ZERO_HASH = bytes(32)
MAX_VIEW = 4

View = tuple[tuple[int, bytes], ...]
"""Per seat: (envelopes accepted, hash of the last; 32 zero bytes for none)."""


class Signer:
    """An Ed25519 identity that signs envelopes.

    Signs with libsodium (about half OpenSSL's time here; a peer signs every
    envelope it sends).  Ed25519 signatures are deterministic (RFC 8032), so
    they are the same bytes either library makes."""

    def __init__(self, private_key: Ed25519PrivateKey) -> None:
        self._key = private_key
        self.public_key: bytes = private_key.public_key().public_bytes_raw()
        public, self._sodium_key = _nacl.crypto_sign_seed_keypair(private_key.private_bytes_raw())
        if public != self.public_key:  # one key in two libraries: never differs
            raise ValueError("libsodium and OpenSSL derive different public keys")

    @classmethod
    def generate(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Signer:
        """A deterministic identity (32-byte seed): for test vectors and seeded self-play."""
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def sign(self, data: bytes) -> bytes:
        signature: bytes = _nacl.crypto_sign(data, self._sodium_key)[:_SIGNATURE_SIZE]
        return signature


@dataclass(frozen=True, slots=True)
class Envelope:
    game: bytes
    deal: int
    seq: int
    prev: bytes
    sender: bytes
    view: View
    msg: Message
    raw: bytes
    digest: bytes

    @property
    def type(self) -> str:
        return self.msg.TYPE


def seal_envelope(
    signer: Signer,
    game: bytes,
    deal: int,
    seq: int,
    prev: bytes,
    msg: Message,
    view: View = (),
) -> Envelope:
    wire_view = [[count, head] for count, head in view]
    fields = [VERSION, game, deal, seq, prev, signer.public_key, wire_view, msg.TYPE]
    inner = encode([*fields, msg.to_wire()])
    raw = encode([inner, signer.sign(inner)])
    digest = hashlib.sha256(inner).digest()
    return Envelope(game, deal, seq, prev, signer.public_key, view, msg, raw, digest)


def open_envelope(raw: bytes) -> Envelope:
    """Decode and check one envelope: format, field types, body schema and signature.

    Raises ``ProtocolError`` naming the part at fault.  Says nothing about whether
    the sender is seated or the message is in turn: that is the table's check.

    Inside ``remembering`` the same bytes open to the same envelope, checked once.
    """
    known = _opened.get()
    if known is None or type(raw) is not bytes:
        return _open(raw)
    envelope = known.get(raw)
    if envelope is None:
        envelope = known[raw] = _open(raw)  # (one that fails is never kept)
    return envelope


Opened = dict[bytes, "Envelope"]
_opened: ContextVar[Opened | None] = ContextVar("opened", default=None)
"""The envelopes opened, while ``remembering``."""


@contextmanager
def remembering(known: Opened | None = None) -> Iterator[None]:
    """Each envelope opened, for the block (and the tasks started in it), remembered in
    ``known`` (if None, the enclosing block's, or else a new dict: a test that runs
    every seat and then verifies shares one) and given again for the same bytes, its signature
    checked once: opening is a function of the bytes alone (an ``Envelope`` is frozen,
    its message too).  For a process that runs every seat of a table (a simulated
    table, ``peer.sync.run_sync``, a vector generator), where each seat, watcher and
    check opens every envelope.  A peer's own process never needs it (it opens each
    envelope once); what does not open raises every time and is never remembered."""
    if known is None:
        known = _opened.get()
    token = _opened.set({} if known is None else known)
    try:
        yield
    finally:
        _opened.reset(token)


@contextmanager
def opened_anew() -> Iterator[None]:
    """Within it, every envelope is opened and checked anew, ``remembering`` or not:
    a benchmark's peers, all in one process, each do the work a peer's own process
    does (and a verify timed after them, a verifier's)."""
    token = _opened.set(None)
    try:
        yield
    finally:
        _opened.reset(token)


def _open(raw: bytes) -> Envelope:
    outer = decode(raw, "envelope")
    if type(outer) is not list or len(outer) != 2:
        raise ProtocolError("expected [inner, signature]", "envelope")
    inner_raw, sig = outer
    if type(inner_raw) is not bytes:
        raise ProtocolError("expected bytes", "envelope.inner")
    if type(sig) is not bytes or len(sig) != 64:
        raise ProtocolError("expected a 64-byte signature", "envelope.sig")
    inner = decode(inner_raw, "envelope.inner")
    if type(inner) is not list or len(inner) != 9:
        raise ProtocolError("expected 9 fields", "envelope.inner")
    version, game, deal, seq, prev, sender, view_raw, msg_type, body = inner
    if version != VERSION or type(version) is not int:
        raise ProtocolError(f"unsupported protocol version {version!r:.20}", "envelope.version")
    _check_bytes(game, GAME_ID_SIZE, "envelope.game")
    _check_uint(deal, "envelope.deal")
    _check_uint(seq, "envelope.seq")
    _check_bytes(prev, 32, "envelope.prev")
    _check_bytes(sender, 32, "envelope.sender")
    view = _check_view(view_raw)
    if type(msg_type) is not str:
        raise ProtocolError("expected a string", "envelope.type")
    msg = parse_body(msg_type, body)
    if not is_sound_key(sender):
        raise ProtocolError(
            "not a usable Ed25519 key (small order or non-canonical)", "envelope.sender"
        )
    if not verify(sender, sig, inner_raw):
        raise ProtocolError("bad signature", "envelope.sig")
    digest = hashlib.sha256(inner_raw).digest()
    return Envelope(game, deal, seq, prev, sender, view, msg, raw, digest)


def _check_view(value: object) -> View:
    if type(value) is not list or len(value) > MAX_VIEW:
        raise ProtocolError(f"expected a list of at most {MAX_VIEW} entries", "envelope.view")
    out = []
    for i, entry in enumerate(value):
        where = f"envelope.view[{i}]"
        if type(entry) is not list or len(entry) != 2:
            raise ProtocolError("expected [count, hash]", where)
        _check_uint(entry[0], f"{where}[0]")
        _check_bytes(entry[1], 32, f"{where}[1]")
        if entry[0] == 0 and entry[1] != ZERO_HASH:
            # No envelope is behind a count of 0: any other head is wrong on its face
            # (compared, it would accuse a seat of an envelope number -1).
            raise ProtocolError("a count of 0 with a head that is not 32 zero bytes", where)
        out.append((entry[0], entry[1]))
    return tuple(out)


def _check_bytes(value: object, size: int, where: str) -> None:
    if type(value) is not bytes or len(value) != size:
        raise ProtocolError(f"expected {size} bytes", where)


def _check_uint(value: object, where: str) -> None:
    if type(value) is not int or not 0 <= value < 2**32:
        raise ProtocolError("expected an integer in 0..2**32-1", where)
