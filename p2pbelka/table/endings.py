"""The end of a game, in the chains: endings taken, equivocations proven and recorded,
and the proofs that still come after the end (protocol/SPEC.md sections 2.2 and 4.6).

An ``evidence`` or a ``dispute`` is an envelope of its sender's chain like any other:
it is offered to the intake (so an ending for a place that holds another envelope
of its sender is proof, and an identical one is ignored), and it is passed on to
every seat the first time it arrives, since its sender may have told only one.  It
is taken outside the schedule once the chain we hold of its sender leads to it and
its view agrees with what we hold; where its view names more of a chain than we
hold, that is asked for and compared first, and a hash that differs is a suspicion
like any view's.  A dispute signed in the closing exchange does not end a won game.

Every proof the table states is in its transcript: the envelopes of the pair it
does not hold there yet (*proof records*) come first, then the ``evidence`` the
local seat signs, if it may sign.  A valid ``evidence`` from another seat is
itself two signatures for one place, so the table proves it the same way, with
its own records.  A finished table still takes what arrives for one purpose:
another envelope for a place it holds is proof, and the verdict becomes that proof.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.blame import Blame, disputed, equivocation
from p2pbelka.table.chains import Chains, OwnChain
from p2pbelka.table.intake import MAX_AHEAD, Equivocation, IntakeError
from p2pbelka.table.phase import PhaseId


class Mail(Protocol):
    """Where the table's envelopes to send and its events go (the runner's outbox)."""

    outgoing: list[bytes]
    events: list[ev.Event]


class Schedule(Protocol):
    """What the endings read of the runner, and how they end the game."""

    @property
    def me(self) -> int | None: ...

    @property
    def n_seats(self) -> int: ...

    @property
    def flow(self) -> int: ...

    @property
    def deal_id(self) -> int: ...

    @property
    def phase(self) -> PhaseId: ...

    @property
    def won(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def proven(self) -> bool: ...

    def accepted(self, envelope: Envelope) -> None: ...

    def sign_ending(self, msg: m.EvidenceMsg | m.DisputeMsg) -> Envelope | None: ...

    def abort(self, *faults: ev.Fault) -> None: ...

    def end_won(self, unclosed: list[ev.Fault]) -> None: ...

    def leave(self, waited_for: list[ev.Fault]) -> None: ...

    def unclosed(self) -> list[int]: ...

    def untaken(self) -> list[int]: ...


UNSIGNED = (
    "this seat, resumed, does not hold all it signed before it stopped, so it signs"
    " nothing yet: the game stops here unfinished and can be resumed"
)
"""Why a held seat that gave up names nobody in its file (``Endings.give_up``)."""

BROKEN_CHAIN = "does not follow the sender's previous envelope (broken hash chain)"


def is_ending(envelope: Envelope) -> bool:
    return isinstance(envelope.msg, m.EvidenceMsg | m.DisputeMsg)


def is_last(envelope: Envelope) -> bool:
    """Whether nothing its sender's peers sign later covers ``envelope`` (an ending, or
    a ``close``: the closing exchange's views cover the last deal's ``deal_end``s, and
    nothing covers the closes).  Such an envelope is passed on to every seat the
    first time it arrives, so a second version of it shown to another seat meets
    this one at some honest peer."""
    return is_ending(envelope) or isinstance(envelope.msg, m.CloseMsg)


class Endings:
    def __init__(
        self, runner: Schedule, chains: Chains, own: OwnChain, blame: Blame, out: Mail
    ) -> None:
        self._runner = runner
        self._chains = chains
        self._own = own
        self._blame = blame
        self._out = out
        self.waiting: set[tuple[int, int]] = set()
        """(seat, seq) of every ending offered and not taken yet."""
        self._relayed: dict[tuple[int, int], set[bytes]] = {}
        """(seat, seq) -> the digests passed on of that place (``_relay``)."""
        self._evidence_due: frozenset[bytes] = frozenset()
        """The two hashes of the pair proven last, until the record after its proof
        records: only there may a transcript hold its recorder's ``evidence`` of it."""
        self.from_file = False
        """Replaying a transcript: an ending its recorder took is taken as it stands
        (the envelopes of its sender that came before it need not be in the file)."""

    # -- envelopes in ----------------------------------------------------------------

    def offer(self, seat: int, envelope: Envelope) -> bool:
        """Offer ``envelope`` to ``seat``'s chain; True if it is new there.  Another
        envelope for a place held is proven at once."""
        try:
            new = self._chains.intake.offer(seat, envelope)
        except Equivocation as exc:
            held = exc.known or self._chains.accepted_envelope(seat, exc.seq)
            self.prove(seat, held, envelope)
            return False
        except IntakeError as exc:
            # Ours too far ahead: our own chain notes it and asks for it again.
            if seat != self._runner.me and not self._runner.finished:
                self._out.events.append(ev.Rejected(str(exc), seat))
            return False
        if new and is_ending(envelope):
            self.waiting.add((seat, envelope.seq))
        if new and is_last(envelope) and seat != self._runner.me:
            self._relay(seat, envelope)
        return new

    def _relay(self, seat: int, envelope: Envelope) -> None:
        """Pass another seat's ending or close on to every seat (an observer relays
        nothing), once: a refused one that comes again is not passed on again (two
        honest peers would pass it back and forth), and at most two versions of a
        place (two are the proof; a seat that signs more is not worth our traffic).
        Nor does a transcript replayed (a resume): what it would pass on is dropped
        with the replay (``Table.resume``), and waiting in the outbox it would stop
        the schedule there (the runner lets its own sends out before it processes
        more), so the records after a close of another seat were never taken."""
        if self._own.signer is None or self.from_file:
            return
        versions = self._relayed.setdefault((seat, envelope.seq), set())
        if envelope.digest in versions or len(versions) >= 2:
            return
        versions.add(envelope.digest)
        self._out.outgoing.append(envelope.raw)

    def from_evidence(self, msg: m.EvidenceMsg) -> bool:
        """A valid ``evidence`` is two envelopes its accused signed for one place: we
        offer both to that chain, so we hold the pair and prove it ourselves (True).
        False when it proves nothing (its sender is at fault once its chain reaches
        it) or the place is too far ahead of what we hold (taken as it stands)."""
        try:
            accused, first, second = self._blame.check_evidence(msg)
        except ValueError:
            return False
        for enclosed in (first, second):
            try:
                self._chains.intake.offer(accused, enclosed)
            except Equivocation as exc:
                held = exc.known or self._chains.accepted_envelope(accused, exc.seq)
                self.prove(accused, held, enclosed)
                return True
            except IntakeError:
                return False
        return False  # unreachable: two envelopes for one place never both fit

    # -- taking an ending ------------------------------------------------------------------

    def take_due(self) -> None:
        """Take every ending that may be taken now: the schedule is waiting."""
        intake = self._chains.intake
        for seat, seq in sorted(self.waiting):
            if self._runner.finished:
                return
            envelope = intake.held(seat, seq)
            if envelope is None or not is_ending(envelope):
                self.waiting.discard((seat, seq))
            elif seq == min(q for s, q in self.waiting if s == seat):
                self._try(seat, envelope)

    def _try(self, seat: int, envelope: Envelope) -> None:
        runner = self._runner
        if runner.won and isinstance(envelope.msg, m.DisputeMsg):
            if not self.from_file:
                return  # the game is won: another seat's dispute does not undo it
        chain = self._chains.intake.chains[seat]
        if self.from_file:
            beyond = self._beyond_the_file(seat, envelope)
            if beyond:
                # Its recorder could not have held what it needs (SPEC section 5, 2):
                # not taken, so the record is out of order.
                self._out.events.append(ev.Rejected(beyond, seat))
                return
        if self.from_file and envelope.seq > chain.next_seq:
            linked = True  # its recorder held the chain up to it
        else:
            before = self._chains.intake.held_digest(seat, envelope.seq)
            if before is None:
                return  # its sender's earlier envelopes first (``needs``: asked for)
            linked = envelope.prev == before
        refusal = self._refusal(seat, envelope) if linked else BROKEN_CHAIN
        if refusal:
            # Kept at its place (not recorded: a proof records it with its pair).
            self._chains.intake.refuse(seat, envelope.seq)
            self.waiting.discard((seat, envelope.seq))
            self._out.events.append(ev.Rejected(refusal, seat))
            return
        ahead, conflict = self._blame.compare_ending(seat, envelope, self.from_file)
        if conflict is not None:
            self._blame.suspect_view(seat, envelope, *conflict)
            return
        if not ahead:
            self.take(seat, envelope)

    def _beyond_the_file(self, seat: int, envelope: Envelope) -> str:
        """Why an ending in a transcript asks more than its recorder could have held
        (empty if nothing): past its chain's next envelope in the file, or a view that
        counts past the file, where the chain stops at a refused envelope (no later
        place of it is ever held), or by ``MAX_AHEAD`` or more (never held either)."""
        intake = self._chains.intake
        if len(envelope.view) != len(intake.chains):
            return ""  # refused for its length (``_refusal``)
        stop = min(intake.chains[seat].refused, default=None)
        if stop is not None and envelope.seq > stop:
            return (
                f"not taken: its sender's chain stops at its refused envelope {stop},"
                " so its recorder held no later place of it"
            )
        for other, (count, _) in enumerate(envelope.view):
            chain = intake.chains[other] if other != seat else None
            if chain is None or count <= chain.next_seq:
                continue
            if chain.refused:
                return (
                    f"not taken: its view counts {count} envelopes of seat {other}, whose"
                    f" chain stops at its refused envelope {chain.next_seq}"
                )
            if count > chain.next_seq + MAX_AHEAD:
                return (
                    f"not taken: its view counts {count} envelopes of seat {other}, more"
                    f" than {MAX_AHEAD} past the {chain.next_seq} the file holds"
                )
        return ""

    def _refusal(self, seat: int, envelope: Envelope) -> str:
        n_seats = self._runner.n_seats
        if len(envelope.view) != n_seats:
            return f"its view lists {len(envelope.view)} seats, the table has {n_seats}"
        own = (envelope.seq, envelope.prev)
        if self._runner.flow >= 3 and envelope.view[seat] != own:
            return "its view of its own chain does not match its seq and prev"
        return ""

    def take(self, seat: int, envelope: Envelope) -> None:
        """Take ``seat``'s ending into the transcript: the game ends as it says (a won
        game, in the closing exchange, with the seats it names as not closing)."""
        runner = self._runner
        self._chains.intake.hold(seat, envelope)
        self.waiting.discard((seat, envelope.seq))
        runner.accepted(envelope)
        deal = runner.deal_id
        if runner.won and isinstance(envelope.msg, m.DisputeMsg):
            runner.end_won(self._blame.unclosed(seat, envelope.msg, deal))
            return
        runner.abort(*self._blame.ending(seat, envelope, deal))

    def needs(self) -> list[int]:
        """The senders of the endings that wait to be taken: their earlier envelopes,
        or those their views name further than we hold, have not come.  (They are
        asked for as any missing envelope is; if they never come, it is the sender's
        claim that nobody could check, so the sender is the seat waited for.)"""
        if not self.waiting:
            return []
        closing = self._runner.won
        out = set()
        for seat, seq in self.waiting:
            envelope = self._chains.intake.held(seat, seq)
            if envelope is not None and not (closing and isinstance(envelope.msg, m.DisputeMsg)):
                out.add(seat)
        return sorted(out)

    # -- proofs --------------------------------------------------------------------------

    def prove(self, seat: int, first: Envelope, second: Envelope) -> None:
        """Two envelopes ``seat`` signed for one place in its chain: record whichever
        of them the transcript lacks (the proof records), sign ``evidence`` of the pair
        if the local seat may sign (every peer checks it itself), and end the game on
        the proof (after the end: the verdict becomes this proof; after a proof of
        another seat, this one joins it).  A seat proven already is proven once."""
        if seat in self.proven_seats():
            if self.from_file:
                why = f"seat {seat} is proven already: no recorder records a second pair of it"
                self._out.events.append(ev.Rejected(why, seat))
            return
        self._evidence_due = frozenset((first.digest, second.digest))
        fault = equivocation(seat, first, second, self._runner.deal_id)
        for envelope in (first, second):
            if not self._chains.recorded(envelope):
                self._chains.accept(envelope)
        self._runner.sign_ending(m.EvidenceMsg(first.raw, second.raw))
        if self._runner.proven:
            self._prove_further(fault, first, second)
            return
        if self._runner.finished:
            # What an unproven ending named gives way to the proof.
            self._blame.faults[:] = [f for f in self._blame.faults if f.proven]
        self._runner.abort(fault)

    def proven_seats(self) -> set[int]:
        """The seats a fatal fault proven so far names."""
        return {f.seat for f in self._blame.faults if f.fatal and f.proven}

    def _prove_further(self, fault: ev.Fault, first: Envelope, second: Envelope) -> None:
        """A proof after the game ended proven: it joins the verdict (a coalition's
        second liar is proven like the first), and its pair goes to every seat."""
        self._blame.faults.append(fault)
        self._out.events.append(ev.FaultFound(fault))
        if self._own.signer is not None:
            self._out.outgoing += [first.raw, second.raw]

    def after_end(self, seat: int, envelope: Envelope) -> None:
        """An envelope for a finished table: proof, if it is another for a place held
        (or a valid ``evidence`` of two: then also an envelope of its sender's chain,
        so two evidences for one place prove their sender), of every seat not proven
        yet; else kept at
        its place, for a later one (the intake bounds what is kept: ``MAX_AHEAD`` a
        chain).  A transcript holds, after the end, the proof records and its
        recorder's own ``evidence`` of each pair."""
        due, self._evidence_due = self._evidence_due, frozenset()
        if self.from_file and self._runner.proven and due and self._encloses(envelope, due):
            self._take_recorded_evidence(seat, envelope)
            return
        if isinstance(envelope.msg, m.EvidenceMsg) and self.from_file:
            why = (
                "an evidence after the end that is not of the pair the proof records"
                " just before it hold (a recorder proves any other pair with its own"
                " proof records first)"
            )
            self._out.events.append(ev.Rejected(why, seat))
        if isinstance(envelope.msg, m.EvidenceMsg) and not self.from_file:
            # The pair it encloses first; then the evidence itself is its sender's
            # envelope like any: a second one for its place proves the sender too.
            self.from_evidence(envelope.msg)
        self.offer(seat, envelope)

    def _take_recorded_evidence(self, seat: int, envelope: Envelope) -> None:
        """The recorder's ``evidence`` of a pair its proof records hold: a record of its
        chain, nothing more (another envelope at its place is proof, as ever)."""
        try:
            new = self._chains.intake.offer(seat, envelope)
        except IntakeError:
            self.offer(seat, envelope)  # proof, or refused naming why
            return
        if new:
            self._chains.intake.hold(seat, envelope)
            self._chains.accept(envelope)

    def _encloses(self, envelope: Envelope, pair: frozenset[bytes]) -> bool:
        """Whether ``envelope`` is a valid ``evidence`` of exactly the two envelopes whose
        hashes are ``pair`` (in either order): the recorder's evidence of the proof its
        records just made.  Of any other pair it is no record a recorder writes: it
        would have proven that pair with its own proof records first."""
        if not isinstance(envelope.msg, m.EvidenceMsg):
            return False
        try:
            _, first, second = self._blame.check_evidence(envelope.msg)
        except ValueError:
            return False
        return frozenset((first.digest, second.digest)) == pair

    # -- giving up ---------------------------------------------------------------------

    def give_up(self, seats: list[int], why: str) -> None:
        """The driver gave up waiting (``Table.abandon``): end the game *disputed*,
        naming ``seats`` (or, while a view is unsettled, its reporter and the seat it
        accuses).  The local seat signs the accusation (a ``dispute`` envelope) so its
        transcript says who it named and why; nothing in it proves the accusation.  A
        seat that may not sign yet (resumed, and not caught up with its own chain)
        signs nothing (a dispute could fill a place it filled before the crash): its
        game stops unfinished (``left``), as its file reads, and can be resumed later."""
        runner, blame, me, deal = self._runner, self._blame, self._runner.me, self._runner.deal_id
        if runner.won:
            # The game is won: the seats whose close was not taken are named, and the
            # result stands (a seat cannot deny the others theirs by never closing).
            # A close whose view nobody backed was not taken either: its sender is
            # named the same way (the closes' views cover only the last deal's
            # ``deal_end``s, which change nothing of the result), and ``verify``
            # reads the dispute signed here as a won game too.
            unclosed = {s for s in runner.unclosed() if s != me}
            suspicion = blame.suspicion
            if suspicion is not None:
                _, why = blame.abandoned(seats, why, runner.phase.value, me)
                unclosed.add(suspicion.reporter)
            named_seats = sorted(unclosed or set(seats))
            named = m.DisputeMsg(tuple(named_seats), why)
            if named_seats and me is not None and runner.sign_ending(named):
                runner.end_won(blame.unclosed(me, named, deal))
            else:
                # Nothing recorded (a seat that may not sign): named as its file
                # will be read, every seat whose close it does not hold.
                runner.end_won(self.unrecorded())
            return
        seats, what = blame.abandoned(seats, why, runner.phase.value, me)
        if runner.sign_ending(m.DisputeMsg(tuple(sorted(set(seats))), what)) is None:
            unsigned = f"{what}; not recorded: {UNSIGNED}"
            runner.leave([replace(f, fatal=False) for f in disputed(seats, unsigned, deal)])
            return
        runner.abort(*disputed(seats, what, deal))

    def unrecorded(self) -> list[ev.Fault]:
        """Once the game is won: a note naming every seat whose ``close`` (or last
        ``deal_end``) the transcript does not hold (``Table.unrecorded_closes``)."""
        return self._blame.not_recorded(self._runner.untaken(), self._runner.deal_id)
