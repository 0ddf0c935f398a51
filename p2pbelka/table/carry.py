"""A continuation segment: what it carries over from the segment before it, and the
checks its ``table`` envelope must pass (protocol/SPEC.md section 9).  Sans-IO.

A game whose seat changed hands is a chain of *segments*.  Each is an ordinary
table with its own id (the envelopes' ``game`` field), its own hash chains and
its own deals; a continuation's ``table`` names the segment before it, the
point where it was cut (every chain's count and head) and the seat that
changes hands, and restates the score, the next dealer and the next deal id
that the earlier segment's audited deals give.  The deal in progress at the cut
(if any) is voided: it was never audited, its secrets stay unrevealed, and it
scores nothing, so the fair deal of every counted deal is untouched.

The rules engine goes on whole (score, dealer, history and whatever else a
game's own standing holds): both peers and ``verify`` rebuild it by replaying
the earlier segment, and only its between-deals state crosses the cut.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.ids import DERIVED_FLOW, segment_id_of
from p2pbelka.protocol.seatchange import agreement_holds

View = tuple[tuple[int, bytes], ...]


@dataclass(frozen=True, slots=True)
class Previous:
    """The segment a continuation goes on from, as a seat's table held it at the cut."""

    segment: bytes
    """Its id: the ``game`` field of its envelopes."""
    setup: m.TableMsg
    view: View
    """How many envelopes of every seat it holds, and the hash of the last."""
    state: Any
    """The rules engine after its last audited deal (None: the game had not started)."""
    deal_id: int
    """The table's deal id at the cut: the deal voided, if one was in progress."""
    finished: bool
    earlier: tuple[bytes, ...] = ()
    """The ids of the segments before it, the game's first id first: a continuation's
    id must be none of them (a place is judged by segment id, seat and seq, so a
    reused id would let the old segment's envelopes count again)."""
    dealt: bool = False
    """A card of the deal in progress was dealt at the cut (a ``shares`` of it was
    processed): the voided deal is said unfinished, else it starts over."""
    sat_down: tuple[m.SeatInfo, ...] = ()
    """The seats of the game's first segment: the players who sat down at the start,
    whose result the game is (protocol/results.md 1.1), whoever holds a seat now."""

    @property
    def used(self) -> tuple[bytes, ...]:
        """Every segment id of the game so far, this one's last."""
        return (*self.earlier, self.segment)

    @property
    def voided(self) -> int | None:
        """The id of the deal the cut voids, if one had begun and was not audited."""
        if self.state is None or self.deal_id <= self.state.deal_number:
            return None
        return self.deal_id


def between_deals(game: Any) -> Any:
    """The engine's state with the deal in progress, if any, dropped (both engines are
    frozen dataclasses whose only per-deal field is ``deal``)."""
    return None if game is None else replace(game, deal=None)


def carried(state: Any) -> tuple[tuple[int, ...], int, int]:
    """What a continuation restates: the score, the dealer of the next deal, and the
    next deal's id (one more than the deals played, re-deals included)."""
    return tuple(state.score), state.dealer, state.deal_number + 1


def check_continuation(
    previous: Previous | None, host: int, envelope_game: bytes, table: m.TableMsg
) -> str:
    """Why this ``table`` (signed by seat ``host``) does not continue ``previous``, or ""
    if it does.  Every reason names the seat or the field at fault."""
    why = check_change(previous, host, envelope_game, table)
    if why or previous is None:
        return why
    return agreement_problem(previous.setup, envelope_game, table)


def check_change(
    previous: Previous | None, host: int, envelope_game: bytes, table: m.TableMsg
) -> str:
    """Everything ``check_continuation`` checks but the signatures: what a remaining
    seat checks of an offer before it signs it."""
    after = table.after
    if previous is None:
        assert after is not None
        return (
            f"a continuation of segment {after.segment.hex()[:16]}, but no segment comes"
            " before it here"
        )
    name = previous.segment.hex()[:16]
    why = link_problem(previous.segment, previous.used, envelope_game, table)
    if why:
        return why
    if previous.finished:
        return f"segment {name} had ended: a finished game is not continued"
    if previous.state is None:
        return f"the game had not started in segment {name}: there is nothing to continue"
    if previous.state.finished:
        return f"the game was won in segment {name}: there is nothing to continue"
    why = change_problem(previous.setup, previous.segment, host, table)
    if why:
        return why
    assert after is not None
    for s, ((count, head), (held, ours)) in enumerate(zip(after.heads, previous.view, strict=True)):
        if (count, head) != (held, ours):
            return (
                f"it cuts seat {s}'s chain at {count} envelopes (head {head.hex()[:16]}),"
                f" but segment {name} holds {held} (head {ours.hex()[:16]})"
            )
    score, dealer, deal = carried(previous.state)
    if (after.score, after.dealer, after.deal) != (score, dealer, deal):
        return (
            f"seat {host}'s continuation carries score {list(after.score)}, dealer"
            f" {after.dealer}, next deal {after.deal}, but segment {name}'s audited deals"
            f" give score {list(score)}, dealer {dealer}, next deal {deal}"
        )
    return ""


def link_problem(
    segment: bytes, used: tuple[bytes, ...], envelope_game: bytes, table: m.TableMsg
) -> str:
    """Why ``table`` (under the id ``envelope_game``) is no continuation of the segment
    ``segment`` (``used``: every id of the game so far), by its link alone: it names
    another segment before it, or an id the game used, or one its body does not
    derive.  "" if none of these."""
    after = table.after
    name = segment.hex()[:16]
    if after is None:
        return f"expected a continuation of segment {name}, got the table of a new game"
    if after.segment != segment:
        return f"it continues segment {after.segment.hex()[:16]}, not {name}, the one before it"
    if envelope_game in used:
        return (
            f"a continuation must have a segment id of its own: {envelope_game.hex()[:16]}"
            " is an earlier segment's of this game, and its old envelopes would count again"
        )
    if table.flow >= DERIVED_FLOW and envelope_game != segment_id_of(table):
        return (
            f"the segment id {envelope_game.hex()[:16]} is not the one its table derives"
            f" ({segment_id_of(table).hex()[:16]}): no seat chooses the id of a segment"
        )
    return ""


def change_problem(before: m.TableMsg, segment: bytes, host: int, table: m.TableMsg) -> str:
    """Why ``table`` (signed by seat ``host``) is no change of one seat of the table
    ``before`` (the segment ``segment``'s): the rules differ, another seat changes, the
    seat keeps its key, the nonces are not the old ones but the seat's.  "" if none."""
    after = table.after
    assert after is not None
    name = segment.hex()[:16]
    same_rules = (table.game, table.preset, table.options, table.fairdeal, table.flow) == (
        before.game,
        before.preset,
        before.options,
        before.fairdeal,
        before.flow,
    )
    if not same_rules:
        return "a continuation must keep the game, preset, options, fair-deal version and flow"
    if len(table.seats) != len(before.seats):
        return f"{len(table.seats)} seats, but segment {name} had {len(before.seats)}"
    seat = after.seat
    if host == seat:
        return f"signed by seat {seat}, the seat that changes hands"
    for other, (now, then) in enumerate(zip(table.seats, before.seats, strict=True)):
        if other != seat and now != then:
            return f"seat {other} changes too (only seat {seat} may change hands)"
    if table.seats[seat].key == before.seats[seat].key:
        return f"seat {seat} keeps its key: nothing changes hands"
    return _nonces_problem(before, table, seat)


def _nonces_problem(before: m.TableMsg, table: m.TableMsg, seat: int) -> str:
    """From flow 3 on: every seat keeps its nonce but ``seat``, whose new holder brings
    a fresh one (a returning player checks it is the one it sent)."""
    if table.flow < DERIVED_FLOW:
        return ""
    if len(table.nonces) != len(before.nonces):
        return f"{len(table.nonces)} nonces for {len(before.nonces)} seats"
    for other, (now, then) in enumerate(zip(table.nonces, before.nonces, strict=True)):
        if other != seat and now != then:
            return f"seat {other}'s nonce changes too (only seat {seat}'s new holder brings one)"
    if table.nonces[seat] == before.nonces[seat]:
        return f"seat {seat}'s new holder brings no nonce of its own (it keeps the old one)"
    return ""


def agreement_problem(before: m.TableMsg, segment: bytes, table: m.TableMsg) -> str:
    """ "" if every seat but the one changing hands signed the change with its key in the
    segment before; else the first seat whose signature is missing or wrong."""
    after = table.after
    assert after is not None
    signed = dict(after.agreed)
    due = [s for s in range(len(before.seats)) if s != after.seat]
    if after.seat in signed:
        return f"seat {after.seat}, the seat that changes hands, cannot agree to it"
    for seat in due:
        sig = signed.get(seat)
        if sig is None:
            have = ", ".join(str(s) for s in sorted(signed)) or "nobody"
            return f"seat {seat} did not sign the change (signed by {have})"
        if not agreement_holds(before.seats[seat].key, sig, segment, table):
            return (
                f"seat {seat}'s agreement is not its signature on this change"
                " (forged, or made for another one)"
            )
    return ""
