"""The continuation ``table`` (its ``after`` map) and the seat-change control messages:
canonical round trips, and malformed input refused naming the field."""

from __future__ import annotations

import pytest

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError, decode, encode
from p2pbelka.protocol.envelope import Signer, seal_envelope
from p2pbelka.protocol.seatchange import (
    Agree,
    ChainEnd,
    ChainRecord,
    ChainRequest,
    ClosedOffer,
    Decline,
    Offer,
    Reclaim,
    agreement_holds,
    closed_statement,
    decode_seat_change,
    encode_seat_change,
    envelope_game,
    sign_agreement,
    statement,
    with_agreements,
)

KEYS = [Signer.from_seed(bytes([n]) * 32) for n in range(4)]
SEGMENT = bytes(range(16))
NONCES = tuple(bytes([n]) * 16 for n in range(4))


def _table(**after: object) -> m.TableMsg:
    fields: dict[str, object] = {
        "segment": b"\x01" * 16,
        "heads": tuple((n, bytes([n]) * 32) for n in range(4)),
        "seat": 2,
        "score": (3, 5),
        "dealer": 1,
        "deal": 7,
    }
    fields.update(after)
    seats = tuple(m.SeatInfo(k.public_key, f"p{n}") for n, k in enumerate(KEYS))
    after = m.After(**fields)  # type: ignore[arg-type]
    return m.TableMsg("belka", "classic", {}, seats, 2, after, nonces=NONCES)


def test_a_continuation_table_round_trips_canonically() -> None:
    table = with_agreements(_table(), {0: b"a" * 64, 3: b"b" * 64})
    wire = table.to_wire()
    assert list(wire) == sorted(wire) and list(wire["after"]) == sorted(wire["after"])
    assert m.parse_body("table", decode(encode(wire))) == table
    plain = m.TableMsg("belka", "classic", {}, table.seats, 2, nonces=NONCES)
    assert "after" not in plain.to_wire()


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"heads": [[0, b"x" * 32]] * 3}, "after.heads"),
        ({"seat": 4}, "after.seat"),
        ({"agreed": [[3, b"s" * 64], [1, b"s" * 64]]}, "after.agreed"),
        ({"agreed": [[1, b"s" * 63]]}, "after.agreed[0][1]"),
        ({"segment": b"x" * 15}, "after.segment"),
        ({"score": []}, "after.score"),
        ({"extra": 1}, "after"),
    ],
)
def test_a_malformed_after_is_refused_naming_the_field(
    change: dict[str, object], where: str
) -> None:
    wire = _table().to_wire()
    wire["after"] = dict(sorted({**wire["after"], **change}.items()))
    with pytest.raises(ProtocolError) as caught:
        m.parse_body("table", wire)
    assert where in str(caught.value)


def test_agreements_bind_the_whole_change_and_the_segment() -> None:
    table = _table()
    sig = sign_agreement(KEYS[1], SEGMENT, table)
    assert agreement_holds(KEYS[1].public_key, sig, SEGMENT, table)
    # the signatures already gathered are not part of what is signed
    assert agreement_holds(KEYS[1].public_key, sig, SEGMENT, with_agreements(table, {0: sig}))
    assert not agreement_holds(KEYS[1].public_key, sig, bytes(16), table)
    assert not agreement_holds(KEYS[1].public_key, sig, SEGMENT, _table(score=(3, 6)))
    assert not agreement_holds(KEYS[0].public_key, sig, SEGMENT, table)
    # as SPEC.md section 9.2 spells it: a three-element array, the label, the segment id
    head = b"\x93\xb7p2pbelka/seat-change/v1\xc4\x10" + SEGMENT
    assert statement(SEGMENT, table) == head + encode(table.to_wire(agreed=False))


@pytest.mark.parametrize(
    "msg",
    [
        Offer(SEGMENT, with_agreements(_table(), {0: b"s" * 64})),
        Agree(SEGMENT, b"s" * 64),
        Decline(SEGMENT, "the player said no", True),
        ClosedOffer(SEGMENT, "seat 1 said no: seat 3 is back", b"s" * 64),
        ChainRequest(12),
        ChainRecord(3, b"\x92" + b"e" * 100),
        ChainEnd(0),
        Reclaim(SEGMENT, b"n" * 16),
    ],
)
def test_control_messages_round_trip(msg: object) -> None:
    payload = encode_seat_change(msg)  # type: ignore[arg-type]
    assert decode_seat_change(payload) == msg


def test_other_control_messages_are_left_to_the_lobby_codec() -> None:
    with pytest.raises(ProtocolError, match="unknown message type"):
        decode_seat_change(encode({"t": "resend", "start": [0]}))
    with pytest.raises(ProtocolError, match="expected the keys"):
        decode_seat_change(encode({"segment": SEGMENT, "t": "seat_agree"}))
    with pytest.raises(ProtocolError, match="no after"):
        plain = m.TableMsg("belka", "classic", {}, _table().seats, 2, nonces=NONCES)
        decode_seat_change(
            encode({"segment": SEGMENT, "t": "seat_offer", "table": encode(plain.to_wire())})
        )


def test_the_segment_of_an_envelope_is_read_without_the_rest() -> None:
    envelope = seal_envelope(KEYS[0], SEGMENT, 0, 0, bytes(32), m.ReadyMsg())
    assert envelope_game(envelope.raw) == SEGMENT
    assert envelope_game(b"\x92junk") is None


def test_the_segment_is_read_in_place_and_by_decoding_alike() -> None:
    """An inner part long enough for a 2-byte length (a pass of 32 points) is read in
    place; bytes laid out otherwise than ``seal_envelope`` writes them are decoded,
    as before (not canonical: no segment, the table refuses them)."""
    points = tuple(bytes([2]) + bytes([n]) * 32 for n in range(32))
    big = seal_envelope(KEYS[1], SEGMENT, 3, 5, bytes(32), m.ShuffleMsg(points, bytes(32)))
    assert big.raw[:2] == b"\x92\xc5"
    assert envelope_game(big.raw) == SEGMENT
    inner = decode(big.raw)[0]
    # the same fields in a longer length form than canonical: decoded, and refused
    assert envelope_game(b"\x92\xc6" + len(inner).to_bytes(4, "big") + inner) is None
    for cut in (1, 2, 3, 5, 10, 19):
        assert envelope_game(big.raw[:cut]) is None


def test_a_close_is_signed_apart_from_an_agreement() -> None:
    """``seat_closed`` signs its own label, the offer's id and why: no agreement can be
    passed off as a close, nor a close as an agreement, nor one close as another's."""
    why = "seat 1 said no"
    closed = closed_statement(SEGMENT, why)
    assert closed.startswith(b"\x93\xb7p2pbelka/seat-closed/v1\xc4\x10" + SEGMENT)
    assert closed != statement(SEGMENT, _table())
    assert closed != closed_statement(SEGMENT, "seat 1 said no: seat 3 is back")
    assert closed != closed_statement(bytes(16), why)
    for where, body in [
        ("seat_closed.sig", {"segment": SEGMENT, "sig": b"s" * 63, "t": "seat_closed", "why": "x"}),
        ("seat_closed.why", {"segment": SEGMENT, "sig": b"s" * 64, "t": "seat_closed", "why": 1}),
    ]:
        with pytest.raises(ProtocolError) as caught:
            decode_seat_change(encode(body))
        assert caught.value.where == where
