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
import math
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .cipher import NONCE_LIMIT, TAG_SIZE, CipherState, Session
from .errors import (
    BadSignature,
    ContextMismatch,
    DecryptError,
    GuessRefused,
    HandshakeError,
    MalformedHandshake,
    TamperedHandshake,
    UnexpectedPeerKey,
    VersionMismatch,
    WeakPeerKey,
    WrongInviteCode,
)
from .frames import DEFAULT_MAX_FRAME_SIZE
from .identity import Identity, is_sound_key, verify_signature
from .pake import CONFIRM_SIZE as PAKE_CONFIRM_SIZE
from .pake import PAKE_MESSAGE_SIZE, InvitePake

__all__ = [
    "HANDSHAKE_MAX_MESSAGE",
    "NONCE_LIMIT",
    "PAKE_VERSION",
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
"""The handshake without an invite code."""
PAKE_VERSION = 2
"""The handshake with an invite code: SPAKE2 in HELLO and REPLY, confirmations after."""
VERSION_WORDS: Mapping[int, str] = {
    PROTOCOL_VERSION: "without an invite code",
    PAKE_VERSION: "with an invite code",
}
LABEL = b"p2pbelka/transport/v1"

MSG_HELLO = 0x01
MSG_REPLY = 0x02
MSG_AUTH = 0x03
MSG_CONFIRM = 0x04
MSG_VERSION = 0x05  # a responder's last word to a HELLO of a version it does not speak
MSG_UNTESTED = 0x06  # a responder's last word to a HELLO whose guess it will not test
UNTESTED_REASONS: Mapping[int, str] = {1: "spent", 2: "wait"}

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

HELLO_SIZE = 2 + KEY_SIZE + 32
REPLY_SIZE = 1 + KEY_SIZE + KEY_SIZE + TAG_SIZE
AUTH_SIZE = 1 + KEY_SIZE + SIG_SIZE + TAG_SIZE
CONFIRM_SIZE = 1 + SIG_SIZE + TAG_SIZE
VERSION_SIZE = 2
UNTESTED_SIZE = 4  # type, reason, seconds to wait (u16)
# Frames during the handshake are capped at this, so a peer that sends junk
# before authenticating can make us buffer no more than a few hundred bytes.
# (Version 2's AUTH, the largest message, is 145 bytes.)
HANDSHAKE_MAX_MESSAGE = 160

_U32 = struct.Struct(">I")


class Role(enum.Enum):
    INITIATOR = "initiator"
    RESPONDER = "responder"


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
    Then ``hs.result()``. Any exception is final: drop the connection (a responder
    first sends ``hs.refusal`` if it is set: its version, to a peer of another).

    ``expected_peer_key`` pins the peer's identity; ``authorize`` is asked
    about a peer key that is not pinned (e.g. "is this a seated player?").
    Either side may use either; with neither, any authenticated peer is
    accepted and the caller checks ``result().peer_key`` itself.

    ``code`` (an invite code, from :func:`p2pbelka.net.pake.normal_code`) makes this
    the version-2 handshake: the code is the password of a SPAKE2 exchange whose key
    joins every key of the session, and both sides confirm it over the transcript.
    A responder may pass a callable instead, asked for the code once HELLO has passed
    its cheap checks: it may raise :class:`GuessRefused` (the guess is not tested;
    ``refusal`` then holds the last word to send, except for a shut-out address).

    A responder computes nothing (no key, no SPAKE2 start) before a HELLO that passed
    those checks: a connection that sends nothing costs the host nothing but a socket.
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
        version: int | None = None,
        code: bytes | Callable[[], bytes] | None = None,
        pake_entropy: Callable[[int], bytes] | None = None,
    ) -> None:
        if expected_peer_key is not None and not is_sound_key(expected_peer_key):
            raise ValueError("expected_peer_key must be a raw 32-byte, sound Ed25519 key")
        self.identity = identity
        self.role = role
        self.context = bytes(context)
        self.expected_peer_key = expected_peer_key
        self.authorize = authorize
        self.max_frame_size = max_frame_size
        self.version = version or (PAKE_VERSION if code else PROTOCOL_VERSION)
        if callable(code) and role is Role.INITIATOR:
            raise ValueError("only a responder asks for its code late")
        self._code = code
        self._coded = code is not None
        self._seed = ephemeral_seed  # a fixed ephemeral exists only for test vectors
        self._pake_entropy = pake_entropy
        self._prologue = _prologue(self.version, self.context)
        self._eph: X25519PrivateKey | None = None
        self._eph_pub = b""
        self._pake: InvitePake | None = None
        if role is Role.INITIATOR:
            self._keys(self._code if isinstance(self._code, bytes) else None)
        self._peer_eph = b""
        self._pake_msgs = b""  # X || Y, in every hash of the transcript
        self._dh = b""
        self._hs_send: CipherState | None = None
        self._hs_recv: CipherState | None = None
        self._peer_key: bytes | None = None
        self._transcript_hash = b""
        self._result: HandshakeResult | None = None
        self._state = _State.START if role is Role.INITIATOR else _State.WAIT_HELLO
        self._replied = False
        self.refusal: bytes | None = None
        """Set when a responder refuses a HELLO's version: the VERSION message to send."""
        self.code_proven = False

    # -- public -------------------------------------------------------------

    def _keys(self, code: bytes | None) -> None:
        """The ephemeral key and the SPAKE2 start: the costly part of a HELLO or REPLY."""
        self._eph = (
            X25519PrivateKey.from_private_bytes(self._seed)
            if self._seed is not None
            else X25519PrivateKey.generate()
        )
        self._eph_pub = self._eph.public_key().public_bytes_raw()
        if code:
            initiator = self.role is Role.INITIATOR
            self._pake = InvitePake(code, initiator, self._prologue, self._pake_entropy)

    @property
    def done(self) -> bool:
        return self._state is _State.DONE

    @property
    def peer_key(self) -> bytes | None:
        """The peer's identity key once it has been named (not yet proven before DONE)."""
        return self._peer_key

    @property
    def guess_spent(self) -> bool:
        """A responder under a code answered, so the peer could test one guess of it,
        and the peer has not (yet) proven the code: a failure now is a failed guess."""
        return self._pake is not None and self._replied and not self.code_proven

    def start(self) -> bytes:
        """Initiator only: the HELLO message."""
        if self._state is not _State.START:
            raise HandshakeError("start() is for the initiator, once")
        self._state = _State.SENT_HELLO
        pake = self._pake.message if self._pake else b""
        return bytes([MSG_HELLO, self.version]) + self._eph_pub + context_tag(self.context) + pake

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

    def _sizes(self) -> tuple[int, int, int, int]:
        """HELLO, REPLY, AUTH and CONFIRM sizes of this version."""
        if not self._coded:
            return HELLO_SIZE, REPLY_SIZE, AUTH_SIZE, CONFIRM_SIZE
        extra, confirm = PAKE_MESSAGE_SIZE, PAKE_CONFIRM_SIZE
        return HELLO_SIZE + extra, REPLY_SIZE + extra, AUTH_SIZE + confirm, CONFIRM_SIZE + confirm

    def _on_hello(self, msg: bytes) -> bytes:
        if len(msg) < 2 or msg[0] != MSG_HELLO:
            raise MalformedHandshake("first message is not a HELLO")
        if msg[1] != self.version:
            self.refusal = bytes([MSG_VERSION, self.version])
            raise _mismatch(msg[1], self.version)
        if len(msg) != self._sizes()[0]:
            raise MalformedHandshake(f"HELLO is {len(msg)} bytes, expected {self._sizes()[0]}")
        peer_eph = msg[2 : 2 + KEY_SIZE]
        if not hmac.compare_digest(msg[2 + KEY_SIZE : HELLO_SIZE], context_tag(self.context)):
            raise ContextMismatch("peer is connecting for a different table")
        code = self._code
        if callable(code):
            try:
                code = code()
            except GuessRefused as exc:
                if exc.reason in UNTESTED_REASONS.values():
                    self.refusal = _untested(exc)
                raise
        self._keys(code)
        self._finish_pake(msg[HELLO_SIZE:], initiator_msg=msg[HELLO_SIZE:])
        self._agree(initiator_eph=peer_eph, responder_eph=self._eph_pub, peer_eph=peer_eph)
        assert self._hs_send is not None
        enc_id = self._hs_send.encrypt(self.identity.public_key, bytes([MSG_REPLY]))
        self._state = _State.SENT_REPLY
        self._replied = True
        pake = self._pake.message if self._pake else b""
        return bytes([MSG_REPLY]) + self._eph_pub + pake + enc_id

    def _on_reply(self, msg: bytes) -> bytes:
        if len(msg) == VERSION_SIZE and msg[0] == MSG_VERSION:
            raise _mismatch(msg[1], self.version)
        if len(msg) == UNTESTED_SIZE and msg[0] == MSG_UNTESTED and self._pake is not None:
            raise _untested_from(msg)
        if len(msg) != self._sizes()[1] or msg[0] != MSG_REPLY:
            raise MalformedHandshake(f"expected a {self._sizes()[1]}-byte REPLY")
        peer_eph = msg[1 : 1 + KEY_SIZE]
        enc_at = 1 + KEY_SIZE + (PAKE_MESSAGE_SIZE if self._pake else 0)
        if self._pake is not None:
            self._finish_pake(msg[1 + KEY_SIZE : enc_at], initiator_msg=self._pake.message)
        self._agree(initiator_eph=self._eph_pub, responder_eph=peer_eph, peer_eph=peer_eph)
        assert self._hs_recv is not None and self._hs_send is not None
        peer_key = _sound(self._open(self._hs_recv, msg[enc_at:], MSG_REPLY))
        # Checked before we reveal who we are to a responder we did not want.
        self._check_acceptable(peer_key)
        self._peer_key = peer_key
        self._transcript_hash = self._transcript(self.identity.public_key, peer_key)
        sig = self.identity.sign(self._signed_data(ROLE_BYTE_INITIATOR))
        plain = self.identity.public_key + sig + self._confirmation(initiator=True)
        enc = self._hs_send.encrypt(plain, bytes([MSG_AUTH]))
        self._state = _State.SENT_AUTH
        return bytes([MSG_AUTH]) + enc

    def _on_auth(self, msg: bytes) -> bytes:
        if len(msg) != self._sizes()[2] or msg[0] != MSG_AUTH:
            raise MalformedHandshake(f"expected a {self._sizes()[2]}-byte AUTH")
        assert self._hs_recv is not None and self._hs_send is not None
        plain = self._open(self._hs_recv, msg[1:], MSG_AUTH)
        peer_key = _sound(plain[:KEY_SIZE])
        sig = plain[KEY_SIZE : KEY_SIZE + SIG_SIZE]
        self._peer_key = peer_key
        self._transcript_hash = self._transcript(peer_key, self.identity.public_key)
        self._check_confirmation(plain[KEY_SIZE + SIG_SIZE :], initiator=True)
        if not verify_signature(peer_key, sig, self._signed_data(ROLE_BYTE_INITIATOR)):
            raise BadSignature("initiator's transcript signature does not verify")
        self._check_acceptable(peer_key)
        my_sig = self.identity.sign(self._signed_data(ROLE_BYTE_RESPONDER))
        enc = self._hs_send.encrypt(
            my_sig + self._confirmation(initiator=False), bytes([MSG_CONFIRM])
        )
        self._finish()
        return bytes([MSG_CONFIRM]) + enc

    def _on_confirm(self, msg: bytes) -> None:
        if len(msg) != self._sizes()[3] or msg[0] != MSG_CONFIRM:
            raise MalformedHandshake(f"expected an {self._sizes()[3]}-byte CONFIRM")
        assert self._hs_recv is not None and self._peer_key is not None
        plain = self._open(self._hs_recv, msg[1:], MSG_CONFIRM)
        self._check_confirmation(plain[SIG_SIZE:], initiator=False)
        if not verify_signature(
            self._peer_key, plain[:SIG_SIZE], self._signed_data(ROLE_BYTE_RESPONDER)
        ):
            raise BadSignature("responder's transcript signature does not verify")
        self._finish()
        return None

    # -- helpers ----------------------------------------------------------------

    def _finish_pake(self, peer_msg: bytes, *, initiator_msg: bytes) -> None:
        """The SPAKE2 key from the peer's message; X || Y kept for the transcript."""
        if self._pake is None:
            return
        self._pake.finish(peer_msg)
        responder_msg = peer_msg if self.role is Role.INITIATOR else self._pake.message
        self._pake_msgs = initiator_msg + responder_msg

    def _confirmation(self, *, initiator: bool) -> bytes:
        if self._pake is None:
            return b""
        return self._pake.confirmation(initiator, self._transcript_hash)

    def _check_confirmation(self, got: bytes, *, initiator: bool) -> None:
        if self._pake is None:
            return
        if not hmac.compare_digest(got, self._confirmation(initiator=initiator)):
            raise WrongInviteCode("the peer's invite-code confirmation does not match")
        self.code_proven = True

    def _agree(self, *, initiator_eph: bytes, responder_eph: bytes, peer_eph: bytes) -> None:
        assert self._eph is not None
        try:
            dh = self._eph.exchange(X25519PublicKey.from_public_bytes(peer_eph))
        except ValueError as exc:
            # cryptography refuses low-order points (all-zero shared secret).
            raise MalformedHandshake(f"unusable ephemeral key from peer: {exc}") from None
        self._peer_eph = peer_eph
        # The invite code's SPAKE2 key joins the shared secret: without the code
        # neither side can read the other's identity or finish, and nobody can test
        # a guess of the code offline (only the one its own SPAKE2 message made).
        self._dh = dh + (self._pake.key if self._pake else b"")
        salt = hashlib.sha256(
            self._prologue + initiator_eph + responder_eph + self._pake_msgs
        ).digest()
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
            if self._pake is not None:
                raise WrongInviteCode(
                    "the peer's answer does not decrypt under our invite code: the codes"
                    " differ (or the message was tampered with)"
                ) from None
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
            self._prologue + eph_i + eph_r + self._pake_msgs + initiator_key + responder_key
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


def _mismatch(peer: int, ours: int) -> VersionMismatch:
    """A version refusal in words: which side has an invite code and which has none."""
    theirs = VERSION_WORDS.get(peer, "unknown to this program")
    return VersionMismatch(
        f"peer speaks handshake version {peer} ({theirs}), we speak {ours}"
        f" ({VERSION_WORDS.get(ours, '?')})",
        peer,
        ours,
    )


def _untested(exc: GuessRefused) -> bytes:
    """The last word to a HELLO whose guess the host will not test."""
    reason = next(n for n, r in UNTESTED_REASONS.items() if r == exc.reason)
    return bytes([MSG_UNTESTED, reason]) + struct.pack(">H", min(65535, math.ceil(exc.seconds)))


def _untested_from(msg: bytes) -> GuessRefused:
    reason = UNTESTED_REASONS.get(msg[1])
    seconds = struct.unpack(">H", msg[2:4])[0]
    if reason == "wait":
        return GuessRefused(
            f"the host tests no code from this address for {seconds} s more (wrong codes)",
            reason,
            seconds,
        )
    if reason == "spent":
        return GuessRefused("the host's invite code is used up: it must draw a new one", reason)
    return GuessRefused(f"the host did not test the code (reason {msg[1]})", "other")
