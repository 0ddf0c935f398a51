"""One seat's view of a game over the fair-deal protocol, as a sans-IO state machine.

The face is h11's ``Connection``: feed it envelopes (``receive``) and the local
player's moves (``apply``, one of ``legal_moves()``); take the envelopes to
broadcast (``take_outgoing``), the events for the screen or bot
(``take_events``) and the envelopes accepted into the transcript
(``take_accepted``, the only thing a transcript writer appends).  It never
touches a socket, a clock or trio; the peer driver does.  An observer (no
signer) replays a transcript: that is ``p2pbelka verify``.

Every peer processes envelopes in one canonical order (``runner.py``), whatever
order they arrive in, so all transcripts of a game are identical.  What each
phase accepts and what comes next is the transition table in ``flow.py`` with the
game's own phases (``registry.py``).

Envelopes the local seat signs leave before the table processes them itself:
after producing one, the table stops (``deferred``) until its driver has sent
it and calls ``proceed``, so no peer waits for this seat's own checks.

The table is the face over the parts it owns: the chains and the local seat's
own (``chains.py``), who is at fault (``blame.py``), the phase runner
(``runner.py``) and the set-up of deals (``dealsetup.py``); to the phases' code it
is a ``context.TableContext``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from p2pbelka.fairdeal.deck import LocalSeat
from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.ids import derived_id
from p2pbelka.table import events as ev
from p2pbelka.table import flow, registry
from p2pbelka.table import moves as mv
from p2pbelka.table.blame import Blame, Suspicion, disputed
from p2pbelka.table.carry import Previous
from p2pbelka.table.chains import Chains, OwnChain, View
from p2pbelka.table.dealsetup import DealSetup, LotDraw
from p2pbelka.table.endings import is_ending
from p2pbelka.table.errors import OrderError
from p2pbelka.table.intake import MAX_AHEAD, IntakeError
from p2pbelka.table.opening import check_table
from p2pbelka.table.phase import Phase, PhaseId, Question
from p2pbelka.table.round import DealRound
from p2pbelka.table.runner import Outbox, Runner
from p2pbelka.table.track import GameTrack

UNSIGNED = (
    "this seat, resumed, does not hold all it signed before it stopped, so it signs"
    " nothing yet: the game stops here unfinished and can be resumed"
)
"""Why a held seat that gave up names nobody in its file (``Table.abandon``)."""

__all__ = ["OrderError", "Phase", "Suspicion", "Table"]


class Table:
    def __init__(
        self,
        game_id: bytes,
        *,
        signer: Signer | None = None,
        seed_source: Callable[[], bytes] = new_seed,
        previous: Previous | None = None,
        nonce: bytes | None = None,
        oldest_flow: int | None = None,
    ) -> None:
        """``previous``: the segment this one continues (its ``table`` must say so, and
        is checked against it: ``table/carry.py``); None for the first segment.

        ``nonce``: the fresh nonce the local seat contributed to this table (its lobby
        ``hello``, its ``seat_reclaim``): a table description that does not carry it at
        the local seat is refused before anything is signed, since an id derived from
        other nonces could be one the seat signed under before.  None: not checked (a
        resumed table, whose description the seat accepted before; a remaining seat of
        a continuation, whose own head at the cut binds it).

        ``oldest_flow``: the oldest schedule revision this table sits down to; by
        default ``messages.OLDEST_LIVE_FLOW`` for a seat's table (whose older tables
        let the host choose the game id) and any flow for an observer (``verify``)."""
        self.game_id = game_id
        self._nonce = nonce
        if oldest_flow is None:
            oldest_flow = m.OLDEST_LIVE_FLOW if signer is not None else min(m.FLOWS)
        self._oldest_flow = oldest_flow
        self._signer = signer
        self.audit_every_pass = False
        """Replay every seat's every pass at each deal's audit, even when the deck
        came out as the seeds say (``verify --every-pass``; see ``fairdeal/audit.py``)."""
        self._previous = previous
        self._me: int | None = None
        self._setup: m.TableMsg | None = None
        self._host = 0
        self.table_digest: bytes = b""
        self._track: GameTrack | None = None
        self._out = Outbox()
        self._chains = Chains()
        self._own = OwnChain(signer, game_id)
        self._blame = Blame(self._chains, game_id, lambda event: self._out.events.append(event))
        self._deals = DealSetup(game_id, seed_source)
        self._runner = Runner(self, self._chains, self._own, self._blame, self._out)
        self._pending_record: Envelope | None = None

    # -- construction ----------------------------------------------------------------

    @classmethod
    def host(
        cls,
        signer: Signer,
        setup: m.TableMsg,
        *,
        seed_source: Callable[[], bytes] = new_seed,
        previous: Previous | None = None,
        game_id: bytes | None = None,
        oldest_flow: int | None = None,
    ) -> Table:
        """The hosting seat's table: it signs the ``table`` envelope that opens the game
        (or a continuation segment of it, after ``previous``), under the id ``setup``
        derives (``protocol/ids.py``).  ``game_id``: only for a table before flow 3,
        whose host named one (tests of old transcripts)."""
        if game_id is None:
            game_id = derived_id(setup)
            if game_id is None:
                raise ValueError(f"a table of flow {setup.flow} derives no id: name one")
        table = cls(
            game_id,
            signer=signer,
            seed_source=seed_source,
            previous=previous,
            oldest_flow=oldest_flow,
        )
        envelope = table._runner.seal(0, setup)
        table._out.outgoing.append(envelope.raw)
        table.receive(envelope.raw)
        return table

    @classmethod
    def resume(
        cls,
        signer: Signer,
        envelopes: Sequence[Envelope],
        *,
        seed_source: Callable[[], bytes],
        previous: Previous | None = None,
    ) -> Table:
        """Rebuild a seat's table from its own transcript, after a crash.

        ``seed_source`` must give the same values, in the same order, as the lost
        table drew them (lot value, then one seed per deal): a peer keeps them on
        disk.  The table is *held*: it sends nothing until ``release``, so the
        driver can first fetch what the others hold (its own envelopes sent just
        before the crash included; those are reused, never signed anew, or the
        seat would equivocate).  Raises ``OrderError`` if the transcript does not
        replay.  The replayed envelopes are not offered again by ``take_accepted``.
        """
        if not envelopes:
            raise OrderError("an empty transcript: nothing to resume")
        table = cls(envelopes[0].game, signer=signer, seed_source=seed_source, previous=previous)
        table._runner.held = True
        for i, envelope in enumerate(envelopes):
            if table.finished:
                raise OrderError("envelope after the end of the game")
            table.replay(envelope, envelopes[i + 1] if i + 1 < len(envelopes) else None)
        table._chains.forget_accepted()
        table._own.forget_signed()
        table._out.outgoing.clear()
        return table

    # -- what anyone may read ---------------------------------------------------------

    @property
    def phase(self) -> PhaseId:
        """The phase the table is in: one of ``Phase`` or of the game's own."""
        return self._runner.phase

    @property
    def on_transition(self) -> Callable[[PhaseId, PhaseId], None] | None:
        """Told every change of phase, (from, to): for a test or a tracer."""
        return self._runner.on_transition

    @on_transition.setter
    def on_transition(self, hook: Callable[[PhaseId, PhaseId], None] | None) -> None:
        self._runner.on_transition = hook

    @property
    def me(self) -> int | None:
        """The local seat, or None for an observer (or before the table description)."""
        return self._me

    @property
    def setup(self) -> m.TableMsg | None:
        return self._setup

    @property
    def n_seats(self) -> int:
        return len(self._setup.seats) if self._setup else 0

    @property
    def host_seat(self) -> int:
        return self._host

    @property
    def seed_source(self) -> Callable[[], bytes]:
        """Where the local seat's secrets for this segment come from (a continuation
        segment has a source of its own: nothing drawn for one segment is used in
        another)."""
        return self._deals.seed_source

    @property
    def previous(self) -> Previous | None:
        """The segment this table continues (None in a game's first segment)."""
        return self._previous

    @property
    def game(self) -> Any:
        """The rules engine's state of the game (None before the lot)."""
        return self._track.game if self._track is not None else None

    @property
    def track(self) -> GameTrack:
        assert self._track is not None, "the game has not started"
        return self._track

    @property
    def started(self) -> bool:
        return self._track is not None

    @property
    def round(self) -> DealRound:
        assert self._deals.round is not None, "no deal in progress"
        return self._deals.round

    @property
    def _round(self) -> DealRound | None:
        """The deal in progress, or None (for tests that wait for one)."""
        return self._deals.round

    @property
    def _next_local(self) -> LocalSeat | None:
        """The local seat's next deal made ahead by ``prepare`` (for its tests)."""
        return self._deals.next_local

    @property
    def deal_id(self) -> int:
        return self._deals.deal_id

    @property
    def lots(self) -> LotDraw:
        return self._deals.lots

    @property
    def turn(self) -> int | None:
        """The seat whose envelope is processed next, or None (finished)."""
        return self._runner.turn

    @property
    def transcript(self) -> Sequence[Envelope]:
        return self._chains.transcript

    @property
    def progress(self) -> int:
        """How far the game got: the transcript's length, less the envelopes refused
        when due that it records (a seat whose envelopes are refused makes none)."""
        return len(self._chains.transcript) - self._chains.refused_records

    @property
    def faults(self) -> Sequence[ev.Fault]:
        return self._blame.faults

    @property
    def finished(self) -> bool:
        return self._runner.finished

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def aborted(self) -> bool:
        return self.phase is Phase.ABORTED

    @property
    def proven(self) -> bool:
        """The game ended on a proven fault (nothing that comes after changes that)."""
        return self._runner.proven

    @property
    def held(self) -> bool:
        return self._runner.held

    @property
    def short_of_own(self) -> bool:
        """True when the local seat must send next an envelope it signed before (a
        crash lost it) that has not come back yet: it signs nothing until it has."""
        if self._me is None or not self._chains.opened or self.finished:
            return False
        return self._own.seq < self._own.known and self._runner.own_pending() is None

    @property
    def deferred(self) -> bool:
        """True when the table stopped so its driver can send what it signed."""
        return self._runner.deferred

    def seat_of(self, key: bytes) -> int | None:
        return self._chains.seat_of(key)

    def awaiting_player(self) -> bool:
        """Whether what is due may be a person's decision (a card, a game's own call or
        choice), rather than work a program does in milliseconds."""
        step = self._runner.step_or_none()
        return step is not None and step.decision and self.suspicion is None

    def missing(self) -> list[int]:
        """Seats the table is waiting for (for a driver's timeout): the seat whose
        envelope would settle a differing view; else the seats an ending that came
        waits for, and the seat due (in the closing exchange, every seat whose
        ``close`` has not come)."""
        if self.finished:
            return []
        settles = self._blame.waited_for(self._me)
        if settles is not None:
            return [settles]
        seats = set(self._runner.endings.needs())
        seats.update(self._runner.unclosed())
        if self.turn is not None:
            seats.add(self.turn)
        return sorted(seats)

    @property
    def closing(self) -> bool:
        """The rules say the game is won and its last audit passed (flow 3): its last
        ``deal_end``s and the closing exchange are due, and a give-up ends the game
        won, naming the seats that did not close."""
        return self._runner.won

    @property
    def suspicion(self) -> Suspicion | None:
        return self._blame.suspicion

    # -- what the driver takes ----------------------------------------------------------

    def take_outgoing(self) -> list[bytes]:
        out, self._out.outgoing = self._out.outgoing, []
        return out

    def take_events(self) -> list[ev.Event]:
        out, self._out.events = self._out.events, []
        return out

    def take_signed(self) -> list[Envelope]:
        """Envelopes this table signed since the last call.  A peer makes them durable,
        with everything they were computed from, before it sends them
        (``take_outgoing``), so that after a crash it hands them back to a resumed
        table instead of signing a different one for the same place."""
        return self._own.take_signed()

    def take_accepted(self) -> list[Envelope]:
        """Envelopes accepted into the transcript since the last call, in order."""
        return self._chains.take_accepted()

    # -- envelopes in --------------------------------------------------------------------

    def receive(self, raw: bytes) -> None:
        """An envelope from the network (or a transcript).  Never raises on bad input."""
        try:
            envelope = open_envelope(raw)
        except ProtocolError as exc:
            self._out.events.append(ev.Rejected(f"malformed envelope: {exc}"))
            return
        self.receive_envelope(envelope)

    def receive_envelope(self, envelope: Envelope) -> None:
        if envelope.game != self.game_id:
            self._out.events.append(ev.Rejected("envelope of another game"))
            return
        if self._setup is None:
            self._receive_table(envelope)
            return
        seat = self.seat_of(envelope.sender)
        if seat is None:
            self._out.events.append(ev.Rejected("sender is not seated at this table"))
            return
        if self.finished:
            # Still taken for one purpose: another envelope for a place held is proof.
            self._runner.after_end(seat, envelope)
            return
        endings = self._runner.endings
        if isinstance(envelope.msg, m.EvidenceMsg) and not endings.from_file:
            if endings.from_evidence(envelope.msg):
                # The pair it encloses ended the game; the evidence is still its
                # sender's envelope, held at its place: another one there is proof.
                self._runner.after_end(seat, envelope)
                return
        self._runner.offer(seat, envelope)

    def replay(self, envelope: Envelope, following: Envelope | None = None) -> None:
        """Feed a transcript envelope (verify, resume): the one due next, an ending, a
        proof record (another envelope for a place an earlier record holds), or the
        first of two proof records (``following`` is another envelope for its place).
        Raises ``OrderError`` for anything else."""
        pending, self._pending_record = self._pending_record, None
        expected = len(self.transcript) + (2 if pending is not None else 1)
        if self._setup is not None and not self.finished and pending is None:
            self._check_order(envelope, following)
            if self._hold_first_of_pair(envelope, following):
                return
        endings = self._runner.endings
        endings.from_file = True
        try:
            self.receive_envelope(envelope)
            self.proceed()
        finally:
            endings.from_file = False
        recorded = len(self.transcript)
        if recorded == expected:
            return
        if recorded == expected - 1 and pending is None and is_pair(envelope, following):
            self._pending_record = envelope
            return
        if pending is not None:
            raise OrderError(
                f"the record before (seat {self.seat_of(pending.sender)}, seq {pending.seq})"
                " came out of order, and this one is no other envelope for its place"
            )
        rejected = [e for e in self._out.events if isinstance(e, ev.Rejected)]
        if rejected:
            raise OrderError(rejected[-1].reason)
        if self.finished:
            raise OrderError("envelope after the end of the game")
        raise OrderError(self._blame.why_waiting(self.seat_of(envelope.sender), envelope))

    def _hold_first_of_pair(self, envelope: Envelope, following: Envelope | None) -> bool:
        """The first of two proof records is queued at its place, never processed: the
        live table held it waiting when the other came, and it may happen to be due
        here (processed, it would prove something else, or the second would come
        after the end).  True if it was queued so."""
        seat = self.seat_of(envelope.sender)
        if seat is None or is_ending(envelope) or not is_pair(envelope, following):
            return False
        chain = self._chains.intake.chains[seat]
        if envelope.seq < chain.next_seq or envelope.seq in chain.waiting:
            return False  # its place is held already: the ordinary path proves it
        if envelope.seq in chain.refused:
            return False  # kept there though refused: the same
        try:
            self._chains.intake.offer(seat, envelope)
        except IntakeError:
            return False
        self._pending_record = envelope
        return True

    @property
    def pending_record(self) -> Envelope | None:
        """A transcript record replayed as the first of two proof records, whose second
        has not come yet (at the end of a file: a record out of order)."""
        return self._pending_record

    def _check_order(self, envelope: Envelope, following: Envelope | None) -> None:
        """A record of a game in progress must be due next, an ending, a proof record, or
        the first of two."""
        seat = self.seat_of(envelope.sender)
        if seat is None:
            raise OrderError(
                f"out of order: expected seat {self.turn}'s next message, got an unseated key"
            )
        chain = self._chains.intake.chains[seat]
        due = seat == self.turn and envelope.seq == chain.next_seq
        held = chain.accepted.get(envelope.seq)
        proof = held is not None and held != envelope.digest
        queued = chain.waiting.get(envelope.seq) or chain.refused.get(envelope.seq)
        proof = proof or (queued is not None and queued.digest != envelope.digest)
        if due or proof or is_ending(envelope) or is_pair(envelope, following):
            return
        raise OrderError(
            f"out of order: expected seat {self.turn}'s next message,"
            f" got seat {seat} (seq {envelope.seq})"
        )

    def _receive_table(self, envelope: Envelope) -> None:
        checked = check_table(envelope, self._previous, self._oldest_flow)
        if isinstance(checked, ev.Rejected):
            self._out.events.append(checked)
            return
        assert isinstance(envelope.msg, m.TableMsg)
        why = self._not_ours(envelope.msg)
        if why:
            self._out.events.append(ev.Rejected(why))
            return
        self._setup, (self._host, self._runner.schedule) = envelope.msg, checked
        self._chains.open(tuple(info.key for info in self._setup.seats))
        if self._signer is not None:
            self._me = self.seat_of(self._signer.public_key)
        self._deals.seat(self._setup, self._me)
        intake = self._chains.intake
        intake.offer(self._host, envelope)
        intake.accept(self._host)
        self._runner.accepted(envelope)
        self.table_digest = envelope.digest
        self._runner.start(Phase.SIT)
        self._runner.act()
        self._runner.drain()

    def _not_ours(self, setup: m.TableMsg) -> str:
        """Why a table description carrying no nonce of ours at our seat is refused
        ("" if it carries it, or if there is no nonce to check)."""
        if self._nonce is None or self._signer is None:
            return ""
        key = self._signer.public_key
        seat = next((s for s, info in enumerate(setup.seats) if info.key == key), None)
        if seat is None:
            return "the table description does not seat this key"
        if seat >= len(setup.nonces) or setup.nonces[seat] != self._nonce:
            return (
                f"the table description does not carry this seat's nonce at seat {seat}:"
                " it was not made for this sitting (its id could be one we signed under)"
            )
        return ""

    # -- the local player's moves ------------------------------------------------------------

    def legal_moves(self) -> list[mv.Move]:
        """The moves ``apply`` accepts now: empty unless the local seat is asked."""
        return self._runner.legal_moves()

    def apply(self, move: mv.Move) -> None:
        """Make the local player's move: sign and send what it means.  ``MoveRefused`` if
        the move is not one of ``legal_moves()``."""
        self._runner.apply(move)

    # -- the driver's controls ----------------------------------------------------------------

    def release(self) -> None:
        """Let a resumed table speak for its seat again: it sends what it owes now."""
        runner = self._runner
        if not runner.held:
            return
        runner.held = False
        runner.question = None
        if self._deals.round is not None:
            deck = self._deals.round.deck
            deck.multiply_ahead = deck.local is not None
        runner.act()
        runner.drain()

    def stop_at_deal(self, deal_id: int | None) -> None:
        """Send nothing more for deal ``deal_id`` or later: the local seat hands over
        there (it goes on answering for the deals before).  The others then wait
        at that deal, where the seat can change hands with nothing dealt to it.
        None: go on after all (the seat change did not happen)."""
        self._runner.stop_at_deal = deal_id
        if deal_id is None:
            self._runner.act()
            self._runner.drain()

    def proceed(self) -> None:
        """Go on processing after stopping for the driver to send (``deferred``)."""
        self._runner.deferred = False
        self._runner.drain()

    def prepare(self) -> bool:
        """Do one short piece of work that is not due yet but will be, while the
        driver has nothing else to do: the local seat's secrets for the next deal,
        then, if it will likely shuffle first in it, its shuffle of the initial deck
        (32 multiplications that would otherwise start the next deal's passes).
        True if it did something (call again when still idle).  The next deal's seed
        is drawn early, but in the same order as ever (one per deal, after the lot),
        so a resumed table's seed source still lines up; if the game ends first, the
        seed is never used.

        Before the first deal, while the seats draw lots: the game's card points (in
        fair-deal version 2 hashing to the group costs about 11 ms for the deck),
        which every seat needs at the first pass, the first shuffler at once."""
        if not self.finished and self._deals.prepare_cards():
            return True
        if (
            self._signer is None
            or self._me is None
            or self.held
            or self.finished
            or self._deals.round is None
            or self._track is None
        ):
            return False
        return self._deals.prepare_next(self._track)

    def abandon(self, seats: list[int], why: str = "went silent") -> None:
        """The driver gave up waiting: end the game *disputed*, naming ``seats`` (or,
        while a view is unsettled, its reporter and the seat it accuses).  The local
        seat signs the accusation (a ``dispute`` envelope) so its transcript says who
        it named and why; nothing in it proves the accusation.  A seat that may not
        sign yet (resumed, and not caught up with its own chain) signs nothing (a
        dispute could fill a place it filled before the crash): its game stops
        unfinished (``left``), as its file reads, and can be resumed later."""
        if self.finished:
            return
        runner = self._runner
        if self.closing:
            # The game is won: the seats whose close was not taken are named, and the
            # result stands (a seat cannot deny the others theirs by never closing).
            # A close whose view nobody backed was not taken either: its sender is
            # named the same way (the closes' views cover only the last deal's
            # ``deal_end``s, which change nothing of the result), and ``verify``
            # reads the dispute signed here as a won game too.
            unclosed = {s for s in runner.unclosed() if s != self._me}
            suspicion = self._blame.suspicion
            if suspicion is not None:
                _, why = self._blame.abandoned(seats, why, self.phase.value, self._me)
                unclosed.add(suspicion.reporter)
            named_seats = sorted(unclosed or set(seats))
            named = m.DisputeMsg(tuple(named_seats), why)
            if named_seats and self._me is not None and runner.sign_ending(named):
                runner.end_won(self._blame.unclosed(self._me, named, self.deal_id))
            else:
                # Nothing recorded (a seat that may not sign): named as its file
                # will be read, every seat whose close it does not hold.
                runner.end_won(self.unrecorded_closes())
            return
        seats, what = self._blame.abandoned(seats, why, self.phase.value, self._me)
        if runner.sign_ending(m.DisputeMsg(tuple(sorted(set(seats))), what)) is None:
            unsigned = f"{what}; not recorded: {UNSIGNED}"
            runner.leave([replace(f, fatal=False) for f in disputed(seats, unsigned, self.deal_id)])
            return
        runner.abort(*disputed(seats, what, self.deal_id))

    def stop_unsigned(self, seat: int, why: str) -> None:
        """The local peer stops waiting without a word signed and no seat named (it
        reached no other seat: the others went on without it).  The game stops here
        unfinished, as its file reads (``verify``: INCOMPLETE), and may be resumed;
        ``seat`` (ours) and ``why`` only tell the player."""
        if not self.finished:
            self._runner.leave([ev.Fault(seat, why, (), False, self.deal_id or None, False)])

    def unrecorded_closes(self) -> list[ev.Fault]:
        """Once the game is won (``closing``): a note naming every seat whose ``close``
        (or last ``deal_end``) the transcript does not hold; ``verify`` of a file that
        ends there reads a won game naming these (SPEC section 5.1)."""
        return self._blame.not_recorded(self._runner.untaken(), self.deal_id)

    def wants(self) -> list[int]:
        """For each seat, the first sequence number this table does not hold (for a
        resend request), and while a view is unsettled the places that could settle
        it; empty before the table description arrived."""
        return self._blame.wants(self._me)

    def envelopes_from(
        self, seat: int, seq: int, limit: int = MAX_AHEAD, *, newest: bool = False
    ) -> list[bytes]:
        """``seat``'s envelopes from ``seq`` on that this table holds, accepted or
        waiting, in chain order: the answer to a resend request (any peer may relay).
        At most ``limit`` (what the asker's table takes at once); with ``newest``
        (``seat`` is the asker's own) the newest follows when the answer is cut, so
        a resumed seat learns how long its chain is and never signs again a place it
        filled before it stopped.  The local seat's envelopes its driver has not
        taken to send yet are left out: they leave only once they are on the disk
        (the driver may be waiting for it while the links answer)."""
        found = self._chains.envelopes_from(seat, seq, limit, newest)
        if seat != self._me or not self._out.outgoing:
            return found
        unsent = set(self._out.outgoing)
        return [raw for raw in found if raw not in unsent]

    def chain_heads(self) -> tuple[bytes, ...]:
        return self._chains.intake.heads()

    def view(self) -> View:
        """What this table has accepted of every chain: the view it signs now."""
        return self._chains.intake.view()

    # -- what a seat says, and how a message is handled -----------------------------------------

    def compose(self) -> m.Message | Question | None:
        """What the local seat sends now that its turn has come, or the question its
        player must answer.  (The one place a dishonest test table lies.)"""
        return self._runner.step().own(self)

    def handle(self, seat: int, msg: m.Message) -> None:
        """Apply ``seat``'s message, which the schedule says is due (raises ``Abort``)."""
        self._runner.step().handlers[type(msg)](self, seat, msg)

    # -- for the phases' code (context.TableContext) -------------------------------------------

    def emit(self, event: ev.Event) -> None:
        self._out.events.append(event)

    def fault(
        self, seat: int, what: str, envelope: Envelope | None = None, fatal: bool = True
    ) -> ev.Fault:
        """A fault proven by ``seat``'s envelope (by default the last one accepted)."""
        return self._blame.fault(seat, what, envelope, fatal, self.deal_id)

    def dispute(self, seat: int, what: str) -> None:
        """Note a problem no seat can be blamed for yet: the audit will decide."""
        self.round.disputes.append(
            self.fault(seat, what)
            if seat >= 0
            else ev.Fault(-1, what, deal=self.deal_id, proven=False)
        )

    def draw_secret(self) -> bytes:
        return self._deals.seed_source()

    def open_position(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        return flow.open_position(self, seat, opening)

    def continue_game(self) -> bool:
        """Every seat sat: in a continuation segment, go on from the rules' state the
        previous segment left (True); False in a game's first segment (the lot follows)."""
        previous = self._previous
        if previous is None:
            return False
        assert self._setup is not None
        track = registry.track_class(self._setup.game).resumed(self._setup, previous.state)
        self._track = track
        self._deals.deal_id = track.deal_number
        self._emit_started(track.dealer, continued=True)
        return True

    def start_game(self, first_dealer: int) -> None:
        assert self._setup is not None
        self._track = registry.track_class(self._setup.game).new(self._setup, first_dealer)
        self._emit_started(first_dealer)
        self.begin_deal()

    def _emit_started(self, dealer: int, continued: bool = False) -> None:
        setup, track = self._setup, self.track
        assert setup is not None
        names = tuple(s.name for s in setup.seats)
        keys = tuple(s.key for s in setup.seats)
        options = dict(track.game.options.to_dict())
        standing = track.standing()
        self.emit(
            ev.GameStarted(setup.game, names, keys, dealer, self._me, options, standing, continued)
        )

    @property
    def flow(self) -> int:
        """The schedule revision the table description names (``TableMsg.flow``)."""
        return self._setup.flow if self._setup is not None else m.FLOW

    @property
    def carries_commitments(self) -> bool:
        """Flow 2 and later: a ``deal_end`` carries its sender's commitment for the next
        deal."""
        return self.flow >= 2

    def carry_commitment(self, seat: int, commitment: bytes) -> None:
        """``seat``'s commitment for the next deal id, from its ``deal_end``."""
        self._deals.carry_commitment(seat, commitment)

    def upcoming_commitment(self) -> bytes:
        """The local seat's commitment for the next deal id (its secrets for that deal
        are made now, if ``prepare`` has not made them yet: the seed is drawn in the
        same order as ever, one per deal)."""
        return self._deals.upcoming_commitment()

    def begin_deal(self) -> None:
        self.emit(self._deals.begin(self.track, self.audit_every_pass))
        # A held table replays its own transcript: its passes are there already.
        self.round.deck.multiply_ahead = self.round.deck.local is not None and not self.held


def is_pair(first: Envelope, second: Envelope | None) -> bool:
    """Whether ``second`` is another envelope for ``first``'s place: two records of a
    transcript that prove their sender signed twice."""
    return (
        second is not None
        and second.game == first.game
        and second.sender == first.sender
        and second.seq == first.seq
        and second.digest != first.digest
    )
