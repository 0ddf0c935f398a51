"""The hash chains a table holds: every seat's as it arrived and was accepted (``Chains``),
and the local seat's own, which it must never fill twice at one place (``OwnChain``).

A seat's chain is its envelopes in sequence order, each naming the hash of the one
before.  The transcript is every accepted envelope in the canonical order; the
chains answer resend requests from it and from what waits its turn.  The local
seat's own chain survives a crash: a resumed table learns how far it had signed
(``OwnChain.saw``) and signs nothing below that, so it never equivocates.
"""

from __future__ import annotations

from bisect import bisect_left

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, seal_envelope
from p2pbelka.table.intake import Intake

SentKey = tuple[int, str, int]
"""One thing the local seat owes (deal, phase, slot): it is never signed twice."""

View = tuple[tuple[int, bytes], ...]


class Chains:
    """Every seat's chain: what arrived (``intake``) and the transcript accepted."""

    def __init__(self) -> None:
        self._intake: Intake | None = None
        self.keys: tuple[bytes, ...] = ()
        """Every seat's key, in seat order (none before the table description)."""
        self.transcript: list[Envelope] = []
        self._recorded: set[bytes] = set()  # the digests of the transcript
        # The transcript by sender, in its order: a resend answer, asked for on every
        # (re)connection and every quiet second, reads one seat's part, not the whole.
        self._by_sender: dict[bytes, list[Envelope]] = {}
        self._ordered: dict[bytes, bool] = {}  # a sender's part rises in seq (bisect it)
        self._new_accepted: list[Envelope] = []
        self.refused_records = 0
        """How many records of the transcript are envelopes refused when due, kept."""

    def open(self, keys: tuple[bytes, ...]) -> None:
        """The table description seats these keys: one chain each."""
        self.keys = keys
        self._intake = Intake(len(keys))

    @property
    def opened(self) -> bool:
        return self._intake is not None

    @property
    def intake(self) -> Intake:
        assert self._intake is not None, "no table yet"
        return self._intake

    def seat_of(self, key: bytes) -> int | None:
        return next((seat for seat, k in enumerate(self.keys) if k == key), None)

    def accept(self, envelope: Envelope) -> None:
        """``envelope`` joins the transcript (its chain took it already, or it is an
        ending outside the canonical order, or a proof record: the second envelope of
        a place the chain holds another for)."""
        self.transcript.append(envelope)
        self._recorded.add(envelope.digest)
        part = self._by_sender.setdefault(envelope.sender, [])
        if part and part[-1].seq >= envelope.seq:
            self._ordered[envelope.sender] = False  # a proof record, or an ending
        part.append(envelope)
        self._new_accepted.append(envelope)

    def recorded(self, envelope: Envelope) -> bool:
        """Whether ``envelope`` is in the transcript."""
        return envelope.digest in self._recorded

    def take_accepted(self) -> list[Envelope]:
        out, self._new_accepted = self._new_accepted, []
        return out

    def forget_accepted(self) -> None:
        self._new_accepted.clear()

    def view(self) -> View:
        """What this table has accepted of every chain: the view it signs now."""
        return self.intake.view() if self._intake is not None else ()

    def accepted_envelope(self, seat: int, seq: int) -> Envelope:
        key = self.keys[seat] if self.keys else b""
        return next(e for e in self._by_sender.get(key, ()) if e.seq == seq)

    def last_envelope_of(self, seat: int) -> Envelope | None:
        if not 0 <= seat < len(self.keys):
            return None
        part = self._by_sender.get(self.keys[seat])
        return part[-1] if part else None

    def _accepted_from(self, key: bytes, seq: int) -> list[Envelope]:
        """``key``'s envelopes in the transcript numbered ``seq`` or more, in its order."""
        part = self._by_sender.get(key, [])
        if self._ordered.get(key, True):
            return part[bisect_left(part, seq, key=lambda e: e.seq) :]
        return [e for e in part if e.seq >= seq]

    def wants(self) -> list[int]:
        """For each seat, the first sequence number this table does not hold (a place
        where it keeps a refused envelope counts as not held: asked for again, another
        version there is proof)."""
        if self._intake is None:
            return []
        out = []
        for chain in self._intake.chains:
            seq = chain.next_seq
            while seq in chain.waiting:
                seq += 1
            out.append(seq)
        return out

    def envelopes_from(self, seat: int, seq: int, limit: int, newest: bool) -> list[bytes]:
        """``seat``'s envelopes from ``seq`` on, accepted or waiting, in chain order (see
        ``TableView.envelopes_from``)."""
        if self._intake is None or not 0 <= seat < len(self.keys):
            return []
        found = self._accepted_from(self.keys[seat], seq)
        chain = self._intake.chains[seat]
        nxt = max(seq, chain.next_seq)
        while nxt in chain.waiting:
            found.append(chain.waiting[nxt])
            nxt += 1
        # Then the rest of what waits, past a gap: an ending there, or a place another
        # seat's view names, lets the asker compare it or hold the proof.
        found += [e for q, e in sorted(chain.waiting.items()) if q > nxt]
        # And what was refused at its place (an ending's is in no transcript): a peer
        # that holds another envelope there holds the proof.
        found += [e for q, e in sorted(chain.refused.items()) if q >= seq]
        seen: set[bytes] = set()
        out = []
        for envelope in found:  # a proof record may also wait in the chain
            if envelope.digest not in seen:
                seen.add(envelope.digest)
                out.append(envelope.raw)
        if len(out) <= limit:
            return out
        return out[:limit] + out[-1:] if newest else out[:limit]


class OwnChain:
    """The local seat's own chain: where it stands, what it owes and has sent."""

    def __init__(self, signer: Signer | None, game_id: bytes) -> None:
        self.signer = signer
        self._game_id = game_id
        self.seq = 0
        self.prev = ZERO_HASH
        self.known = 0
        """1 + the highest sequence number of ours seen anywhere (kept, handed back, or
        refused as too far ahead): after a crash, no place below it is signed anew."""
        self.sent: set[SentKey] = set()
        self._new_signed: list[Envelope] = []

    def is_ours(self, envelope: Envelope) -> bool:
        return self.signer is not None and envelope.sender == self.signer.public_key

    def saw(self, seq: int) -> None:
        """One of ours with number ``seq`` exists: a place we must never fill again."""
        self.known = max(self.known, seq + 1)

    def may_sign(self, held: bool) -> bool:
        """Not while a resumed table is held, nor while a place signed before is not back."""
        return not held and self.seq >= self.known

    def follow(self, envelope: Envelope) -> None:
        """Our chain goes on after ``envelope`` (one we signed, now or before a crash)."""
        self.seq = envelope.seq + 1
        self.prev = envelope.digest

    def seal(self, deal: int, msg: m.Message, view: View) -> Envelope:
        assert self.signer is not None
        envelope = seal_envelope(self.signer, self._game_id, deal, self.seq, self.prev, msg, view)
        self._new_signed.append(envelope)
        self.follow(envelope)
        return envelope

    def take_signed(self) -> list[Envelope]:
        out, self._new_signed = self._new_signed, []
        return out

    def forget_signed(self) -> None:
        self._new_signed.clear()
