"""The seat change on the wire: a seat changing hands mid-game, what each agreeing
seat signs, and the control messages that gather the signatures.  Sans-IO.

When a seat has been gone past the reconnect window, the remaining seats may
agree to seat a bot in its place (and later to hand the seat back to its player):
the game goes on in a *continuation segment*, opened by a ``table`` envelope with
an ``after`` map (``messages.After``; protocol/SPEC.md section 9).  Every seat
but the one that changes hands signs the **statement** of that ``table``, so no
single peer can give a seat away.  The signatures are gathered over the mesh
with the control messages below (unsigned, like the rest of section 7: the
channel proves who sent them; but ``seat_closed``, the proposer's word that its
offer is over, which a seat that signed keeps); only the finished ``table``
envelope, with every signature in it, goes into transcripts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from p2pbelka.edkeys import verify
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError, decode, encode
from p2pbelka.protocol.envelope import Signer

STATEMENT_LABEL = "p2pbelka/seat-change/v1"
CLOSED_LABEL = "p2pbelka/seat-closed/v1"
MAX_OFFER = 8 * 1024
MAX_WHY = 200


def statement(segment: bytes, table: m.TableMsg) -> bytes:
    """The bytes each agreeing seat signs: the label, the new segment's id and the
    continuation's ``table`` body without the signatures, as one canonical msgpack
    array.  The segment id binds the agreement to one continuation (from flow 3 on it
    is derived from that same body, ``protocol/ids.py``)."""
    return encode([STATEMENT_LABEL, segment, table.to_wire(agreed=False)])


def sign_agreement(signer: Signer, segment: bytes, table: m.TableMsg) -> bytes:
    return signer.sign(statement(segment, table))


def agreement_holds(key: bytes, signature: bytes, segment: bytes, table: m.TableMsg) -> bool:
    return verify(key, signature, statement(segment, table))


def closed_statement(segment: bytes, why: str) -> bytes:
    """The bytes a proposer signs closing its offer of ``segment``: the label, the id
    and why, as one canonical msgpack array (not a statement of a change: no agreement
    can be replayed as one, nor one as an agreement)."""
    return encode([CLOSED_LABEL, segment, why])


def close_holds(key: bytes, closed: ClosedOffer) -> bool:
    """Whether ``closed`` is ``key``'s signature on its close (the proposer's word)."""
    return verify(key, closed.sig, closed_statement(closed.segment, closed.why))


def with_agreements(table: m.TableMsg, agreed: dict[int, bytes]) -> m.TableMsg:
    """``table`` with these signatures in its ``after``, in seat order."""
    assert table.after is not None
    return replace(table, after=replace(table.after, agreed=tuple(sorted(agreed.items()))))


# --- the control messages (protocol/SPEC.md section 9.3) ------------------------------


@dataclass(frozen=True, slots=True)
class Offer:
    """Proposer -> every other remaining seat: the continuation ``table`` body it
    proposes (with its own signature in ``after.agreed``) for segment ``segment``."""

    segment: bytes
    table: m.TableMsg


@dataclass(frozen=True, slots=True)
class Agree:
    """A remaining seat's signature on the offer's statement."""

    segment: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Decline:
    """A remaining seat does not sign (its player said no, or its table moved on:
    ``retry`` says whether the proposer may offer again in a moment)."""

    segment: bytes
    why: str
    retry: bool


@dataclass(frozen=True, slots=True)
class ClosedOffer:
    """The proposer -> every seat that signed its offer ``segment``: it is closed, it
    will never be sealed (``why``: a seat's no, or no answer in time).  Signed by the
    proposer (``closed_statement``), so a seat that signed may go on in the segment in
    play on it however it came, and keeps the proposer's word for it."""

    segment: bytes
    why: str
    sig: bytes


@dataclass(frozen=True, slots=True)
class ChainRequest:
    """A player resuming its seat -> every peer: if my seat changed hands, send me the
    game's records from index ``start`` (every segment, in transcript order)."""

    start: int


@dataclass(frozen=True, slots=True)
class ChainRecord:
    """One record of the answer: the transcript's envelope number ``index``."""

    index: int
    record: bytes


@dataclass(frozen=True, slots=True)
class ChainEnd:
    """The end of the answer: ``total`` records in the game so far; 0 if the asker
    still holds its seat (an ordinary resume: the resend requests do the rest)."""

    total: int


@dataclass(frozen=True, slots=True)
class Reclaim:
    """A player whose seat a bot plays -> every peer: I am back; hand my seat back
    from the next deal of segment ``segment``, with ``nonce`` (fresh, 16 bytes) as my
    seat's nonce in the continuation, so its id is derived from randomness of mine."""

    segment: bytes
    nonce: bytes


SeatChangeMsg = (
    Offer | Agree | Decline | ClosedOffer | ChainRequest | ChainRecord | ChainEnd | Reclaim
)
MAX_RECORD = 64 * 1024


def encode_seat_change(msg: SeatChangeMsg) -> bytes:
    body: dict[str, object]
    if isinstance(msg, Offer):
        body = {"t": "seat_offer", "segment": msg.segment, "table": encode(msg.table.to_wire())}
    elif isinstance(msg, Agree):
        body = {"t": "seat_agree", "segment": msg.segment, "sig": msg.sig}
    elif isinstance(msg, Decline):
        body = {"t": "seat_decline", "segment": msg.segment, "why": msg.why, "retry": msg.retry}
    elif isinstance(msg, ClosedOffer):
        body = {"t": "seat_closed", "segment": msg.segment, "why": msg.why, "sig": msg.sig}
    elif isinstance(msg, ChainRequest):
        body = {"t": "seat_chain", "start": msg.start}
    elif isinstance(msg, ChainRecord):
        body = {"t": "seat_record", "index": msg.index, "record": msg.record}
    elif isinstance(msg, ChainEnd):
        body = {"t": "seat_chain_end", "total": msg.total}
    else:
        body = {"t": "seat_reclaim", "segment": msg.segment, "nonce": msg.nonce}
    return encode(dict(sorted(body.items())))


def decode_seat_change(payload: bytes) -> SeatChangeMsg:
    """One seat-change message; ``ProtocolError`` naming the field otherwise (its reason
    starts "unknown message type" for a map that is none of these)."""
    if len(payload) > MAX_RECORD + 64:
        raise ProtocolError(f"{len(payload)} bytes is over the limit", "seat_change")
    body = decode(payload, "seat_change")
    kind = body.get("t") if type(body) is dict else None
    expected = _KEYS.get(kind if type(kind) is str else "")
    if expected is None:
        raise ProtocolError(f"unknown message type {kind!r:.20}", "seat_change.t")
    if list(body) != sorted(body, key=str):
        raise ProtocolError("map keys are not in sorted order", str(kind))
    if list(body) != expected:
        raise ProtocolError(f"expected the keys {expected}", str(kind))
    if kind != "seat_record" and len(payload) > MAX_OFFER:
        raise ProtocolError(f"{len(payload)} bytes is over the limit of {MAX_OFFER}", str(kind))
    if kind == "seat_chain":
        return ChainRequest(m.check_uint(body["start"], "seat_chain.start"))
    if kind == "seat_record":
        record = body["record"]
        if type(record) is not bytes or not 0 < len(record) <= MAX_RECORD:
            raise ProtocolError("expected an envelope", "seat_record.record")
        return ChainRecord(m.check_uint(body["index"], "seat_record.index"), record)
    if kind == "seat_chain_end":
        return ChainEnd(m.check_uint(body["total"], "seat_chain_end.total"))
    segment = m.check_bin(body["segment"], f"{kind}.segment", 16)
    if kind == "seat_reclaim":
        return Reclaim(segment, m.check_bin(body["nonce"], "seat_reclaim.nonce", m.NONCE_SIZE))
    if kind == "seat_offer":
        raw = body["table"]
        if type(raw) is not bytes:
            raise ProtocolError("expected the table body", "seat_offer.table")
        table = m.parse_body("table", decode(raw, "seat_offer.table"))
        assert isinstance(table, m.TableMsg)
        if table.after is None:
            raise ProtocolError("not a continuation (no after)", "seat_offer.table")
        return Offer(segment, table)
    if kind == "seat_agree":
        return Agree(segment, m.check_bin(body["sig"], "seat_agree.sig", 64))
    if kind == "seat_closed":
        why = m.check_text(body["why"], "seat_closed.why", MAX_WHY)
        return ClosedOffer(segment, why, m.check_bin(body["sig"], "seat_closed.sig", 64))
    if type(body["retry"]) is not bool:
        raise ProtocolError("expected true or false", "seat_decline.retry")
    return Decline(segment, m.check_text(body["why"], "seat_decline.why", MAX_WHY), body["retry"])


_KEYS: Mapping[str, list[str]] = {
    "seat_offer": ["segment", "t", "table"],
    "seat_agree": ["segment", "sig", "t"],
    "seat_decline": ["retry", "segment", "t", "why"],
    "seat_closed": ["segment", "sig", "t", "why"],
    "seat_chain": ["start", "t"],
    "seat_record": ["index", "record", "t"],
    "seat_chain_end": ["t", "total"],
    "seat_reclaim": ["nonce", "segment", "t"],
}


def envelope_game(raw: bytes) -> bytes | None:
    """The ``game`` field (the segment id) of an envelope, read without checking the
    rest or the signature (the table checks those): where a peer routes it.  Read
    where ``seal_envelope`` puts it when the bytes start as it writes them (every
    envelope does: a full decode here doubled the table's own for each one)."""
    fast = _game_at(raw, 3) if raw[:2] == b"\x92\xc4" else None
    if fast is None and raw[:2] == b"\x92\xc5":
        fast = _game_at(raw, 4)
    if fast is not None:
        return fast
    try:
        outer = decode(raw, "envelope")
        inner = decode(outer[0], "envelope.inner") if type(outer) is list and outer else None
    except ProtocolError:
        return None
    if type(inner) is not list or len(inner) < 2 or type(inner[1]) is not bytes:
        return None
    game: bytes = inner[1]
    return game


def _game_at(raw: bytes, inner: int) -> bytes | None:
    """The game id of an inner list of 9 starting at ``inner`` with a small version:
    ``[version, bin8(16) game, ...]``; None if the bytes are laid out otherwise."""
    if raw[inner : inner + 1] != b"\x99" or raw[inner + 1 : inner + 2] > b"\x7f":
        return None
    if raw[inner + 2 : inner + 4] != b"\xc4\x10" or len(raw) < inner + 20:
        return None
    return raw[inner + 4 : inner + 20]
