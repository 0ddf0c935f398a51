"""The handshake and session state machines, in memory (no sockets)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from p2pbelka.net.errors import (
    BadSignature,
    ContextMismatch,
    DecryptError,
    HandshakeError,
    MalformedHandshake,
    NonceExhausted,
    TamperedHandshake,
    UnexpectedPeerKey,
    VersionMismatch,
)
from p2pbelka.net.handshake import (
    NONCE_LIMIT,
    TAG_SIZE,
    CipherState,
    Handshake,
    HandshakeResult,
    Role,
)
from p2pbelka.net.identity import Identity

ALICE = Identity.generate("alice")
BOB = Identity.generate("bob")
CAROL = Identity.generate("carol")


def run(initiator: Handshake, responder: Handshake) -> tuple[HandshakeResult, HandshakeResult]:
    m2 = responder.receive(initiator.start())
    assert m2 is not None
    m3 = initiator.receive(m2)
    assert m3 is not None
    m4 = responder.receive(m3)
    assert m4 is not None
    assert initiator.receive(m4) is None
    assert initiator.done and responder.done
    return initiator.result(), responder.result()


def play(initiator: Handshake, responder: Handshake, count: int) -> bytes:
    """Deliver the first ``count - 1`` messages; return message ``count`` undelivered."""
    msg = initiator.start()
    for side in [responder, initiator, responder][: count - 1]:
        out = side.receive(msg)
        assert out is not None
        msg = out
    return msg


def pair(context: bytes = b"table-1", code: bytes | None = None) -> tuple[Handshake, Handshake]:
    i = Handshake(
        ALICE, Role.INITIATOR, context=context, expected_peer_key=BOB.public_key, code=code
    )
    r = Handshake(BOB, Role.RESPONDER, context=context, code=code)
    return i, r


# The properties hold without an invite code (version 1) and with one (version 2).
@pytest.fixture(params=[None, b"482913"], ids=["no-code", "code"])
def code(request: pytest.FixtureRequest) -> bytes | None:
    value: bytes | None = request.param
    return value


def test_keys_agree_and_payloads_roundtrip(code: bytes | None) -> None:
    ri, rr = run(*pair(code=code))
    assert ri.peer_key == BOB.public_key
    assert rr.peer_key == ALICE.public_key
    assert ri.transcript_hash == rr.transcript_hash
    for n in range(5):
        msg = f"a->b {n}".encode()
        assert rr.session.open(ri.session.seal(msg)) == msg
        back = f"b->a {n}".encode() * 100
        assert ri.session.open(rr.session.seal(back)) == back


def test_each_session_is_fresh(code: bytes | None) -> None:
    a, _ = run(*pair(code=code))
    b, _ = run(*pair(code=code))
    assert a.transcript_hash != b.transcript_hash


def test_pinned_wrong_key_rejected_before_initiator_reveals_itself(code: bytes | None) -> None:
    i = Handshake(ALICE, Role.INITIATOR, expected_peer_key=CAROL.public_key, code=code)
    r = Handshake(BOB, Role.RESPONDER, code=code)
    m2 = r.receive(i.start())
    assert m2 is not None
    with pytest.raises(UnexpectedPeerKey):
        i.receive(m2)
    with pytest.raises(HandshakeError):  # failed state is final
        i.receive(m2)


def test_responder_authorize_callback(code: bytes | None) -> None:
    seen: list[bytes] = []

    def only_carol(key: bytes) -> bool:
        seen.append(key)
        return key == CAROL.public_key

    i = Handshake(ALICE, Role.INITIATOR, code=code)
    r = Handshake(BOB, Role.RESPONDER, authorize=only_carol, code=code)
    with pytest.raises(UnexpectedPeerKey):
        r.receive(play(i, r, 3))
    assert seen == [ALICE.public_key]


def test_context_and_version_mismatch() -> None:
    i = Handshake(ALICE, Role.INITIATOR, context=b"table-1")
    r = Handshake(BOB, Role.RESPONDER, context=b"table-2")
    with pytest.raises(ContextMismatch):
        r.receive(i.start())
    i = Handshake(ALICE, Role.INITIATOR, version=2)
    r = Handshake(BOB, Role.RESPONDER)
    with pytest.raises(VersionMismatch):
        r.receive(i.start())


@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_tampered_handshake_message_is_rejected(step: int, code: bytes | None) -> None:
    """Flip a bit anywhere in any message: the handshake must not complete.  The honest
    messages before it are exchanged once; each flip goes to a copy of both sides as they
    stood then (the same state a fresh exchange would reach, without its key agreements
    again for every byte)."""
    length = ([66, 81, 113, 81] if code is None else [98, 113, 145, 113])[step]
    i, r = pair(code=code)
    honest: bytes | None = i.start()
    for side in [r, i, r][:step]:
        assert honest is not None
        honest = side.receive(honest)
    assert honest is not None and len(honest) == length
    for pos in range(length):
        i2, r2 = _copy(i, r)
        sides = [r2, i2, r2, i2]
        out: bytes | None = honest[:pos] + bytes([honest[pos] ^ 0x01]) + honest[pos + 1 :]
        with pytest.raises(HandshakeError):
            for k in range(step, 4):
                assert out is not None
                out = sides[k].receive(out)
            # Not reached: completing would mean the tampering went unnoticed.
            raise AssertionError(f"tampering step {step} byte {pos} not detected")


def _copy(i: Handshake, r: Handshake) -> tuple[Handshake, Handshake]:
    """Both sides as they stand, deep-copied; the AEAD ciphers inside, which hold only a
    key (the nonces are their ``CipherState``'s), are shared, as they cannot be copied."""
    memo: dict[int, object] = {}
    found: list[object] = [i, r]
    while found:
        value = found.pop()
        if isinstance(value, CipherState):
            memo[id(value._aead)] = value._aead
        elif hasattr(value, "__dict__") and id(value) not in memo:
            memo[id(value)] = value  # only while looking: dropped before the copy
            found += vars(value).values()
    looked = {key for key, value in memo.items() if not isinstance(value, ChaCha20Poly1305)}
    for key in looked:
        del memo[key]
    return copy.deepcopy((i, r), memo)


def test_tampered_ciphertext_is_reported_as_such(code: bytes | None) -> None:
    i, r = pair(code=code)
    m2 = play(i, r, 2)
    with pytest.raises(TamperedHandshake):
        i.receive(m2[:-1] + bytes([m2[-1] ^ 1]))
    i, r = pair(code=code)
    m3 = play(i, r, 3)
    with pytest.raises(TamperedHandshake):
        r.receive(m3[:5] + bytes([m3[5] ^ 1]) + m3[6:])


def test_malformed_messages() -> None:
    i, r = pair()
    with pytest.raises(MalformedHandshake):
        r.receive(b"")
    i, r = pair()
    with pytest.raises(MalformedHandshake):
        r.receive(i.start() + b"x")
    i, r = pair()
    with pytest.raises(MalformedHandshake):
        r.receive(b"\x03" + bytes(112))  # AUTH where HELLO belongs
    i, r = pair()
    i.start()
    with pytest.raises(MalformedHandshake):
        i.receive(b"\x02" + bytes(10))
    # An all-zero (low-order) ephemeral would make the shared secret public.
    i, r = pair()
    hello = i.start()
    with pytest.raises(MalformedHandshake):
        r.receive(hello[:2] + bytes(32) + hello[34:])


@dataclass(frozen=True)
class _Impostor(Identity):
    """Claims one key but signs with another (a forged or stolen-name signature)."""

    signer: Identity = CAROL

    def sign(self, data: bytes) -> bytes:
        return self.signer.sign(data)


def test_signature_by_wrong_key_is_rejected(code: bytes | None) -> None:
    liar = _Impostor(ALICE.private_key, "alice")
    i = Handshake(liar, Role.INITIATOR, code=code)
    r = Handshake(BOB, Role.RESPONDER, code=code)
    with pytest.raises(BadSignature):
        r.receive(play(i, r, 3))

    i = Handshake(ALICE, Role.INITIATOR, code=code)
    r = Handshake(_Impostor(BOB.private_key, "bob"), Role.RESPONDER, code=code)
    with pytest.raises(BadSignature):
        i.receive(play(i, r, 4))


def test_tampered_replayed_reordered_frames_rejected(code: bytes | None) -> None:
    ri, rr = run(*pair(code=code))
    f1 = ri.session.seal(b"one")
    assert rr.session.open(f1) == b"one"
    with pytest.raises(DecryptError):  # replay of an accepted frame
        rr.session.open(f1)

    ri, rr = run(*pair(code=code))
    f1, f2 = ri.session.seal(b"one"), ri.session.seal(b"two")
    with pytest.raises(DecryptError):  # reordered
        rr.session.open(f2)

    ri, rr = run(*pair(code=code))
    f1 = ri.session.seal(b"one")
    with pytest.raises(DecryptError):  # tampered
        rr.session.open(f1[:-1] + bytes([f1[-1] ^ 1]))
    with pytest.raises(DecryptError):  # too short to hold a tag
        rr.session.open(b"x" * (TAG_SIZE - 1))

    ri, rr = run(*pair(code=code))
    with pytest.raises(DecryptError):  # reflected back to its sender
        ri.session.open(ri.session.seal(b"echo"))


def test_frames_from_another_session_rejected(code: bytes | None) -> None:
    a_i, _ = run(*pair(code=code))
    _, b_r = run(*pair(code=code))
    with pytest.raises(DecryptError):
        b_r.session.open(a_i.session.seal(b"cross-session"))


def test_nonce_never_wraps() -> None:
    key = bytes(range(32))
    sender, receiver = CipherState(key, NONCE_LIMIT - 1), CipherState(key, NONCE_LIMIT - 1)
    assert receiver.decrypt(sender.encrypt(b"last")) == b"last"
    with pytest.raises(NonceExhausted):
        sender.encrypt(b"one too many")
    with pytest.raises(NonceExhausted):
        receiver.decrypt(b"x" * 32)


def test_payload_limit() -> None:
    ri, _ = run(*pair())
    with pytest.raises(ValueError):
        ri.session.seal(b"x" * (ri.session.max_payload + 1))
