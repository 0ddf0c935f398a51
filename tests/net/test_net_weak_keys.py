"""Small-order and non-canonical Ed25519 keys are refused wherever a key enters.

Under the neutral element as a public key, the signature R = neutral, S = 0
verifies for every message in OpenSSL; a player holding such a key would get a
seat that anyone could speak for.  Each test here would pass that key through
without the shared check in ``p2pbelka.edkeys``.
"""

from __future__ import annotations

from typing import cast

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pbelka.edkeys import is_sound_key, verify
from p2pbelka.net.beacon import TableAd, decode_beacon, encode_beacon
from p2pbelka.net.directory import TableDirectory
from p2pbelka.net.errors import BeaconError, WeakPeerKey
from p2pbelka.net.handshake import Handshake, Role
from p2pbelka.net.identity import Identity, verify_signature
from p2pbelka.protocol import lobby as lobby_codec
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Signer, open_envelope, seal_envelope

NEUTRAL = (1).to_bytes(32, "little")
"""The neutral element: small order (1)."""
ORDER_TWO = (2**255 - 19 - 1).to_bytes(32, "little")
"""y = -1: the point of order 2."""
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")
"""y = p + 1, another spelling of the neutral element."""
FORGERY = NEUTRAL + bytes(32)
"""R = neutral, S = 0: 'signs' every message under NEUTRAL in lenient verifiers."""
WEAK_KEYS = [NEUTRAL, ORDER_TWO, NON_CANONICAL, bytes(32)]


class WeakIdentity:
    """Someone who claims a small-order key and 'signs' with the universal forgery."""

    name = "mallory"
    public_key = NEUTRAL

    def sign(self, data: bytes) -> bytes:
        return FORGERY


def weak() -> Identity:
    return cast(Identity, WeakIdentity())


def test_the_forgery_is_real_in_the_library_we_use() -> None:
    """Why the check exists: OpenSSL alone accepts it."""
    Ed25519PublicKey.from_public_bytes(NEUTRAL).verify(FORGERY, b"any message at all")


@pytest.mark.parametrize("key", WEAK_KEYS)
def test_weak_keys_are_not_sound_and_never_verify(key: bytes) -> None:
    assert not is_sound_key(key)
    assert not verify(key, FORGERY, b"x") and not verify_signature(key, FORGERY, b"x")


def test_every_generated_key_is_sound() -> None:
    assert all(is_sound_key(Identity.generate().public_key) for _ in range(100))
    assert not is_sound_key(bytearray(Identity.generate().public_key))
    assert not is_sound_key(b"short")


def test_a_responder_refuses_an_initiator_with_a_weak_key() -> None:
    initiator = Handshake(weak(), Role.INITIATOR)
    responder = Handshake(Identity.generate("host"), Role.RESPONDER)
    m2 = responder.receive(initiator.start())
    assert m2 is not None
    m3 = initiator.receive(m2)
    assert m3 is not None
    with pytest.raises(WeakPeerKey):
        responder.receive(m3)


def test_an_initiator_refuses_a_responder_with_a_weak_key() -> None:
    initiator = Handshake(Identity.generate("joiner"), Role.INITIATOR)
    responder = Handshake(weak(), Role.RESPONDER)
    m2 = responder.receive(initiator.start())
    assert m2 is not None
    with pytest.raises(WeakPeerKey):
        initiator.receive(m2)


def test_a_weak_key_cannot_be_pinned() -> None:
    with pytest.raises(ValueError, match="sound"):
        Handshake(Identity.generate(), Role.INITIATOR, expected_peer_key=NEUTRAL)


def test_a_beacon_under_a_weak_key_is_refused() -> None:
    ad = TableAd(bytes(16), "Kitchen", "belka", 4, 3, 4000, "10.0.0.1")
    datagram = encode_beacon(weak(), ad, 1, 0)
    with pytest.raises(BeaconError, match="usable"):
        decode_beacon(datagram)
    directory = TableDirectory()
    assert directory.handle_datagram(datagram, "10.0.0.1", now=0.0) is None
    assert directory.stats["malformed"] == 1


def test_an_envelope_from_a_weak_key_is_refused() -> None:
    signer = cast(Signer, WeakIdentity())
    envelope = seal_envelope(signer, bytes(16), 0, 0, bytes(32), m.ReadyMsg())
    with pytest.raises(ProtocolError) as refused:
        open_envelope(envelope.raw)
    assert refused.value.where == "envelope.sender"


def test_a_table_envelope_seating_a_weak_key_is_refused() -> None:
    good = Identity.generate().public_key
    body = {
        "game": "belka",
        "options": {},
        "preset": "classic",
        "seats": [[good, "a"], [NEUTRAL, "b"], [good[::-1], "c"], [bytes(32), "d"]],
    }
    with pytest.raises(ProtocolError) as refused:
        m.parse_body("table", body)
    assert "seats[1]" in refused.value.where


def test_a_lobby_listing_a_weak_key_is_refused() -> None:
    seats = (lobby_codec.SeatView(NEUTRAL, "mallory", True), None, None, None)
    state = lobby_codec.LobbyState(bytes(16), "Kitchen", "classic", {}, seats)
    with pytest.raises(lobby_codec.LobbyError) as refused:
        lobby_codec.decode_control(lobby_codec.encode_control(state))
    assert "seats[0].key" in refused.value.where


def test_a_signature_with_a_neutral_r_is_refused_under_a_sound_key() -> None:
    """The one signature OpenSSL accepts under a sound key that libsodium refuses:
    R = neutral, S = h * a.  Only the key's owner can make it, and no honest signer
    does; every peer refuses it the same way (``p2pbelka.edkeys``)."""
    import hashlib

    from nacl import bindings as nacl

    order = 2**252 + 27742317777372353535851937790883648493
    seed = bytes(range(32))
    key, _ = nacl.crypto_sign_seed_keypair(seed)
    digest = bytearray(hashlib.sha512(seed).digest()[:32])
    digest[0] &= 248
    digest[31] &= 127
    digest[31] |= 64
    secret = int.from_bytes(digest, "little")
    message = b"a message"
    h = int.from_bytes(hashlib.sha512(NEUTRAL + key + message).digest(), "little") % order
    signature = NEUTRAL + (h * secret % order).to_bytes(32, "little")
    Ed25519PublicKey.from_public_bytes(key).verify(signature, message)  # OpenSSL: valid
    assert is_sound_key(key)
    assert not verify(key, signature, message)
