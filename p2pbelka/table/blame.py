"""Who is at fault, and how the table knows: signed views compared with ours, two
envelopes for one place proven, evidence and disputes from other seats checked, and
the faults found so far.

Everything here decides; the runner acts on it (ends the game, sends the proof).
A fault is *proven* when the seat's own signed envelopes show it; a view nobody
can back, a seat gone silent or another seat's dispute only name the seats
involved, and the game ends disputed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.chains import Chains
from p2pbelka.table.phase import Abort


@dataclass(frozen=True, slots=True)
class Suspicion:
    """``reporter`` signed a view (in its envelope number ``reporter_seq``) in which
    ``accused``'s envelope number ``seq`` hashes to ``claimed``, not to the one we hold.

    Either ``accused`` signed two envelopes for that place, or ``reporter`` lies (and
    may have signed two of its own: the view it showed us, and another for the
    others).  When ``accused`` is the local seat, the table knows its own chain: the
    reporter lies."""

    reporter: int
    accused: int
    seq: int
    claimed: bytes
    reporter_seq: int


def equivocation(seat: int, first: Envelope, second: Envelope, deal: int) -> ev.Fault:
    """``seat`` signed ``first`` and ``second`` for one place in its chain."""
    what = f"signed two different envelopes for its sequence number {first.seq}"
    proof = (first.digest.hex(), second.digest.hex())
    return ev.Fault(seat, what, proof, True, deal or None)


def disputed(seats: Sequence[int], what: str, deal: int) -> list[ev.Fault]:
    """Unproven faults naming ``seats``: the game ends disputed."""
    return [ev.Fault(s, what, (), True, deal or None, proven=False) for s in sorted(set(seats))]


class Blame:
    def __init__(self, chains: Chains, game_id: bytes, note: Callable[[ev.Event], None]) -> None:
        self._chains = chains
        self._game_id = game_id
        self._note = note
        self.suspicion: Suspicion | None = None
        """A view that differs from ours: processing waits for the envelope behind it."""
        self.faults: list[ev.Fault] = []

    def fault(
        self, seat: int, what: str, envelope: Envelope | None, fatal: bool, deal: int
    ) -> ev.Fault:
        """A fault proven by ``seat``'s envelope (by default the last one accepted)."""
        transcript = self._chains.transcript
        if envelope is None and transcript:
            envelope = transcript[-1]
        evidence = (envelope.digest.hex(),) if envelope is not None else ()
        return ev.Fault(seat, what, evidence, fatal, deal or None)

    # -- views -----------------------------------------------------------------------

    def view_agrees(self, seat: int, envelope: Envelope, deal: int) -> bool:
        """Compare ``seat``'s signed view with ours, before its envelope is accepted.

        An honest seat signs only after accepting, in the canonical order, what
        comes before its envelope: so it cannot have seen more of a chain than we
        have now (a provable lie), and what it saw must be what we accepted.  A
        different hash is not yet anyone's fault: either the seat in that chain
        signed two envelopes (we will hold both once the other reaches us: proof)
        or the reporter lies (nobody can back it; the driver gives up: disputed).
        """
        intake = self._chains.intake
        if self.suspicion is not None:
            return False
        for other, (count, head) in enumerate(envelope.view):
            if other == seat:
                continue
            ours = intake.digest_at(other, count)
            if ours is None:
                have = intake.chains[other].next_seq
                what = (
                    f"its view claims {count} envelopes of seat {other}, but only {have}"
                    " come before its own in the schedule"
                )
                raise Abort(self.fault(seat, what, envelope, True, deal))
            if ours != head:
                self._suspect(seat, envelope, other, count - 1, head)
                return False
        return True

    def compare_view_early(self, seat: int, envelope: Envelope) -> None:
        """Compare a view as soon as its envelope arrives, where we can: an envelope
        that is out of turn *because* its sender saw another chain is never processed,
        yet its view shows where the chains part."""
        if self.suspicion is not None or len(envelope.view) != len(self._chains.keys):
            return
        intake = self._chains.intake
        for other, (count, head) in enumerate(envelope.view):
            if other == seat:
                continue
            ours = intake.digest_at(other, count)
            if ours is not None and ours != head:
                self._suspect(seat, envelope, other, count - 1, head)
                return

    def compare_ending(
        self, seat: int, envelope: Envelope, from_file: bool
    ) -> tuple[list[int], tuple[int, int, bytes] | None]:
        """Compare the view of ``seat``'s ending with what we hold (accepted, or waiting
        with no gap), before it is taken: the seats whose chains it names further than
        we hold (to fetch, then compare), and the first place where it differs
        (accused, seq, the hash it claims), if any.  Replaying a transcript
        (``from_file``), only what the transcript accepted is compared; its recorder
        held the rest."""
        intake = self._chains.intake
        ahead = []
        for other, (count, head) in enumerate(envelope.view):
            if other == seat:
                continue
            ours = intake.digest_at(other, count) if from_file else intake.held_digest(other, count)
            if ours is None:
                ahead.append(other)
            elif ours != head:
                return ahead, (other, count - 1, head)
        return ([] if from_file else ahead), None

    def why_waiting(self, seat: int | None, envelope: Envelope) -> str:
        """Why a transcript record due in the schedule was not accepted: its view names,
        for a chain the file has reached, another hash than the file's (its recorder
        would have waited for the other version, not accepted it: SPEC section 10.3)."""
        suspicion = self.suspicion
        if suspicion is None or (suspicion.reporter, suspicion.reporter_seq) != (
            seat,
            envelope.seq,
        ):
            return "not accepted: it waits for an envelope the file does not hold"
        ours = self._chains.intake.digest_at(suspicion.accused, suspicion.seq + 1)
        held = ours.hex()[:16] if ours is not None else "none"
        return (
            f"not accepted: its view names {suspicion.claimed.hex()[:16]} as seat"
            f" {suspicion.accused}'s envelope {suspicion.seq}, the file's is {held} (its"
            " recorder would have waited for the envelope it names, not accepted this one)"
        )

    def suspect_view(
        self, reporter: int, envelope: Envelope, accused: int, seq: int, claimed: bytes
    ) -> None:
        """A view that differs from ours (one suspicion at a time: the first stands)."""
        if self.suspicion is None:
            self._suspect(reporter, envelope, accused, seq, claimed)

    def _suspect(
        self, reporter: int, envelope: Envelope, accused: int, seq: int, claimed: bytes
    ) -> None:
        self.suspicion = Suspicion(reporter, accused, seq, claimed, envelope.seq)
        self._note(ev.ViewConflict(reporter, accused, seq))

    def wants(self, me: int | None) -> list[int]:
        """The chains' first missing sequence numbers, and while a view is unsettled the
        envelopes that could settle it: the accused seat's behind the view (unless it
        is ours: we know our own chain), and the reporter's own that carried it (if it
        showed the others another, any of them may hold it)."""
        out = self._chains.wants()
        suspicion = self.suspicion
        if suspicion is not None and out:
            if suspicion.accused != me:
                out[suspicion.accused] = min(out[suspicion.accused], suspicion.seq)
            reporter = suspicion.reporter
            out[reporter] = min(out[reporter], suspicion.reporter_seq)
        return out

    def waited_for(self, me: int | None) -> int | None:
        """The seat whose envelope would settle a differing view, if one differs: the
        accused, or the reporter when the view is about our own chain."""
        suspicion = self.suspicion
        if suspicion is None:
            return None
        return suspicion.reporter if suspicion.accused == me else suspicion.accused

    # -- what other seats end a game with ------------------------------------------------

    def ending(self, seat: int, envelope: Envelope, deal: int) -> list[ev.Fault]:
        """The faults an accepted ``evidence`` or ``dispute`` from ``seat`` names."""
        if isinstance(envelope.msg, m.DisputeMsg):
            named = self.named(seat, envelope.msg)
            return disputed(named, f"named by seat {seat}: {envelope.msg.why}", deal)
        assert isinstance(envelope.msg, m.EvidenceMsg)
        try:
            accused, first, second = self.check_evidence(envelope.msg)
        except ValueError as exc:
            what = f"sent evidence that proves nothing: {exc}"
            return [ev.Fault(seat, what, (envelope.digest.hex(),), True, deal or None)]
        return [equivocation(accused, first, second, deal)]

    def named(self, seat: int, msg: m.DisputeMsg) -> list[int]:
        """The seats a dispute from ``seat`` names (itself, if it names none seated)."""
        return [s for s in msg.seats if s < len(self._chains.keys)] or [seat]

    def unclosed(self, seat: int, msg: m.DisputeMsg, deal: int) -> list[ev.Fault]:
        """What a ``dispute`` signed in the closing exchange names: the seats whose
        ``close`` its sender (``seat``) did not get.  The game is won and its result
        stands; they are only named (not proven, not fatal)."""
        what = f"did not close the game (named by seat {seat}: {msg.why})"
        named = sorted(set(self.named(seat, msg)))
        return [ev.Fault(s, what, (), False, deal or None, proven=False) for s in named]

    def not_recorded(self, seats: list[int], deal: int) -> list[ev.Fault]:
        """The seats a won game's transcript holds no ``close`` (or last ``deal_end``) of,
        where nothing names them: what ``verify`` of a file that ends there names, and
        what a seat that may not sign names when it gives up there (not proven, not
        fatal: the result stands)."""
        what = "did not close the game (the transcript ends without its close)"
        return [ev.Fault(s, what, (), False, deal or None, proven=False) for s in seats]

    def check_evidence(self, msg: m.EvidenceMsg) -> tuple[int, Envelope, Envelope]:
        try:
            first, second = open_envelope(msg.first), open_envelope(msg.second)
        except ProtocolError as exc:
            raise ValueError(f"an enclosed envelope does not open: {exc}") from None
        accused = self._chains.seat_of(first.sender)
        if accused is None or first.sender != second.sender:
            raise ValueError("the two envelopes are not both from one seat")
        if first.game != self._game_id or second.game != self._game_id:
            raise ValueError("an enclosed envelope belongs to another game")
        if first.seq != second.seq or first.digest == second.digest:
            raise ValueError("not two different envelopes for one sequence number")
        return accused, first, second

    def abandoned(
        self, seats: list[int], why: str, phase: str, me: int | None
    ) -> tuple[list[int], str]:
        """Whom a driver that gives up names, and why: ``seats`` for ``why``, or, while a
        view is unsettled, its reporter and the seat it accuses (only the reporter when
        the view is about our own chain: never ourselves)."""
        suspicion = self.suspicion
        if suspicion is not None and suspicion.accused == me:
            what = (
                f"seat {suspicion.reporter} signed a view of this seat's own chain at"
                f" envelope {suspicion.seq} with a hash this seat never signed"
            )
            return [suspicion.reporter], what
        if suspicion is not None:
            what = (
                f"seat {suspicion.reporter} signed a view of seat {suspicion.accused}'s chain"
                f" at envelope {suspicion.seq} that no signed envelope backed (unresolved)"
            )
            return [suspicion.reporter, suspicion.accused], what
        last = self._chains.last_envelope_of(seats[0]) if seats else None
        since = f" after its envelope {last.digest.hex()[:16]}" if last else ""
        return seats, f"{why}{since} while {phase} was due"
