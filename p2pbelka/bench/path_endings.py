"""Edits for the path vectors of refused records, proofs and endings in a file
(protocol/SPEC.md sections 2, 2.2, 4.7 and 5): each turns an honest game's transcript
into what a recorder's file holds when a seat's envelope is refused when due, when a
seat signs twice for one place, or when an ending comes ahead of its chain.

Every changed or added envelope is signed with its seat's own key (``resign``,
``seal_envelope``), so the bytes are reproducible.  An ending is signed as a
recorder signs one: its view counts what the file accepted of every chain, its own
entry its chain as signed.  The game's own lists (``bench/games/<game>/paths.py``)
name the vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, View, open_envelope, seal_envelope

Edit = Callable[[list[Envelope], LocalGame], list[bytes]]

FAR = 100
"""A sequence number 64 or more past every chain of a first deal's lot."""


def _keys(game: LocalGame) -> list[bytes]:
    return [s.public_key for s in game.signers]


def seat_of(game: LocalGame, envelope: Envelope) -> int:
    return _keys(game).index(envelope.sender)


def find(envelopes: Sequence[Envelope], game: LocalGame, kind: str, seat: int) -> int:
    """The index of ``seat``'s first ``kind`` (from the end: its last, for a close or
    a deal_end of the last deal, the kinds a game ends with)."""
    key = _keys(game)[seat]
    last = kind in ("close", "deal_end")
    indices = range(len(envelopes) - 1, -1, -1) if last else range(len(envelopes))
    return next(i for i in indices if envelopes[i].type == kind and envelopes[i].sender == key)


def heads(accepted: Sequence[Envelope], game: LocalGame) -> list[tuple[int, bytes]]:
    """What a table that accepted ``accepted`` holds of every chain: (count, last hash)."""
    out = []
    for key in _keys(game):
        chain = [e for e in accepted if e.sender == key]
        out.append((len(chain), chain[-1].digest if chain else ZERO_HASH))
    return out


def sign(
    game: LocalGame,
    seat: int,
    accepted: Sequence[Envelope],
    msg: m.Message,
    *,
    ahead: Envelope | None = None,
    seq: int | None = None,
    view: View | None = None,
) -> Envelope:
    """``seat``'s next envelope ``msg`` after ``accepted`` (after its own ``ahead``, an
    envelope it signed that the file does not hold; or at ``seq``), with the view of a
    table that accepted ``accepted`` (or ``view``)."""
    counts = heads(accepted, game)
    count, prev = counts[seat]
    if ahead is not None:
        count, prev = ahead.seq + 1, ahead.digest
    if seq is not None:
        count = seq
    counts[seat] = (count, prev)
    deal = accepted[-1].deal
    signer = game.signers[seat]
    return seal_envelope(signer, accepted[0].game, deal, count, prev, msg, view or tuple(counts))


def other_version(envelope: Envelope, game: LocalGame, envelopes: Sequence[Envelope]) -> bytes:
    """``envelope`` signed again with a view that counts one envelope less of the first
    other chain it counts: what a seat that signs twice for one place shows some peers."""
    view = list(envelope.view)
    seat = seat_of(game, envelope)
    other = next(s for s, (count, _) in enumerate(view) if s != seat and count > 0)
    count = view[other][0] - 1
    chain = [e for e in envelopes if e.sender == _keys(game)[other]]
    view[other] = (count, chain[count - 1].digest if count else ZERO_HASH)
    return resign(game.signers[seat], envelope, view=tuple(view))


def dispute(names: tuple[int, ...], why: str) -> m.DisputeMsg:
    return m.DisputeMsg(names, why)


def _raws(envelopes: Sequence[Envelope]) -> list[bytes]:
    return [e.raw for e in envelopes]


# -- refused records (SPEC section 5, 5) -------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """Seat 2's lot_reveal refused when due: the records before it, the refused
    envelope, the one seat 2 signed for the others there, and the records after it."""

    before: list[Envelope]
    refused: Envelope
    true: Envelope
    later: list[Envelope]


Then = Callable[[Refused, LocalGame], list[bytes]]


def _refused_lot_reveal(
    change: Callable[[Envelope], dict[str, object]],
    then: Then,
) -> Edit:
    """Seat 2's ``lot_reveal`` signed with ``change`` (refused when due), then what
    ``then`` adds."""

    def edit(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
        index = find(envelopes, game, "lot_reveal", 2)
        true = envelopes[index]
        refused = open_envelope(resign(game.signers[2], true, **change(true)))
        before = envelopes[:index]
        later = envelopes[index + 1 :]
        return [*_raws(before), refused.raw, *then(Refused(before, refused, true, later), game)]

    return edit


def _nothing(r: Refused, game: LocalGame) -> list[bytes]:
    return []


def _recorder_disputes(r: Refused, game: LocalGame) -> list[bytes]:
    """The recorder (seat 0) gives up on seat 2, whose chain goes no further."""
    why = "went silent while lot_reveal was due"
    return [sign(game, 0, r.before, dispute((2,), why)).raw]


def _seat_1_disputes(r: Refused, game: LocalGame) -> list[bytes]:
    """Another seat's ending, taken after the refused record."""
    return [sign(game, 1, r.before, dispute((2,), "went silent")).raw]


def _true_one_proves(r: Refused, game: LocalGame) -> list[bytes]:
    """The envelope seat 2 signed for that place for the others: a proof record, the
    refused one held first; then the recorder's evidence of the pair."""
    evidence = sign(game, 0, r.before, m.EvidenceMsg(r.refused.raw, r.true.raw))
    return [r.true.raw, evidence.raw]


def _seat_3_due(r: Refused, game: LocalGame) -> list[bytes]:
    """Seat 3's lot_reveal, never due while seat 2's place is refused (INVALID)."""
    return [next(e.raw for e in r.later if e.type == "lot_reveal")]


def _ending_past_refused(r: Refused, game: LocalGame) -> list[bytes]:
    """Seat 2's dispute after its refused place: no recorder holds a place past it."""
    return [sign(game, 2, r.before, dispute((0,), "went silent"), ahead=r.refused).raw]


def _view_past_refused(r: Refused, game: LocalGame) -> list[bytes]:
    """Seat 1's dispute whose view counts seat 2's refused envelope (and so past where
    seat 2's chain stops)."""
    view = heads(r.before, game)
    view[2] = (r.refused.seq + 1, r.refused.digest)
    return [sign(game, 1, r.before, dispute((2,), "went silent"), view=tuple(view)).raw]


def _broken_chain(e: Envelope) -> dict[str, object]:
    prev = bytes(32 * [9])
    view = list(e.view)
    view[2] = (e.seq, prev)
    return {"prev": prev, "view": tuple(view)}


refused_chain = _refused_lot_reveal(_broken_chain, _recorder_disputes)
refused_deal = _refused_lot_reveal(lambda e: {"deal": 1}, _nothing)
refused_turn = _refused_lot_reveal(lambda e: {"msg": m.LotCommitMsg(bytes(32))}, _true_one_proves)
refused_view_length = _refused_lot_reveal(lambda e: {"view": e.view[:-1]}, _seat_1_disputes)
refused_own_entry = _refused_lot_reveal(
    lambda e: {"view": (*e.view[:2], (e.seq, ZERO_HASH), *e.view[3:])}, _nothing
)
after_refused = _refused_lot_reveal(lambda e: {"deal": 1}, _seat_3_due)
ending_past_refused = _refused_lot_reveal(lambda e: {"deal": 1}, _ending_past_refused)
view_past_refused = _refused_lot_reveal(lambda e: {"deal": 1}, _view_past_refused)


# -- the closing exchange (SPEC section 4.7) ---------------------------------------------


def _closes(envelopes: list[Envelope], game: LocalGame, taken: int) -> tuple[list[Envelope], int]:
    """The game's records up to its first ``taken`` closes, and where its closes start."""
    start = find(envelopes, game, "close", 0)
    return envelopes[: start + taken], start


def close_cut(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """A won game's file that ends after two of its four closes."""
    return _raws(_closes(envelopes, game, 2)[0])


def refused_close(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 2's close signed with a view that is not the one the exchange began with:
    refused when due, kept; the file ends there."""
    kept, start = _closes(envelopes, game, 2)
    close = envelopes[start + 2]
    return [*_raws(kept), other_version(close, game, envelopes)]


def close_dispute(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seats 0 and 1 closed; the recorder, seat 3, gives up on seat 2: its dispute
    follows its own close, which it held but never took (its chain is one ahead)."""
    kept, start = _closes(envelopes, game, 2)
    own = envelopes[start + 3]
    why = "did not close the game"
    return [*_raws(kept), sign(game, 3, kept, dispute((2,), why), ahead=own).raw]


def deal_end_dispute(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The last deal's deal_ends of seats 0 and 1; the recorder, seat 3, gives up on
    seat 2 (its own deal_end held, not taken)."""
    start = find(envelopes, game, "deal_end", 0)
    kept, own = envelopes[: start + 2], envelopes[start + 3]
    why = "its deal_end did not come"
    return [*_raws(kept), sign(game, 3, kept, dispute((2,), why), ahead=own).raw]


def close_dispute_proven(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """``close_dispute``, then the other version of seat 2's last deal_end reaches the
    recorder after the end: a proof, and the recorder's evidence."""
    records = [open_envelope(r) for r in close_dispute(envelopes, game)]
    held = envelopes[find(envelopes, game, "deal_end", 2)]
    second = open_envelope(other_version(held, game, envelopes))
    msg = m.EvidenceMsg(held.raw, second.raw)
    evidence = sign(game, 3, records[:-1], msg, ahead=records[-1])
    return [*_raws(records), second.raw, evidence.raw]


def evidence_in_close(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seats 0 and 1 closed; seat 1's evidence of two envelopes of seat 2 for two places
    (it proves nothing) is taken in the close phase like anywhere."""
    kept, _ = _closes(envelopes, game, 2)
    key = game.signers[2].public_key
    first, second = [e for e in envelopes if e.sender == key and e.type.startswith("lot_")][:2]
    return [*_raws(kept), sign(game, 1, kept, m.EvidenceMsg(first.raw, second.raw)).raw]


def close_dispute_names_none(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """A two-seat table: seat 0's close does not come; the recorder, seat 1, signs a
    dispute whose seats are none of the table's (2 and 3), after its own close."""
    start = find(envelopes, game, "close", 0)
    kept, own = envelopes[:start], envelopes[start + 1]
    msg = dispute((3, 2), "did not close the game")
    return [*_raws(kept), sign(game, 1, kept, msg, ahead=own).raw]


# -- proofs (SPEC section 2.2, "Proving it" and "After the end") -----------------------


def proof_pair(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 2 signs two trumps for one place; the recorder comes to hold both before it
    takes either: the first of two proof records, the second, then its evidence."""
    index = find(envelopes, game, "trump", 2)
    first = envelopes[index]
    assert isinstance(first.msg, m.TrumpMsg)
    flipped = m.TrumpMsg(first.msg.jack, not first.msg.hand_ok)
    second = open_envelope(resign(game.signers[2], first, msg=flipped))
    before = envelopes[:index]
    evidence = sign(game, 0, before, m.EvidenceMsg(first.raw, second.raw))
    return [*_raws(before), first.raw, second.raw, evidence.raw]


def _proof_after_end(
    envelopes: list[Envelope], game: LocalGame, last: Envelope, seat: int, kind: str
) -> list[Envelope]:
    """``seat``'s other version of its last ``kind``, reaching the recorder (seat 0)
    after the end, and the recorder's evidence of the pair after its own ``last``
    (its view: the game's records, all the schedule took)."""
    held = envelopes[find(envelopes, game, kind, seat)]
    second = open_envelope(other_version(held, game, envelopes))
    evidence = sign(game, 0, envelopes, m.EvidenceMsg(held.raw, second.raw), ahead=last)
    return [second, evidence]


def _own_last(envelopes: list[Envelope], game: LocalGame) -> Envelope:
    return [e for e in envelopes if e.sender == game.signers[0].public_key][-1]


def proof_after_ok(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The whole game (OK), then seat 2's other version of its close: proven."""
    last = _own_last(envelopes, game)
    return _raws([*envelopes, *_proof_after_end(envelopes, game, last, 2, "close")])


def second_cheater(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """``proof_after_ok``, then seat 1's other version of its close: a second seat proven."""
    first = _proof_after_end(envelopes, game, _own_last(envelopes, game), 2, "close")
    second = _proof_after_end(envelopes, game, first[-1], 1, "close")
    return _raws([*envelopes, *first, *second])


def proven_twice(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """``proof_after_ok``, then seat 2's other version of its last deal_end: a seat is
    proven once, so no recorder records it (INVALID)."""
    first = _proof_after_end(envelopes, game, _own_last(envelopes, game), 2, "close")
    held = envelopes[find(envelopes, game, "deal_end", 2)]
    return [*_raws([*envelopes, *first]), other_version(held, game, envelopes)]


def evidence_of_another_pair(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After the proof record of seat 2's close, the recorder's evidence encloses
    another pair of seat 2's (its last deal_end twice): not the evidence of the proof
    its records made (INVALID)."""
    last = _own_last(envelopes, game)
    second, _ = _proof_after_end(envelopes, game, last, 2, "close")
    held = envelopes[find(envelopes, game, "deal_end", 2)]
    msg = m.EvidenceMsg(held.raw, other_version(held, game, envelopes))
    return [*_raws([*envelopes, second]), sign(game, 0, envelopes, msg, ahead=last).raw]


# -- endings ahead of their chain, views past the file (SPEC section 5, 2) ---------------


def _lot(envelopes: list[Envelope], game: LocalGame) -> list[Envelope]:
    """The records up to the end of the lot (every lot_reveal)."""
    return envelopes[: find(envelopes, game, "lot_reveal", 3) + 1]


def evidence_valid_pair(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After the lot, seat 1's evidence of two envelopes seat 2 signed for its place
    ``FAR`` (too far ahead for any table to offer them to seat 2's chain): taken as an
    ending, it proves seat 2."""
    lot = _lot(envelopes, game)
    pair = [sign(game, 2, lot, dispute((s,), "went silent"), seq=FAR).raw for s in (0, 1)]
    return [*_raws(lot), sign(game, 1, lot, m.EvidenceMsg(*pair)).raw]


def ending_too_far(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After the lot, seat 1's dispute at its place ``FAR`` (64 or more past its next)."""
    lot = _lot(envelopes, game)
    return [*_raws(lot), sign(game, 1, lot, dispute((2,), "went silent"), seq=FAR).raw]


def view_past_file(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Before seat 2's lot_reveal, seat 1's dispute whose view counts seat 2's and seat
    3's lot_reveals, which the file does not hold (its recorder held them): taken."""
    index = find(envelopes, game, "lot_reveal", 2)
    before = envelopes[:index]
    view = heads(envelopes[: index + 2], game)
    view[1] = heads(before, game)[1]
    msg = dispute((0,), "went silent")
    return [*_raws(before), sign(game, 1, before, msg, view=tuple(view)).raw]


def view_too_far(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """``view_past_file`` with a view that counts seat 3's chain ``FAR`` envelopes long:
    more than 64 past the file, which no recorder holds (INVALID)."""
    index = find(envelopes, game, "lot_reveal", 2)
    before = envelopes[:index]
    view = heads(before, game)
    view[3] = (FAR, bytes(32 * [3]))
    msg = dispute((0,), "went silent")
    return [*_raws(before), sign(game, 1, before, msg, view=tuple(view)).raw]


def count_0_head(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 1's sit with a view entry of count 0 whose head is not 32 zero bytes:
    malformed (refused before its chain, INVALID at that record)."""
    sit = envelopes[1]
    view = list(sit.view)
    view[3] = (0, bytes(32 * [7]))
    return [envelopes[0].raw, resign(game.signers[seat_of(game, sit)], sit, view=tuple(view))]
