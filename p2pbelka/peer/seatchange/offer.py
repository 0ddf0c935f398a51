"""The seat change's pure pieces: an offer built from our cut, its seal, the checks a
remaining seat makes before it signs, and the table of a continuation it follows.

``machine.py`` decides when each is done; this module says what it is, as
functions of tables and keys (what a continuation must be is ``table/carry.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.peer.seatchange.effects import Identities
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.seatchange import (
    Offer,
    agreement_holds,
    sign_agreement,
    with_agreements,
)
from p2pbelka.table import events as ev
from p2pbelka.table.carry import Previous, check_change
from p2pbelka.table.segments import previous_of, propose
from p2pbelka.table.session import Table

Bots = tuple[tuple[Table, int], ...]
"""The bots' tables of a segment, each with its seat."""


@dataclass
class OpenOffer:
    """The proposer's open offer: what is signed so far, and who still must sign."""

    seat: int
    segment: bytes
    proposal: m.TableMsg
    previous: Previous
    signed: dict[int, bytes]
    bot: Signer | None
    """The bot this peer will run in ``seat`` (None: its player takes it back)."""
    until: float
    resend: float

    @property
    def back(self) -> bool:
        return self.bot is None

    @property
    def offer(self) -> Offer:
        return Offer(self.segment, self.proposal)

    def missing(self) -> list[int]:
        due = range(len(self.previous.setup.seats))
        return [s for s in due if s != self.seat and s not in self.signed]

    def agree(self, sender: int, sig: bytes) -> bool:
        """Count ``sender``'s signature if it is its own on this offer's statement."""
        holder = self.previous.setup.seats[sender].key
        if not agreement_holds(holder, sig, self.segment, self.proposal):
            return False
        self.signed[sender] = sig
        return True


def build_offer(
    table: Table,
    seat: int,
    key: bytes,
    name: str,
    nonce: bytes,
    signer: Signer,
    bots: dict[int, Signer],
    *,
    bot: Signer | None,
    now: float,
    until: float,
) -> OpenOffer:
    """``table`` cut where it stands, ``key`` (``name``, with the new holder's fresh
    ``nonce``) offered for ``seat``: signed by us and by the bots we run."""
    previous = previous_of(table)
    # The id is derived from the continuation (the cut, the new key and the new
    # holder's nonce), never chosen.
    segment, proposal = propose(previous, seat, key, name, nonce, signer)
    assert proposal.after is not None
    signed = dict(proposal.after.agreed)
    for local, bot_signer in bots.items():
        if local != seat:  # the bots we run agree through us
            signed[local] = sign_agreement(bot_signer, segment, proposal)
    return OpenOffer(seat, segment, proposal, previous, signed, bot, until, now)


def seal(offer: OpenOffer, ids: Identities, bots: dict[int, Signer]) -> tuple[Table, Bots] | str:
    """The continuation with every signature: our host table and the bots' tables
    (``bots``: every bot we run in it, by seat), or why not."""
    final = with_agreements(offer.proposal, offer.signed)
    host = Table.host(
        ids.signer, final, seed_source=ids.seed_sources(offer.segment), previous=offer.previous
    )
    if host.state.setup is None:  # our own checks refuse it: a bug, not the others' fault
        return "the continuation did not pass its own checks"
    tables = tuple(
        (Table(offer.segment, signer=s, seed_source=ids.bot_seeds, previous=offer.previous), seat)
        for seat, s in bots.items()
    )
    return host, tables


def offer_problem(
    table: Table, sender: int, offer: Offer, ids: Identities, signed: bytes | None
) -> str:
    """Why this seat does not sign ``sender``'s ``offer`` on ``table`` ("" if it may);
    ``signed``: the continuation of this segment it signed already, if any."""
    after = offer.table.after
    assert after is not None and table.state.setup is not None
    previous = previous_of(table)
    problem = check_change(previous, sender, offer.segment, offer.table)
    if problem:
        return problem
    if ids.known(offer.segment):
        return f"segment {offer.segment.hex()[:16]}: this peer has seen that id before"
    if signed is not None and signed != offer.segment:
        return one_only(previous.segment, signed)
    if after.seat not in table.view.missing():
        return f"seat {after.seat} is not missing here"
    key = previous.setup.seats[sender].key
    theirs = dict(after.agreed).get(sender)
    if theirs is None or not agreement_holds(key, theirs, offer.segment, offer.table):
        return "the offer does not carry the proposer's own signature"
    return ""


def follow(
    envelope: Envelope,
    ids: Identities,
    previous: Previous,
    nonce: bytes | None,
    *,
    again: bool = False,
) -> Table | str:
    """Our table of the continuation ``envelope`` opens (after ``previous``; ``nonce``:
    ours, if the seat comes back to us), or why not.  ``again``: the continuation this
    seat agreed to before it stopped, its id remembered then, nothing signed in it yet
    (``SeatChange.restore``): followed although its id is known."""
    if ids.known(envelope.game) and not again:
        return f"its id {envelope.game.hex()[:16]} was seen before"
    following = Table(
        envelope.game,
        signer=ids.signer,
        seed_source=ids.seed_sources(envelope.game),
        previous=previous,
        nonce=nonce,
    )
    following.receive_envelope(envelope)
    if following.state.setup is None:
        return "; ".join(e.reason for e in following.take_events() if isinstance(e, ev.Rejected))
    return following


def one_only(segment: bytes, signed: bytes) -> str:
    return (
        f"this seat signed another continuation of segment {segment.hex()[:16]}"
        f" ({signed.hex()[:16]}): it signs one only"
    )
