"""Per-seat hash chains and the buffer of envelopes that arrived before their turn.

Peers send in parallel where the protocol lets them, but every peer *processes*
envelopes in one canonical order (protocol/SPEC.md, "Schedule"), so every
transcript of a game is the same byte string.  An envelope that is next in its
sender's chain but not yet due waits here; the table pulls it when that seat's
turn comes.

An envelope the table refuses when it is due is kept at its place (``refuse``):
its sender signed it, and an honest seat never signs two envelopes for one place,
so another one there later is proof, and the chain goes no further than it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.protocol.envelope import ZERO_HASH, Envelope

MAX_AHEAD = 64
"""How far past its chain head a seat's envelope may arrive: a bound on memory."""


class IntakeError(ValueError):
    """An envelope that cannot enter a chain (too far ahead)."""


class Equivocation(IntakeError):
    """A second, different envelope for a place in a chain that already has one: two
    signatures of one seat on conflicting statements.  ``known`` is the one held
    first, when it has not been accepted (queued, or kept though refused); else it
    is in the transcript."""

    def __init__(self, seq: int, known: Envelope | None) -> None:
        super().__init__(f"a different envelope with sequence number {seq} came first")
        self.seq = seq
        self.known = known


@dataclass
class Chain:
    """What one seat has said so far: the next sequence number and the last hash.

    ``accepted`` holds every place taken into the transcript: the chain in the
    canonical order below ``next_seq``, and an ending taken outside the schedule
    (``Intake.hold``), which may lie beyond it.  ``refused`` holds the envelopes
    refused when they were due, each at its place: none is ever at or past
    ``next_seq + MAX_AHEAD``, and the chain never gets past one, so there are at most
    ``MAX_AHEAD`` of them, one per place."""

    next_seq: int = 0
    head: bytes = ZERO_HASH
    accepted: dict[int, bytes] = field(default_factory=dict)  # seq -> digest
    waiting: dict[int, Envelope] = field(default_factory=dict)
    refused: dict[int, Envelope] = field(default_factory=dict)


class Intake:
    def __init__(self, n_seats: int) -> None:
        self.chains = [Chain() for _ in range(n_seats)]

    def offer(self, seat: int, envelope: Envelope) -> bool:
        """Queue an envelope from ``seat``.  False for a harmless duplicate."""
        chain = self.chains[seat]
        taken = chain.accepted.get(envelope.seq)
        if taken is not None:
            if taken == envelope.digest:
                return False
            raise Equivocation(envelope.seq, None)
        kept = chain.refused.get(envelope.seq)
        if kept is not None:
            if kept.digest == envelope.digest:
                return False
            raise Equivocation(envelope.seq, kept)
        if envelope.seq >= chain.next_seq + MAX_AHEAD:
            raise IntakeError(
                f"sequence number {envelope.seq} is too far ahead (next is {chain.next_seq})"
            )
        queued = chain.waiting.get(envelope.seq)
        if queued is not None:
            if queued.digest == envelope.digest:
                return False
            raise Equivocation(envelope.seq, queued)
        chain.waiting[envelope.seq] = envelope
        return True

    def peek(self, seat: int) -> Envelope | None:
        """The envelope that is next in ``seat``'s chain, if it has arrived."""
        chain = self.chains[seat]
        return chain.waiting.get(chain.next_seq)

    def refuse(self, seat: int, seq: int | None = None) -> Envelope | None:
        """``seat``'s envelope waiting at ``seq`` (by default its next) was refused when
        it was due: it is kept at its place, never processed, so an identical copy is
        ignored and a different envelope there is an ``Equivocation``.  The refused
        envelope, or None if none waited there."""
        chain = self.chains[seat]
        envelope = chain.waiting.pop(chain.next_seq if seq is None else seq, None)
        if envelope is not None:
            chain.refused[envelope.seq] = envelope
        return envelope

    def refused(self, seat: int, seq: int) -> Envelope | None:
        """The envelope kept at ``seat``'s place ``seq`` though refused, if one is."""
        return self.chains[seat].refused.get(seq)

    def accept(self, seat: int) -> Envelope:
        chain = self.chains[seat]
        envelope = chain.waiting.pop(chain.next_seq)
        chain.accepted[envelope.seq] = envelope.digest
        chain.head = envelope.digest
        chain.next_seq += 1
        return envelope

    def hold(self, seat: int, envelope: Envelope) -> None:
        """``envelope`` (an ending) is taken into the transcript outside the canonical
        order: its place stays taken, so another envelope there is proof."""
        chain = self.chains[seat]
        chain.waiting.pop(envelope.seq, None)
        chain.accepted[envelope.seq] = envelope.digest

    def held(self, seat: int, seq: int) -> Envelope | None:
        """The envelope waiting at ``seat``'s place ``seq``, if one is (an accepted one
        is in the transcript)."""
        return self.chains[seat].waiting.get(seq)

    def held_digest(self, seat: int, count: int) -> bytes | None:
        """Like ``digest_at``, but counting what waits too: the hash of ``seat``'s
        envelope number ``count - 1`` if this table holds the chain up to it (accepted,
        then waiting with no gap), else None."""
        chain = self.chains[seat]
        if count <= chain.next_seq:
            return self.digest_at(seat, count)
        if any(seq not in chain.waiting for seq in range(chain.next_seq, count)):
            return None
        return chain.waiting[count - 1].digest

    def linked(self, seat: int, envelope: Envelope) -> bool | None:
        """Whether the chain held of ``seat`` leads to ``envelope``: every place before it
        accepted or waiting, each naming the hash of the one before.  None while a
        place is missing; False when the chain breaks (at ``envelope`` or before)."""
        chain = self.chains[seat]
        head = chain.head
        for seq in range(chain.next_seq, envelope.seq):
            before = chain.waiting.get(seq)
            if before is None:
                return None
            if before.prev != head:
                return False
            head = before.digest
        return envelope.prev == head

    def heads(self) -> tuple[bytes, ...]:
        return tuple(chain.head for chain in self.chains)

    def view(self) -> tuple[tuple[int, bytes], ...]:
        """What this table has accepted of every chain: (count, hash of the last)."""
        return tuple((chain.next_seq, chain.head) for chain in self.chains)

    def digest_at(self, seat: int, count: int) -> bytes | None:
        """The hash of ``seat``'s envelope number ``count - 1`` (the zero hash for 0),
        or None if this table has not accepted that many."""
        chain = self.chains[seat]
        if count > chain.next_seq:
            return None
        return ZERO_HASH if count == 0 else chain.accepted[count - 1]
