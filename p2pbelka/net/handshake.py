"""The peer handshake and the encrypted session, sans-IO.

A SIGMA-style exchange in four messages (protocol/transport.md has the bytes):

1. I -> R  HELLO    version, initiator's ephemeral X25519 key, context tag
2. R -> I  REPLY    responder's ephemeral key, Enc(responder identity key)
3. I -> R  AUTH     Enc(initiator identity key, initiator signature)
4. R -> I  CONFIRM  Enc(responder signature)

Both signatures cover one transcript hash over the protocol label and version,
the context, both ephemeral keys and both identity keys, plus a role byte, so a
signature cannot be replayed in another session, reflected back to its signer,
or claimed by a third identity. The ephemerals are exchanged before anyone
names an identity so that both identity keys can be signed: the initiator
checks a pinned responder key before revealing its own, and the responder hands
the initiator's key to the caller before confirming.

The classes here never touch a socket; :mod:`p2pbelka.net.connection` feeds
them frames.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
import struct
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import (
    BadSignature,
    ContextMismatch,
    DecryptError,
    HandshakeError,
    MalformedHandshake,
    NonceExhausted,
    TamperedHandshake,
    UnexpectedPeerKey,
    VersionMismatch,
    WeakPeerKey,
)
from .frames import DEFAULT_MAX_FRAME_SIZE
from .identity import Identity, is_sound_key, verify_signature

__all__ = [
    "HANDSHAKE_MAX_MESSAGE",
    "NONCE_LIMIT",
    "PROTOCOL_VERSION",
    "TAG_SIZE",
    "CipherState",
    "Handshake",
    "HandshakeResult",
    "Role",
    "Session",
    "context_tag",
]

PROTOCOL_VERSION = 1
LABEL = b"p2pbelka/transport/v1"

MSG_HELLO = 0x01
MSG_REPLY = 0x02
MSG_AUTH = 0x03
MSG_CONFIRM = 0x04

ROLE_BYTE_INITIATOR = b"I"
ROLE_BYTE_RESPONDER = b"R"

INFO_HS_I2R = b"p2pbelka/v1 handshake i2r"
INFO_HS_R2I = b"p2pbelka/v1 handshake r2i"
INFO_DATA_I2R = b"p2pbelka/v1 data i2r"
INFO_DATA_R2I = b"p2pbelka/v1 data r2i"
SIGNATURE_PREFIX = b"p2pbelka/v1 transcript signature"
CONTEXT_TAG_PREFIX = b"p2pbelka/v1 context"

KEY_SIZE = 32
SIG_SIZE = 64
TAG_SIZE = 16

HELLO_SIZE = 2 + KEY_SIZE + 32
REPLY_SIZE = 1 + KEY_SIZE + KEY_SIZE + TAG_SIZE
AUTH_SIZE = 1 + KEY_SIZE + SIG_SIZE + TAG_SIZE
CONFIRM_SIZE = 1 + SIG_SIZE + TAG_SIZE
# Frames during the handshake are capped at this, so a peer that sends junk
# before authenticating can make us buffer no more than a few hundred bytes.
HANDSHAKE_MAX_MESSAGE = 128

# Counter values are 64-bit; the connection is refused further use before the
# last one, so a (key, nonce) pair can never repeat.
NONCE_LIMIT = 2**64 - 1

_U32 = struct.Struct(">I")


class Role(enum.Enum):
    INITIATOR = "initiator"
    RESPONDER = "responder"


INVITE_SALT = b"p2pbelka/v1 invite code"
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed
INVITE_GROUPS = 4


def new_invite_code() -> str:
    """A fresh invite code: 16 characters of a 32-letter alphabet, 80 bits, in groups."""
    chars = "".join(secrets.choice(INVITE_ALPHABET) for _ in range(4 * INVITE_GROUPS))
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))


def invite_key(code: str) -> bytes:
    """The pre-shared key an invite code stands for (scrypt, so each guess costs).

    Case, spaces and dashes do not matter.  This is blocking work (tens of ms):
    call it once per table, off the event loop."""
    normal = "".join(ch for ch in code.upper() if ch.isalnum()).encode()
    if not normal:
        raise ValueError("an invite code needs at least one letter or digit")
    return hashlib.scrypt(normal, salt=INVITE_SALT, n=2**14, r=8, p=1, dklen=KEY_SIZE)


def context_tag(context: bytes) -> bytes:
    """What HELLO carries so a responder can tell 'wrong table' from 'attack'."""
    return hashlib.sha256(CONTEXT_TAG_PREFIX + context).digest()


def _prologue(version: int, context: bytes) -> bytes:
    return LABEL + bytes([version]) + _U32.pack(len(context)) + context


def _hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=KEY_SIZE, salt=salt, info=info).derive(ikm)


def _sound(peer_key: bytes) -> bytes:
    """The peer's identity key, if usable: a small-order key would let anyone sign as it."""
    if not is_sound_key(peer_key):
        raise WeakPeerKey("peer identity key is of small order or not canonical")
    return peer_key


def _nonce(counter: int) -> bytes:
    return b"\x00\x00\x00\x00" + counter.to_bytes(8, "big")


class CipherState:
    """ChaCha20-Poly1305 in one direction with an implicit message counter.

    The counter is not sent: the receiver expects the next value, so a
    replayed, dropped or reordered frame fails authentication.
    """

    def __init__(self, key: bytes, nonce: int = 0) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.nonce = nonce

    def encrypt(self, plaintext: bytes, associated_data: bytes = b"") -> bytes:
        if self.nonce >= NONCE_LIMIT:
            raise NonceExhausted("send counter exhausted; reconnect to get fresh keys")
        out = self._aead.encrypt(_nonce(self.nonce), plaintext, associated_data)
        self.nonce += 1
        return out

    def decrypt(self, ciphertext: bytes, associated_data: bytes = b"") -> bytes:
        if self.nonce >= NONCE_LIMIT:
            raise NonceExhausted("receive counter exhausted; reconnect to get fresh keys")
        if len(ciphertext) < TAG_SIZE:
            raise DecryptError(f"frame of {len(ciphertext)} bytes is shorter than a tag")
        try:
            out = self._aead.decrypt(_nonce(self.nonce), ciphertext, associated_data)
        except InvalidTag:
            raise DecryptError(
                f"frame {self.nonce} failed authentication (tampered, replayed or reordered)"
            ) from None
        self.nonce += 1
        return out


class Session:
    """The established channel's two cipher states, one per direction."""

    def __init__(
        self,
        send: CipherState,
        receive: CipherState,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    ) -> None:
        self._send = send
        self._receive = receive
        self.max_frame_size = max_frame_size

    @property
    def max_payload(self) -> int:
        return self.max_frame_size - TAG_SIZE

    def seal(self, payload: bytes) -> bytes:
        """Encrypt one payload into one frame body."""
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        return self._send.encrypt(payload)

    def open(self, body: bytes) -> bytes:
        """Decrypt one frame body; raises :class:`DecryptError` on any tampering."""
        return self._receive.decrypt(body)


@dataclass(frozen=True)
class HandshakeResult:
    peer_key: bytes
    """The peer's raw Ed25519 identity key, proven by its signature."""
    transcript_hash: bytes
    """Unique to this session and bound to both identities: a channel binding."""
    session: Session


class _State(enum.Enum):
    START = enum.auto()
    SENT_HELLO = enum.auto()  # initiator, waiting for REPLY
    SENT_AUTH = enum.auto()  # initiator, waiting for CONFIRM
    WAIT_HELLO = enum.auto()  # responder
    SENT_REPLY = enum.auto()  # responder, waiting for AUTH
    DONE = enum.auto()
    FAILED = enum.auto()


class Handshake:
    """One side of the handshake. Feed it the peer's messages; send what it returns.

    Initiator: ``m1 = hs.start()``; ``m3 = hs.receive(m2)``; ``hs.receive(m4)``.
    Responder: ``m2 = hs.receive(m1)``; ``m4 = hs.receive(m3)``.
    Then ``hs.result()``. Any exception is final: drop the connection.

    ``expected_peer_key`` pins the peer's identity; ``authorize`` is asked
    about a peer key that is not pinned (e.g. "is this a seated player?").
    Either side may use either; with neither, any authenticated peer is
    accepted and the caller checks ``result().peer_key`` itself.

    ``psk`` (from :func:`invite_key`) is mixed into every key of the session;
    both sides must hold the same one, or the first encrypted field fails.
    """

    def __init__(
        self,
        identity: Identity,
        role: Role,
        *,
        context: bytes = b"",
        expected_peer_key: bytes | None = None,
        authorize: Callable[[bytes], bool] | None = None,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
        ephemeral_seed: bytes | None = None,
        version: int = PROTOCOL_VERSION,
        psk: bytes | None = None,
    ) -> None:
        if psk is not None and len(psk) != KEY_SIZE:
            raise ValueError("psk must be 32 bytes (see invite_key)")
        self._psk = psk or b""
        if expected_peer_key is not None and not is_sound_key(expected_peer_key):
            raise ValueError("expected_peer_key must be a raw 32-byte, sound Ed25519 key")
        self.identity = identity
        self.role = role
        self.context = bytes(context)
        self.expected_peer_key = expected_peer_key
        self.authorize = authorize
        self.max_frame_size = max_frame_size
        self.version = version
        # A fixed ephemeral exists only for test vectors; never reuse one.
        self._eph = (
            X25519PrivateKey.from_private_bytes(ephemeral_seed)
            if ephemeral_seed is not None
            else X25519PrivateKey.generate()
        )
        self._eph_pub = self._eph.public_key().public_bytes_raw()
        self._prologue = _prologue(version, self.context)
        self._peer_eph = b""
        self._dh = b""
        self._hs_send: CipherState | None = None
        self._hs_recv: CipherState | None = None
        self._peer_key: bytes | None = None
        self._transcript_hash = b""
        self._result: HandshakeResult | None = None
        self._state = _State.START if role is Role.INITIATOR else _State.WAIT_HELLO

    # -- public -------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._state is _State.DONE

    @property
    def peer_key(self) -> bytes | None:
        """The peer's identity key once it has been named (not yet proven before DONE)."""
        return self._peer_key

    def start(self) -> bytes:
        """Initiator only: the HELLO message."""
        if self._state is not _State.START:
            raise HandshakeError("start() is for the initiator, once")
        self._state = _State.SENT_HELLO
        return bytes([MSG_HELLO, self.version]) + self._eph_pub + context_tag(self.context)

    def receive(self, message: bytes) -> bytes | None:
        """Process one peer message; return the reply to send, if any."""
        handler = {
            _State.WAIT_HELLO: self._on_hello,
            _State.SENT_HELLO: self._on_reply,
            _State.SENT_REPLY: self._on_auth,
            _State.SENT_AUTH: self._on_confirm,
        }.get(self._state)
        if handler is None:
            raise HandshakeError(f"unexpected handshake message in state {self._state.name}")
        try:
            return handler(bytes(message))
        except BaseException:
            self._state = _State.FAILED
            raise

    def result(self) -> HandshakeResult:
        if self._result is None:
            raise HandshakeError("handshake not complete")
        return self._result

    # -- steps ----------------------------------------------------------------

    def _on_hello(self, msg: bytes) -> bytes:
        if len(msg) < 2 or msg[0] != MSG_HELLO:
            raise MalformedHandshake("first message is not a HELLO")
        if msg[1] != self.version:
            raise VersionMismatch(f"peer speaks version {msg[1]}, we speak {self.version}")
        if len(msg) != HELLO_SIZE:
            raise MalformedHandshake(f"HELLO is {len(msg)} bytes, expected {HELLO_SIZE}")
        peer_eph = msg[2 : 2 + KEY_SIZE]
        if not hmac.compare_digest(msg[2 + KEY_SIZE :], context_tag(self.context)):
            raise ContextMismatch("peer is connecting for a different table")
        self._agree(initiator_eph=peer_eph, responder_eph=self._eph_pub, peer_eph=peer_eph)
        assert self._hs_send is not None
        enc_id = self._hs_send.encrypt(self.identity.public_key, bytes([MSG_REPLY]))
        self._state = _State.SENT_REPLY
        return bytes([MSG_REPLY]) + self._eph_pub + enc_id

    def _on_reply(self, msg: bytes) -> bytes:
        if len(msg) != REPLY_SIZE or msg[0] != MSG_REPLY:
            raise MalformedHandshake(f"expected a {REPLY_SIZE}-byte REPLY")
        peer_eph = msg[1 : 1 + KEY_SIZE]
        self._agree(initiator_eph=self._eph_pub, responder_eph=peer_eph, peer_eph=peer_eph)
        assert self._hs_recv is not None and self._hs_send is not None
        peer_key = _sound(self._open(self._hs_recv, msg[1 + KEY_SIZE :], MSG_REPLY))
        # Checked before we reveal who we are to a responder we did not want.
        self._check_acceptable(peer_key)
        self._peer_key = peer_key
        self._transcript_hash = self._transcript(self.identity.public_key, peer_key)
        sig = self.identity.sign(self._signed_data(ROLE_BYTE_INITIATOR))
        enc = self._hs_send.encrypt(self.identity.public_key + sig, bytes([MSG_AUTH]))
        self._state = _State.SENT_AUTH
        return bytes([MSG_AUTH]) + enc

    def _on_auth(self, msg: bytes) -> bytes:
        if len(msg) != AUTH_SIZE or msg[0] != MSG_AUTH:
            raise MalformedHandshake(f"expected a {AUTH_SIZE}-byte AUTH")
        assert self._hs_recv is not None and self._hs_send is not None
        plain = self._open(self._hs_recv, msg[1:], MSG_AUTH)
        peer_key, sig = _sound(plain[:KEY_SIZE]), plain[KEY_SIZE:]
        self._peer_key = peer_key
        self._transcript_hash = self._transcript(peer_key, self.identity.public_key)
        if not verify_signature(peer_key, sig, self._signed_data(ROLE_BYTE_INITIATOR)):
            raise BadSignature("initiator's transcript signature does not verify")
        self._check_acceptable(peer_key)
        my_sig = self.identity.sign(self._signed_data(ROLE_BYTE_RESPONDER))
        enc = self._hs_send.encrypt(my_sig, bytes([MSG_CONFIRM]))
        self._finish()
        return bytes([MSG_CONFIRM]) + enc

    def _on_confirm(self, msg: bytes) -> None:
        if len(msg) != CONFIRM_SIZE or msg[0] != MSG_CONFIRM:
            raise MalformedHandshake(f"expected an {CONFIRM_SIZE}-byte CONFIRM")
        assert self._hs_recv is not None and self._peer_key is not None
        sig = self._open(self._hs_recv, msg[1:], MSG_CONFIRM)
        if not verify_signature(self._peer_key, sig, self._signed_data(ROLE_BYTE_RESPONDER)):
            raise BadSignature("responder's transcript signature does not verify")
        self._finish()
        return None

    # -- helpers ----------------------------------------------------------------

    def _agree(self, *, initiator_eph: bytes, responder_eph: bytes, peer_eph: bytes) -> None:
        try:
            dh = self._eph.exchange(X25519PublicKey.from_public_bytes(peer_eph))
        except ValueError as exc:
            # cryptography refuses low-order points (all-zero shared secret).
            raise MalformedHandshake(f"unusable ephemeral key from peer: {exc}") from None
        self._peer_eph = peer_eph
        # An invite code's key joins the shared secret: without it neither side can
        # read the other's identity or finish, and an eavesdropper, who lacks the
        # ephemeral secrets, has nothing to test guesses of the code against.
        self._dh = dh + self._psk
        salt = hashlib.sha256(self._prologue + initiator_eph + responder_eph).digest()
        i2r = CipherState(_hkdf(self._dh, salt, INFO_HS_I2R))
        r2i = CipherState(_hkdf(self._dh, salt, INFO_HS_R2I))
        if self.role is Role.INITIATOR:
            self._hs_send, self._hs_recv = i2r, r2i
        else:
            self._hs_send, self._hs_recv = r2i, i2r

    def _open(self, cipher: CipherState, ciphertext: bytes, msg_type: int) -> bytes:
        try:
            return cipher.decrypt(ciphertext, bytes([msg_type]))
        except DecryptError:
            raise TamperedHandshake(
                "encrypted handshake field failed authentication (tampered or wrong keys)"
            ) from None

    def _ephemerals(self) -> tuple[bytes, bytes]:
        if self.role is Role.INITIATOR:
            return self._eph_pub, self._peer_eph
        return self._peer_eph, self._eph_pub

    def _transcript(self, initiator_key: bytes, responder_key: bytes) -> bytes:
        eph_i, eph_r = self._ephemerals()
        return hashlib.sha256(
            self._prologue + eph_i + eph_r + initiator_key + responder_key
        ).digest()

    def _signed_data(self, role_byte: bytes) -> bytes:
        return SIGNATURE_PREFIX + role_byte + self._transcript_hash

    def _check_acceptable(self, peer_key: bytes) -> None:
        if self.expected_peer_key is not None:
            if not hmac.compare_digest(peer_key, self.expected_peer_key):
                raise UnexpectedPeerKey("peer identity does not match the pinned key")
        elif self.authorize is not None and not self.authorize(peer_key):
            raise UnexpectedPeerKey("peer identity was not accepted")

    def _finish(self) -> None:
        th = self._transcript_hash
        i2r = CipherState(_hkdf(self._dh, th, INFO_DATA_I2R))
        r2i = CipherState(_hkdf(self._dh, th, INFO_DATA_R2I))
        send, recv = (i2r, r2i) if self.role is Role.INITIATOR else (r2i, i2r)
        assert self._peer_key is not None
        self._result = HandshakeResult(
            peer_key=self._peer_key,
            transcript_hash=th,
            session=Session(send, recv, self.max_frame_size),
        )
        # The shared secret is not needed past this point.
        self._dh = b""
        self._hs_send = self._hs_recv = None
        self._state = _State.DONE
