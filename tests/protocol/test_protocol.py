"""The codec and signed envelopes: strict, canonical, and never crashing on bad bytes."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import MAX_FRAME, ProtocolError, decode, encode
from p2pbelka.protocol.envelope import (
    ZERO_HASH,
    Signer,
    open_envelope,
    opened_anew,
    remembering,
    seal_envelope,
)
from tests.protocol.strategies import MESSAGES

SIGNER = Signer.from_seed(bytes(range(32)))
GAME = bytes(16)


def seal(msg: m.Message, seq: int = 0) -> bytes:
    return seal_envelope(SIGNER, GAME, 1, seq, ZERO_HASH, msg).raw


@settings(max_examples=150, deadline=None)
@given(MESSAGES, st.integers(0, 2**32 - 1))
def test_every_message_round_trips(msg: m.Message, seq: int) -> None:
    envelope = open_envelope(seal(msg, seq))
    assert envelope.msg == msg
    assert envelope.seq == seq
    assert envelope.sender == SIGNER.public_key


def test_table_message_round_trips() -> None:
    seats = tuple(m.SeatInfo(Signer.generate().public_key, f"P{i}") for i in range(4))
    nonces = tuple(bytes([i]) * 16 for i in range(4))
    msg = m.TableMsg("belka", "eyes", {"eggs": "double", "goli": "continues"}, seats, nonces=nonces)
    assert open_envelope(seal(msg)).msg == msg


def test_every_flipped_bit_is_rejected_cleanly() -> None:
    raw = seal(m.PlayMsg(5, bytes(range(32))))
    for i in range(len(raw)):
        for bit in (0x01, 0x80):
            tampered = bytearray(raw)
            tampered[i] ^= bit
            with pytest.raises(ProtocolError):
                open_envelope(bytes(tampered))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_only_ever_raise_protocol_error(data: bytes) -> None:
    with pytest.raises(ProtocolError):
        open_envelope(data)


def test_non_canonical_encoding_is_rejected() -> None:
    # 5 as a uint32 instead of a positive fixint: the same value, other bytes.
    padded = b"\xce\x00\x00\x00\x05"
    assert msgpack.unpackb(padded) == 5
    with pytest.raises(ProtocolError, match="canonical"):
        decode(padded)


def test_oversize_and_trailing_data() -> None:
    with pytest.raises(ProtocolError, match="over the limit"):
        decode(encode(b"x" * MAX_FRAME))
    with pytest.raises(ProtocolError, match="trailing"):
        decode(encode(1) + b"\x00")


def _resign(inner: list[object]) -> bytes:
    inner_raw = encode(inner)
    return encode([inner_raw, SIGNER.sign(inner_raw)])


def test_unknown_fields_and_types_are_rejected_even_when_signed() -> None:
    base = [2, GAME, 1, 0, ZERO_HASH, SIGNER.public_key, []]
    with pytest.raises(ProtocolError, match="unknown field"):
        open_envelope(_resign([*base, "play", {"extra": 1, "key": bytes(32), "pos": 1}]))
    with pytest.raises(ProtocolError, match="unknown message type"):
        open_envelope(_resign([*base, "teleport", {}]))
    with pytest.raises(ProtocolError, match="sorted"):
        open_envelope(_resign([*base, "play", {"pos": 1, "key": bytes(32)}]))
    with pytest.raises(ProtocolError, match="pos"):
        open_envelope(_resign([*base, "play", {"key": bytes(32), "pos": 64}]))
    with pytest.raises(ProtocolError, match="key"):
        open_envelope(_resign([*base, "play", {"key": bytes(31), "pos": 1}]))
    with pytest.raises(ProtocolError, match="true or false"):
        open_envelope(_resign([*base, "trump", {"hand_ok": 1, "jack": None}]))
    with pytest.raises(ProtocolError, match="version"):
        open_envelope(_resign([1, *base[1:], "ready", {}]))
    with pytest.raises(ProtocolError, match="view"):
        open_envelope(_resign([*base[:-1], [[1, bytes(31)]], "ready", {}]))
    with pytest.raises(ProtocolError, match="view"):
        open_envelope(_resign([*base[:-1], [[0, ZERO_HASH]] * 5, "ready", {}]))


def test_signature_by_another_key_is_rejected() -> None:
    inner_raw = encode([2, GAME, 1, 0, ZERO_HASH, SIGNER.public_key, [], "ready", {}])
    other = Signer.from_seed(bytes(32))
    with pytest.raises(ProtocolError, match="bad signature"):
        open_envelope(encode([inner_raw, other.sign(inner_raw)]))


@pytest.mark.counts_work  # it opens envelopes outside any remembering block
def test_the_same_bytes_open_to_the_same_envelope_and_bad_ones_fail_every_time() -> None:
    """Inside ``remembering`` (every seat in one process) ``open_envelope`` gives what
    it opened again; outside it, and within ``opened_anew`` (a benchmark's peers),
    every envelope is checked anew; what fails is never remembered."""
    good = seal_envelope(SIGNER, GAME, 1, 0, ZERO_HASH, m.ReadyMsg())
    assert open_envelope(good.raw) == good and open_envelope(good.raw) is not open_envelope(
        good.raw
    )
    inner_raw = encode([2, GAME, 1, 0, ZERO_HASH, SIGNER.public_key, [], "ready", {}])
    forged = encode([inner_raw, Signer.from_seed(bytes(32)).sign(inner_raw)])
    with remembering():
        assert open_envelope(good.raw) is open_envelope(bytes(good.raw)) == good
        assert open_envelope(bytearray(good.raw)) == good  # not bytes: not remembered
        for _ in range(2):
            with pytest.raises(ProtocolError, match="bad signature"):
                open_envelope(forged)
        with opened_anew():
            first = open_envelope(good.raw)
            assert first == good and open_envelope(good.raw) is not first


@settings(deadline=None)  # the first example's OpenSSL call was timed beside other work
@given(st.binary(max_size=2000))
def test_signatures_are_the_bytes_openssl_makes(data: bytes) -> None:
    """Envelopes are signed through libsodium: Ed25519 is deterministic, so the bytes
    are those of RFC 8032 whichever library makes them (the vectors depend on it)."""
    assert SIGNER.sign(data) == SIGNER._key.sign(data)


def test_flow_and_the_deal_end_commitment_have_one_encoding_each() -> None:
    seats = tuple(m.SeatInfo(Signer.generate().public_key, f"P{i}") for i in range(4))
    nonces = tuple(bytes([i]) * 16 for i in range(4))
    table = m.TableMsg("belka", "classic", {}, seats, 2, nonces=nonces)
    assert table.flow == m.FLOW == 3 and table.to_wire()["flow"] == 3
    assert table.to_wire()["nonces"] == list(nonces)
    assert m.TableMsg("belka", "classic", {}, seats, 2, flow=2).to_wire()["flow"] == 2
    assert "flow" not in m.TableMsg("belka", "classic", {}, seats, 2, flow=1).to_wire()
    with pytest.raises(ProtocolError, match="flow 1 is written by leaving the key out"):
        m.parse_body("table", {**table.to_wire(), "flow": 1})
    assert m.parse_body("table", table.to_wire()) == table
    flow_2 = m.TableMsg("belka", "classic", {}, seats, 2, flow=2)
    assert "nonces" not in flow_2.to_wire()
    assert m.parse_body("table", flow_2.to_wire()) == flow_2


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"nonces": None}, "flow 3 requires one nonce per seat"),
        ({"nonces": [bytes(16)] * 3}, "expected a list of 4..4 items"),
        ({"nonces": [bytes(16)] * 3 + [bytes(15)]}, r"nonces\[3\]"),
        ({"flow": 2}, "nonces come with flow 3 and later"),
    ],
)
def test_nonces_come_with_flow_3_one_per_seat(change: dict[str, object], why: str) -> None:
    """A table of flow 3 names every seat's 16-byte nonce, in seat order; an older one
    none (so its game id cannot pass for one derived from them)."""
    seats = tuple(m.SeatInfo(Signer.generate().public_key, f"P{i}") for i in range(4))
    wire = m.TableMsg("belka", "classic", {}, seats, nonces=(bytes(16),) * 4).to_wire()
    wire.update(change)
    wire = {k: v for k, v in sorted(wire.items()) if v is not None}
    with pytest.raises(ProtocolError, match=why):
        m.parse_body("table", wire)
    assert m.parse_body("deal_end", {}) == m.DealEndMsg()
    assert m.parse_body("deal_end", {"c": bytes(32)}) == m.DealEndMsg(bytes(32))
    with pytest.raises(ProtocolError, match=r"body of deal_end\.c"):
        m.parse_body("deal_end", {"c": bytes(31)})
    assert m.parse_body("close", {}) == m.CloseMsg()
    with pytest.raises(ProtocolError, match="unknown field"):
        m.parse_body("close", {"c": bytes(32)})


def test_belot_messages_are_checked_field_by_field() -> None:
    key = bytes(range(32))
    ok = m.DeclareMsg((m.Opening(3, key), m.Opening(4, key), m.Opening(5, key)))
    assert open_envelope(seal(ok)).msg == ok
    assert open_envelope(seal(m.TurnedMsg(m.Opening(18, key), True))).msg.hand_ok is True
    for bad in (
        m.BidMsg("no trumps"),  # not a call
        m.DeclareMsg((m.Opening(3, key),)),  # one card is no combination on the wire
        m.DeclareMsg((m.Opening(3, key), m.Opening(3, key))),  # a position twice
        m.TurnedMsg(m.Opening(64, key), True),  # no such position
    ):
        with pytest.raises(ProtocolError):
            open_envelope(seal(bad))
