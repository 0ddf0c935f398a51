"""One seat's view of a game over the fair-deal protocol, as a sans-IO state machine.

The face is h11's ``Connection``: feed it envelopes (``receive``) and the local
player's moves (``apply``, one of ``legal_moves()``); take the envelopes to
broadcast (``take_outgoing``), the events for the screen or bot
(``take_events``) and the envelopes accepted into the transcript
(``take_accepted``, the only thing a transcript writer appends).  It never
touches a socket, a clock or trio; the peer driver does.  An observer (no
signer) replays a transcript: that is ``p2pbelka verify``.

Every peer processes envelopes in one canonical order (``_drain``), whatever
order they arrive in, so all transcripts of a game are identical.  What each
phase accepts and what comes next is the transition table in ``flow.py``.

Envelopes the local seat signs leave before the table processes them itself:
after producing one, the table stops (``deferred``) until its driver has sent
it and calls ``proceed``, so no peer waits for this seat's own checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from p2pbelka.cards import CARDS
from p2pbelka.fairdeal.deck import LocalSeat, initial_deck
from p2pbelka.fairdeal.derive import DealContext, new_seed
from p2pbelka.fairdeal.errors import FairDealError
from p2pbelka.fairdeal.versions import check_version
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table import registry
from p2pbelka.table.carry import Previous, check_continuation
from p2pbelka.table.dealdeck import DealDeck, DeckFault
from p2pbelka.table.dealsetup import LotDraw
from p2pbelka.table.errors import MoveRefused, OrderError
from p2pbelka.table.flow import Schedule
from p2pbelka.table.intake import MAX_AHEAD, Equivocation, Intake, IntakeError
from p2pbelka.table.phase import Abort, Phase, PhaseId, Question, Step
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack

__all__ = ["OrderError", "Phase", "Suspicion", "Table"]

N_POSITIONS = 32


@dataclass(frozen=True, slots=True)
class Suspicion:
    """``reporter`` signed a view in which ``accused``'s envelope number ``seq`` hashes
    to ``claimed``, not to the one we accepted."""

    reporter: int
    accused: int
    seq: int
    claimed: bytes


SentKey = tuple[int, str, int]
"""One thing the local seat owes (deal, phase, slot): it is never signed twice."""


class Table:
    def __init__(
        self,
        game_id: bytes,
        *,
        signer: Signer | None = None,
        seed_source: Callable[[], bytes] = new_seed,
        previous: Previous | None = None,
    ) -> None:
        """``previous``: the segment this one continues (its ``table`` must say so, and
        is checked against it: ``table/carry.py``); None for the first segment."""
        self.game_id = game_id
        self._signer = signer
        self._seed_source = seed_source
        self.audit_every_pass = False
        """Replay every seat's every pass at each deal's audit, even when the deck
        came out as the seeds say (``verify --every-pass``; see ``fairdeal/audit.py``)."""
        self._previous = previous
        # A seat that stops before a deal (its seat changes hands there): ``_act`` sends
        # nothing for a deal with this id or later.
        self._stop_at_deal: int | None = None
        self._me: int | None = None
        self._setup: m.TableMsg | None = None
        self._host = 0
        self.table_digest: bytes = b""
        self._phase: PhaseId = Phase.SIT
        self.on_transition: Callable[[PhaseId, PhaseId], None] | None = None
        """Told every change of phase, (from, to): for a test or a tracer."""
        self._schedule: Schedule | None = None
        self._track: GameTrack | None = None
        self._round: DealRound | None = None
        self._cards_ready = False  # the game's card points are computed (``prepare``)
        self.lots = LotDraw()
        self._deal_id = 0
        self._transcript: list[Envelope] = []
        self._faults: list[ev.Fault] = []
        self._intake: Intake | None = None
        # what the driver takes
        self._outgoing: list[bytes] = []
        self._events: list[ev.Event] = []
        self._new_accepted: list[Envelope] = []
        self._new_signed: list[Envelope] = []
        # Digests of those a restart would sign again byte for byte (``reproducible``).
        self._reproducible: set[bytes] = set()
        # the local seat's own chain
        self._my_seq = 0
        self._my_prev = ZERO_HASH
        # 1 + the highest sequence number of ours seen anywhere (kept, handed back, or
        # refused as too far ahead): after a crash, no place below it is signed anew.
        self._own_known = 0
        self._sent: set[SentKey] = set()
        self._question: tuple[SentKey, Question] | None = None
        # the schedule
        self._order: list[int] = []
        self._slot = 0
        self._prelude_due = False  # the phase's prelude has not run yet
        self._entry_view: tuple[tuple[int, bytes], ...] = ()  # when the phase began
        self._draining = False
        self._deferred = False
        # A resumed seat stays silent until its driver has fetched what the others hold.
        self._hold = False
        # A view that differs from ours: processing waits for the envelope behind it.
        self._suspicion: Suspicion | None = None
        # The local seat's next deal, made ahead of time by ``prepare``.
        self._next_local: LocalSeat | None = None
        # Flow 2: the next deal's commitments, carried on this deal's deal_ends.
        self._carried: dict[int, bytes] = {}
        self._seed_carried = False  # the previous segment's pending seed was used

    # -- construction ----------------------------------------------------------------

    @classmethod
    def host(
        cls,
        signer: Signer,
        game_id: bytes,
        setup: m.TableMsg,
        *,
        seed_source: Callable[[], bytes] = new_seed,
        previous: Previous | None = None,
    ) -> Table:
        """The hosting seat's table: it signs the ``table`` envelope that opens the game
        (or a continuation segment of it, after ``previous``)."""
        table = cls(game_id, signer=signer, seed_source=seed_source, previous=previous)
        envelope = table._seal(0, setup)
        table._outgoing.append(envelope.raw)
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
        table._hold = True
        for envelope in envelopes:
            if table.finished:
                raise OrderError("envelope after the end of the game")
            table.replay(envelope)
        table._new_accepted.clear()
        table._new_signed.clear()
        table._outgoing.clear()
        return table

    # -- what anyone may read ---------------------------------------------------------

    @property
    def phase(self) -> PhaseId:
        """The phase the table is in: one of ``Phase`` or of the game's own."""
        return self._phase

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
        """Where the local seat's secrets come from: a continuation segment of this game
        draws from the same source, so a resumed peer draws them in the same order."""
        return self._seed_source

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
        assert self._round is not None, "no deal in progress"
        return self._round

    @property
    def deal_id(self) -> int:
        return self._deal_id

    @property
    def turn(self) -> int | None:
        """The seat whose envelope is processed next, or None (finished)."""
        if self.finished or not self._order:
            return None
        return self._order[self._slot]

    @property
    def transcript(self) -> Sequence[Envelope]:
        return self._transcript

    @property
    def faults(self) -> Sequence[ev.Fault]:
        return self._faults

    @property
    def finished(self) -> bool:
        return self._phase in (Phase.OVER, Phase.ABORTED)

    @property
    def over(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def aborted(self) -> bool:
        return self._phase is Phase.ABORTED

    @property
    def held(self) -> bool:
        return self._hold

    @property
    def short_of_own(self) -> bool:
        """True when the local seat must send next an envelope it signed before (a
        crash lost it) that has not come back yet: it signs nothing until it has."""
        if self._me is None or self._intake is None or self.finished:
            return False
        return self._my_seq < self._own_known and self._own_pending() is None

    @property
    def deferred(self) -> bool:
        """True when the table stopped so its driver can send what it signed."""
        return self._deferred

    def seat_of(self, key: bytes) -> int | None:
        if self._setup is None:
            return None
        for seat, info in enumerate(self._setup.seats):
            if info.key == key:
                return seat
        return None

    def awaiting_player(self) -> bool:
        """Whether what is due may be a person's decision (a card, a re-deal, the eggs),
        rather than work a program does in milliseconds."""
        step = self._step_or_none()
        return step is not None and step.decision and self._suspicion is None

    def missing(self) -> list[int]:
        """Seats the table is waiting for (for a driver's timeout): the seat due, or the
        seat whose envelope would settle a differing view."""
        if self._suspicion is not None and not self.finished:
            return [self._suspicion.accused]
        seat = self.turn
        return [] if seat is None else [seat]

    @property
    def suspicion(self) -> Suspicion | None:
        return self._suspicion

    # -- what the driver takes ----------------------------------------------------------

    def take_outgoing(self) -> list[bytes]:
        out, self._outgoing = self._outgoing, []
        return out

    def take_events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        return out

    def take_signed(self) -> list[Envelope]:
        """Envelopes this table signed since the last call.  A peer makes them durable
        before it sends them (``take_outgoing``), so that after a crash it hands them
        back to a resumed table instead of signing a different one for the same place
        (except those ``reproducible`` says a restart signs again unchanged)."""
        out, self._new_signed = self._new_signed, []
        return out

    def reproducible(self, envelope: Envelope) -> bool:
        """Whether a table resumed before ``envelope`` (which it signed) would sign the
        same bytes again for that place, so a peer need not wait for the disk before
        sending it: a message the schedule makes by itself in a deal (a pass, shares,
        a reveal, a deal end...) or a decision with one legal move in a phase where
        seats speak in turn.  Its body follows from the seat's saved secrets and the
        transcript before it, its view from where the schedule stands (``_seal``),
        and Ed25519 signatures are deterministic.  A choice among several moves, and
        anything before the first deal or outside the schedule, is not."""
        return envelope.digest in self._reproducible

    def take_accepted(self) -> list[Envelope]:
        """Envelopes accepted into the transcript since the last call, in order."""
        out, self._new_accepted = self._new_accepted, []
        return out

    # -- envelopes in --------------------------------------------------------------------

    def receive(self, raw: bytes) -> None:
        """An envelope from the network (or a transcript).  Never raises on bad input."""
        try:
            envelope = open_envelope(raw)
        except ProtocolError as exc:
            self._events.append(ev.Rejected(f"malformed envelope: {exc}"))
            return
        self.receive_envelope(envelope)

    def receive_envelope(self, envelope: Envelope) -> None:
        if envelope.game != self.game_id:
            self._events.append(ev.Rejected("envelope of another game"))
            return
        if self._setup is None:
            self._receive_table(envelope)
            return
        seat = self.seat_of(envelope.sender)
        if seat is None:
            self._events.append(ev.Rejected("sender is not seated at this table"))
            return
        if self.finished:
            self._events.append(ev.Rejected("the game is over", seat))
            return
        if isinstance(envelope.msg, m.EvidenceMsg | m.DisputeMsg):
            self._receive_ending(seat, envelope)
            return
        if seat == self._me:
            # Ours, so signed by us: a place in our chain we must never fill again.
            self._own_known = max(self._own_known, envelope.seq + 1)
        self._compare_view_early(seat, envelope)
        try:
            self._chains().offer(seat, envelope)
        except Equivocation as exc:
            ours = exc.known or self._accepted_envelope(seat, exc.seq)
            self._prove_equivocation(seat, ours, envelope)
            return
        except IntakeError as exc:
            if seat != self._me:  # ours too far ahead: noted above, asked for again later
                self._events.append(ev.Rejected(str(exc), seat))
            return
        self._drain()

    def replay(self, envelope: Envelope) -> None:
        """Feed a transcript envelope, which must be exactly the one due next (verify)."""
        ending = isinstance(envelope.msg, m.EvidenceMsg | m.DisputeMsg)
        if self._setup is not None and not self.finished and not ending:
            due = self.turn
            seat = self.seat_of(envelope.sender)
            if seat is None or seat != due or envelope.seq != self._chains().chains[seat].next_seq:
                who = "an unseated key" if seat is None else f"seat {seat} (seq {envelope.seq})"
                raise OrderError(f"out of order: expected seat {due}'s next message, got {who}")
        before = len(self._transcript)
        self.receive_envelope(envelope)
        self.proceed()
        if len(self._transcript) == before and not self.finished:
            rejected = [e for e in self._events if isinstance(e, ev.Rejected)]
            raise OrderError(rejected[-1].reason if rejected else "envelope not accepted")

    # -- the local player's moves ------------------------------------------------------------

    def legal_moves(self) -> list[mv.Move]:
        """The moves ``apply`` accepts now: empty unless the local seat is asked."""
        if self._question is None or self._question[0] in self._sent:
            return []
        return list(self._question[1].moves)

    def apply(self, move: mv.Move) -> None:
        """Make the local player's move: sign and send what it means.  ``MoveRefused`` if
        the move is not one of ``legal_moves()``."""
        moves = self.legal_moves()
        if not moves:
            raise MoveRefused(f"{move}: nothing is asked of you now")
        if move not in moves:
            kind = self._question[1].kind if self._question else "move"
            raise MoveRefused(f"{move} is not a legal {kind} now")
        assert self._question is not None
        key, question = self._question
        step = self._step()
        forced = len(question.moves) == 1 and not step.parallel and not step.before_deals
        msg = self._schedule_or_fail().moves[type(move)](self, move)
        self._send_once(key, msg, reproducible=forced)

    # -- the driver's controls ----------------------------------------------------------------

    def release(self) -> None:
        """Let a resumed table speak for its seat again: it sends what it owes now."""
        if not self._hold:
            return
        self._hold = False
        self._question = None
        self._act()
        self._drain()

    def stop_at_deal(self, deal_id: int | None) -> None:
        """Send nothing more for deal ``deal_id`` or later: the local seat hands over
        there (it goes on answering for the deals before).  The others then wait
        at that deal, where the seat can change hands with nothing dealt to it.
        None: go on after all (the handover did not happen)."""
        self._stop_at_deal = deal_id
        if deal_id is None:
            self._act()
            self._drain()

    def proceed(self) -> None:
        """Go on processing after stopping for the driver to send (``deferred``)."""
        self._deferred = False
        self._drain()

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
        if not self._cards_ready and self._setup is not None and not self.finished:
            self._cards_ready = True
            initial_deck(self._deal_context(self._deal_id))
            return True
        if (
            self._signer is None
            or self._me is None
            or self._hold
            or self.finished
            or self._round is None
            or self._track is None
            or self._setup is None
        ):
            return False
        nxt = self._next_local
        if nxt is None:
            self.upcoming_commitment()
            return True
        # The next dealer is usually the seat after this one (a counted re-deal keeps
        # the dealer, and then this work is wasted): its pass order starts after it.
        if (self._track.dealer + 2) % self.n_seats != self._me:
            return False
        return nxt.prepare_first_shuffle()

    def abandon(self, seats: list[int], why: str = "went silent") -> None:
        """The driver gave up waiting: end the game *disputed*, naming ``seats`` (or,
        while a view is unsettled, its reporter and the seat it accuses).  The local
        seat signs the accusation (a ``dispute`` envelope) so its transcript says who
        it named and why; nothing in it proves the accusation.  A seat that may not
        sign yet (resumed, and not caught up with its own chain) ends its game
        unsigned: a dispute could fill a place it filled before the crash."""
        if self.finished:
            return
        suspicion = self._suspicion
        if suspicion is not None:
            seats = [suspicion.reporter, suspicion.accused]
            what = (
                f"seat {suspicion.reporter} signed a view of seat {suspicion.accused}'s chain"
                f" at envelope {suspicion.seq} that no signed envelope backed (unresolved)"
            )
        else:
            last = self._last_envelope_of(seats[0]) if seats else None
            since = f" after its envelope {last.digest.hex()[:16]}" if last else ""
            what = f"{why}{since} while {self._phase.value} was due"
        if self._signer is not None and self._me is not None and self._may_sign():
            record = self._seal(self._deal_id, m.DisputeMsg(tuple(sorted(set(seats))), what))
            self._outgoing.append(record.raw)
            self._accepted(record)
        self._abort(*self._disputed(seats, what))

    def wants(self) -> list[int]:
        """For each seat, the first sequence number this table does not hold (for a
        resend request); empty before the table description arrived."""
        if self._intake is None:
            return []
        out = []
        for chain in self._intake.chains:
            seq = chain.next_seq
            while seq in chain.waiting:
                seq += 1
            out.append(seq)
        if self._suspicion is not None:
            accused = self._suspicion.accused
            out[accused] = min(out[accused], self._suspicion.seq)
        return out

    def envelopes_from(
        self, seat: int, seq: int, limit: int = MAX_AHEAD, *, newest: bool = False
    ) -> list[bytes]:
        """``seat``'s envelopes from ``seq`` on that this table holds, accepted or
        waiting, in chain order: the answer to a resend request (any peer may relay).
        At most ``limit`` (what the asker's table takes at once); with ``newest``
        (``seat`` is the asker's own) the newest follows when the answer is cut, so
        a resumed seat learns how long its chain is and never signs again a place it
        filled before it stopped."""
        if self._intake is None or self._setup is None or not 0 <= seat < self.n_seats:
            return []
        key = self._setup.seats[seat].key
        out = [e.raw for e in self._transcript if e.sender == key and e.seq >= seq]
        chain = self._intake.chains[seat]
        nxt = max(seq, chain.next_seq)
        while nxt in chain.waiting:
            out.append(chain.waiting[nxt].raw)
            nxt += 1
        if len(out) <= limit:
            return out
        return out[:limit] + out[-1:] if newest else out[:limit]

    # -- what a seat says, and how a message is handled -----------------------------------------

    def compose(self) -> m.Message | Question | None:
        """What the local seat sends now that its turn has come, or the question its
        player must answer.  (The one place a dishonest test table lies.)"""
        return self._step().own(self)

    def handle(self, seat: int, msg: m.Message) -> None:
        """Apply ``seat``'s message, which the schedule says is due (raises ``Abort``)."""
        self._step().handlers[type(msg)](self, seat, msg)

    # -- for the phases' code (flow.py, the game's module) -------------------------------------

    def emit(self, event: ev.Event) -> None:
        self._events.append(event)

    def fault(
        self, seat: int, what: str, envelope: Envelope | None = None, fatal: bool = True
    ) -> ev.Fault:
        """A fault proven by ``seat``'s envelope (by default the last one accepted)."""
        if envelope is None and self._transcript:
            envelope = self._transcript[-1]
        evidence = (envelope.digest.hex(),) if envelope is not None else ()
        return ev.Fault(seat, what, evidence, fatal, self._deal_id or None)

    def dispute(self, seat: int, what: str) -> None:
        """Note a problem no seat can be blamed for yet: the audit will decide."""
        self.round.disputes.append(
            self.fault(seat, what)
            if seat >= 0
            else ev.Fault(-1, what, deal=self._deal_id, proven=False)
        )

    def draw_secret(self) -> bytes:
        return self._seed_source()

    def chain_heads(self) -> tuple[bytes, ...]:
        return self._chains().heads()

    def view(self) -> tuple[tuple[int, bytes], ...]:
        """What this table has accepted of every chain: the view it signs now."""
        return self._chains().view()

    def open_position(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        rnd = self.round
        try:
            card = rnd.deck.open(seat, opening)
        except DeckFault as exc:
            raise Abort(self.fault(exc.seat, exc.what)) from None
        except FairDealError as exc:
            self.dispute(seat, f"opened a position that is not a card: {exc}")
            return None
        if rnd.public_cards.get(card, seat) != seat:
            self.dispute(seat, f"opened {CARDS[card]}, already shown by another seat")
            return None
        if seat != self._me and card in rnd.my_hand.values():
            # Not the opener's fault on its face: a pass may have copied our card into
            # its hand.  The audit finds whose pass or share it was.
            self.dispute(seat, f"opened {CARDS[card]}, a card dealt to this seat")
            return None
        rnd.public_cards[card] = seat
        return card

    def continue_game(self) -> bool:
        """Every seat sat: in a continuation segment, go on from the rules' state the
        previous segment left (True); False in a game's first segment (the lot follows)."""
        previous = self._previous
        if previous is None:
            return False
        assert self._setup is not None
        track = registry.track_class(self._setup.game).resumed(self._setup, previous.state)
        self._track = track
        self._deal_id = track.deal_number
        self._emit_started(track.dealer)
        return True

    def start_game(self, first_dealer: int) -> None:
        assert self._setup is not None
        self._track = registry.track_class(self._setup.game).new(self._setup, first_dealer)
        self._emit_started(first_dealer)
        self.begin_deal()

    def _emit_started(self, dealer: int) -> None:
        setup, track = self._setup, self.track
        assert setup is not None
        self.emit(
            ev.GameStarted(
                setup.game,
                tuple(s.name for s in setup.seats),
                tuple(s.key for s in setup.seats),
                dealer,
                self._me,
                dict(track.game.options.to_dict()),
                track.standing(),
            )
        )

    @property
    def flow(self) -> int:
        """The schedule revision the table description names (``TableMsg.flow``)."""
        return self._setup.flow if self._setup is not None else m.FLOW

    @property
    def carries_commitments(self) -> bool:
        """Flow 2: a ``deal_end`` carries its sender's commitment for the next deal."""
        return self.flow >= 2

    def carry_commitment(self, seat: int, commitment: bytes) -> None:
        """``seat``'s commitment for the next deal id, from its ``deal_end``."""
        self._carried[seat] = commitment

    @property
    def pending_seed(self) -> bytes | None:
        """The seed drawn ahead for the next deal, not used yet (a continuation segment
        starts its first deal with it: ``Previous.pending_seed``); one the segment
        before handed on and this one never used (it had no seat here) stays pending."""
        if self._next_local is not None:
            return self._next_local.seed
        previous = self._previous
        if previous is not None and not self._seed_carried:
            return previous.pending_seed
        return None

    def upcoming_commitment(self) -> bytes:
        """The local seat's commitment for the next deal id (its secrets for that deal
        are made now, if ``prepare`` has not made them yet: the seed is drawn in the
        same order as ever, one per deal)."""
        assert self._me is not None
        if self._next_local is None:
            ctx = self._deal_context(self._deal_id + 1)
            self._next_local = LocalSeat(ctx, self._me, self._seed_source())
        return self._next_local.commitment

    def begin_deal(self) -> None:
        track = self.track
        self._deal_id += 1
        track.begin_deal()
        ctx = self._deal_context(self._deal_id)
        local: LocalSeat | None = None
        if self._next_local is not None and self._next_local.ctx == ctx:
            local, self._next_local = self._next_local, None  # made ahead by ``prepare``
        elif self._me is not None:
            local = LocalSeat(ctx, self._me, self._carried_seed() or self._seed_source())
        order = [(track.dealer + 1 + i) % self.n_seats for i in range(self.n_seats)]
        deck = DealDeck(ctx, order, track.owners(), local, every_pass=self.audit_every_pass)
        deck.commitments.update(self._carried)  # flow 2: from the last deal's deal_ends
        self._carried = {}
        self._round = DealRound(self._deal_id, deck)
        self._cards_ready = True  # the deal computed them if ``prepare`` had not
        self.emit(ev.DealStarted(self._deal_id, track.deal_number, track.dealer, track.standing()))

    def _carried_seed(self) -> bytes | None:
        """The seed the segment before drew ahead and never used, once, for this
        segment's first deal (``Previous.pending_seed``)."""
        previous = self._previous
        if previous is None or previous.pending_seed is None or self._seed_carried:
            return None
        self._seed_carried = True
        return previous.pending_seed

    def _deal_context(self, deal_id: int) -> DealContext:
        assert self._setup is not None
        version = self._setup.fairdeal
        return DealContext(self.game_id, deal_id, self.n_seats, N_POSITIONS, version)

    # -- sending ---------------------------------------------------------------------------

    def _sent_key(self) -> SentKey:
        step = self._step()
        deal = 0 if step.before_deals else self._deal_id
        if step.parallel:
            return (deal, self._phase.value, -1)
        if step.slot is not None:
            return (deal, self._phase.value, step.slot(self))
        return (deal, self._phase.value, self._slot)

    def _seal(self, deal: int, msg: m.Message, reproducible: bool = False) -> Envelope:
        assert self._signer is not None
        view = self._intake.view() if self._intake is not None else ()
        if reproducible and self._step().parallel:
            # What we accepted when the phase began, which the schedule fixes, not what
            # has come in since (a resumed table may have more of the phase already).
            # Every seat speaks at a parallel phase's start, so this is what we hold
            # anyway unless our own message was held back (a resume, a handover).
            view = self._entry_view
        envelope = seal_envelope(
            self._signer, self.game_id, deal, self._my_seq, self._my_prev, msg, view
        )
        self._new_signed.append(envelope)
        if reproducible:
            self._reproducible.add(envelope.digest)
        self._my_seq += 1
        self._my_prev = envelope.digest
        return envelope

    def _send_once(self, key: SentKey, msg: m.Message, reproducible: bool = False) -> None:
        """Sign, broadcast and queue for ourselves (it is processed in its turn, like any)."""
        if key in self._sent:
            return
        pending = self._own_pending()
        if pending is None and not self._may_sign():
            return
        self._sent.add(key)
        self._question = None
        if pending is not None:
            # Sent before a crash and handed back by a peer: that one stands.
            envelope = pending
            self._my_seq += 1
            self._my_prev = envelope.digest
        else:
            envelope = self._seal(key[0], msg, reproducible)
        self._outgoing.append(envelope.raw)
        assert self._me is not None
        self._chains().offer(self._me, envelope)
        if not self._draining:
            self._drain()

    def _may_sign(self) -> bool:
        """Whether the local seat may sign its next envelope: not while a resumed table
        is held, nor while a place it signed before is not back (``short_of_own``)."""
        return not self._hold and self._my_seq >= self._own_known

    def _own_pending(self) -> Envelope | None:
        """Our own next envelope, if a peer handed it back (only after a resume)."""
        if self._me is None or self._intake is None:
            return None
        return self._intake.chains[self._me].waiting.get(self._my_seq)

    # -- the opening envelope ------------------------------------------------------------

    def _receive_table(self, envelope: Envelope) -> None:
        if not isinstance(envelope.msg, m.TableMsg):
            self._events.append(ev.Rejected(f"expected the table description, got {envelope.type}"))
            return
        setup = envelope.msg
        if envelope.seq != 0 or envelope.prev != ZERO_HASH or envelope.deal != 0:
            self._events.append(ev.Rejected("the table description must open its sender's chain"))
            return
        try:
            schedule = registry.schedule(setup.game)
            rules = spec(setup.game)
            rules.check_seats(len(setup.seats))
            rules.check_rules(setup.preset, setup.options)
            check_version(setup.fairdeal)
            if setup.flow not in m.FLOWS:
                raise ValueError(f"flow {setup.flow} is not one this peer knows")
        except ValueError as exc:
            self._events.append(ev.Rejected(f"bad rules: {exc}"))
            return
        host = next((s for s, info in enumerate(setup.seats) if info.key == envelope.sender), None)
        if host is None:
            self._events.append(ev.Rejected("the host is not one of the seats"))
            return
        if setup.after is not None or self._previous is not None:
            why = check_continuation(self._previous, host, envelope.game, setup)
            if why:
                self._events.append(ev.Rejected(f"not a valid continuation: {why}", host))
                return
        self._setup, self._host = setup, host
        self._schedule = schedule
        if self._signer is not None:
            self._me = self.seat_of(self._signer.public_key)
        self._intake = Intake(len(setup.seats))
        self._intake.offer(host, envelope)
        self._intake.accept(host)
        self._accepted(envelope)
        self.table_digest = envelope.digest
        self._start(Phase.SIT)
        self._act()
        self._drain()

    # -- the schedule ----------------------------------------------------------------------

    def _chains(self) -> Intake:
        assert self._intake is not None, "no table yet"
        return self._intake

    def _schedule_or_fail(self) -> Schedule:
        assert self._schedule is not None, "no table yet"
        return self._schedule

    def _step_or_none(self) -> Step | None:
        return None if self._schedule is None else self._schedule.steps.get(self._phase)

    def _step(self) -> Step:
        return self._schedule_or_fail().steps[self._phase]

    def _start(self, phase: PhaseId) -> None:
        self._phase = phase
        step = self._step_or_none()
        self._order = step.order(self) if step is not None else []
        self._slot = 0
        self._prelude_due = step is not None and step.prelude is not None
        self._entry_view = self._intake.view() if self._intake is not None else ()

    def _drain(self) -> None:
        """Process every envelope that is due, in the canonical order."""
        if self._draining:
            return
        self._draining = True
        try:
            self._drain_loop()
        finally:
            self._draining = False

    def _drain_loop(self) -> None:
        intake = self._intake
        while intake is not None and not self.finished and self._order:
            if self._outgoing and self._signer is not None:
                self._deferred = True
                return
            if self._prelude_due:
                # After our own message of the phase left (the check above), before
                # any envelope of the phase: see ``Step.prelude``.
                self._prelude_due = False
                prelude = self._step().prelude
                assert prelude is not None
                try:
                    prelude(self)
                except Abort as abort:
                    self._abort(*abort.faults)
                    return
                continue
            seat = self._order[self._slot]
            envelope = intake.peek(seat)
            if envelope is None:
                return
            refusal = self._refusal(seat, envelope)
            if refusal:
                intake.drop(seat)
                self._events.append(ev.Rejected(refusal, seat))
                continue
            try:
                if not self._view_agrees(seat, envelope):
                    return  # until the envelope behind the view comes, or the driver gives up
            except Abort as abort:
                self._abort(*abort.faults)
                return
            intake.accept(seat)
            self._accepted(envelope)
            try:
                self.handle(seat, envelope.msg)
                self._advance()
            except Abort as abort:
                self._abort(*abort.faults)
                return
            self._act()

    def _advance(self) -> None:
        """Move the schedule on after an envelope was handled."""
        current = self._step()
        if current.turn_based:
            self._order, self._slot = current.order(self), 0
            if self._order:
                return
        else:
            self._slot += 1
            if self._slot < len(self._order):
                return
        nxt = current.leave(self)
        if self.on_transition is not None:
            self.on_transition(self._phase, nxt)
        self._start(nxt)

    def _refusal(self, seat: int, envelope: Envelope) -> str:
        chain = self._chains().chains[seat]
        if envelope.prev != chain.head:
            return "does not follow the sender's previous envelope (broken hash chain)"
        step = self._step()
        expected_deal = 0 if step.before_deals else self._deal_id
        if envelope.deal != expected_deal:
            return f"belongs to deal {envelope.deal}, but deal {expected_deal} is being played"
        if type(envelope.msg) not in step.handlers:
            allowed = "/".join(sorted(step.accepts))
            return f"out of turn: a {envelope.type} while {allowed} is due"
        if len(envelope.view) != self.n_seats:
            return f"its view lists {len(envelope.view)} seats, the table has {self.n_seats}"
        if envelope.view[seat] != (envelope.seq, envelope.prev):
            return "its view of its own chain does not match its seq and prev"
        return ""

    # -- views, equivocation and disputes -------------------------------------------------

    def _view_agrees(self, seat: int, envelope: Envelope) -> bool:
        """Compare ``seat``'s signed view with ours, before its envelope is accepted.

        An honest seat signs only after accepting, in the canonical order, what
        comes before its envelope: so it cannot have seen more of a chain than we
        have now (a provable lie), and what it saw must be what we accepted.  A
        different hash is not yet anyone's fault: either the seat in that chain
        signed two envelopes (we will hold both once the other reaches us: proof)
        or the reporter lies (nobody can back it; the driver gives up: disputed).
        """
        intake = self._chains()
        if self._suspicion is not None:
            return False
        for other, (count, head) in enumerate(envelope.view):
            if other == seat:
                continue
            ours = intake.digest_at(other, count)
            if ours is None:
                have = intake.chains[other].next_seq
                raise Abort(
                    self.fault(
                        seat,
                        f"its view claims {count} envelopes of seat {other}, but only {have}"
                        " come before its own in the schedule",
                        envelope,
                    )
                )
            if ours != head:
                self._suspicion = Suspicion(seat, other, count - 1, head)
                self._events.append(ev.ViewConflict(seat, other, count - 1))
                return False
        return True

    def _compare_view_early(self, seat: int, envelope: Envelope) -> None:
        """Compare a view as soon as its envelope arrives, where we can: an envelope
        that is out of turn *because* its sender saw another chain is never processed,
        yet its view shows where the chains part."""
        if self._suspicion is not None or len(envelope.view) != self.n_seats:
            return
        intake = self._chains()
        for other, (count, head) in enumerate(envelope.view):
            if other == seat:
                continue
            ours = intake.digest_at(other, count)
            if ours is not None and ours != head:
                self._suspicion = Suspicion(seat, other, count - 1, head)
                self._events.append(ev.ViewConflict(seat, other, count - 1))
                return

    def _accepted_envelope(self, seat: int, seq: int) -> Envelope:
        key = self._setup.seats[seat].key if self._setup else b""
        return next(e for e in self._transcript if e.sender == key and e.seq == seq)

    def _last_envelope_of(self, seat: int) -> Envelope | None:
        if self._setup is None or not 0 <= seat < self.n_seats:
            return None
        key = self._setup.seats[seat].key
        return next((e for e in reversed(self._transcript) if e.sender == key), None)

    def _prove_equivocation(self, seat: int, first: Envelope, second: Envelope) -> None:
        """Two envelopes ``seat`` signed for one place in its chain: end the game, and
        send the pair to every peer as ``evidence`` (they check it themselves)."""
        what = f"signed two different envelopes for its sequence number {first.seq}"
        proof = (first.digest.hex(), second.digest.hex())
        fault = ev.Fault(seat, what, proof, True, self._deal_id or None)
        if self._signer is not None and self._me is not None and self._may_sign():
            record = self._seal(self._deal_id, m.EvidenceMsg(first.raw, second.raw))
            self._outgoing.append(record.raw)
            self._accepted(record)
        self._abort(fault)

    def _receive_ending(self, seat: int, envelope: Envelope) -> None:
        """Evidence or a dispute from ``seat``: checked here, out of the schedule."""
        self._accepted(envelope)
        if isinstance(envelope.msg, m.DisputeMsg):
            named = [s for s in envelope.msg.seats if s < self.n_seats]
            what = f"named by seat {seat}: {envelope.msg.why}"
            self._abort(*self._disputed(named or [seat], what))
            return
        assert isinstance(envelope.msg, m.EvidenceMsg)
        try:
            accused, first, second = self._check_evidence(envelope.msg)
        except ValueError as exc:
            what = f"sent evidence that proves nothing: {exc}"
            self._abort(ev.Fault(seat, what, (envelope.digest.hex(),), True, self._deal_id))
            return
        what = f"signed two different envelopes for its sequence number {first.seq}"
        proof = (first.digest.hex(), second.digest.hex())
        self._abort(ev.Fault(accused, what, proof, True, self._deal_id or None))

    def _check_evidence(self, msg: m.EvidenceMsg) -> tuple[int, Envelope, Envelope]:
        try:
            first, second = open_envelope(msg.first), open_envelope(msg.second)
        except ProtocolError as exc:
            raise ValueError(f"an enclosed envelope does not open: {exc}") from None
        accused = self.seat_of(first.sender)
        if accused is None or first.sender != second.sender:
            raise ValueError("the two envelopes are not both from one seat")
        if first.game != self.game_id or second.game != self.game_id:
            raise ValueError("an enclosed envelope belongs to another game")
        if first.seq != second.seq or first.digest == second.digest:
            raise ValueError("not two different envelopes for one sequence number")
        return accused, first, second

    def _disputed(self, seats: Sequence[int], what: str) -> list[ev.Fault]:
        deal = self._deal_id or None
        return [ev.Fault(s, what, (), True, deal, proven=False) for s in sorted(set(seats))]

    def _accepted(self, envelope: Envelope) -> None:
        self._transcript.append(envelope)
        self._new_accepted.append(envelope)
        if (
            self._signer is not None
            and envelope.sender == self._signer.public_key
            and envelope.seq >= self._my_seq
        ):
            self._own_replayed(envelope)

    def _own_replayed(self, envelope: Envelope) -> None:
        """One of our own envelopes from before a crash: continue our chain after it."""
        self._my_seq = envelope.seq + 1
        self._my_prev = envelope.digest
        if isinstance(envelope.msg, m.TableMsg):
            return
        self._sent.add(self._sent_key())
        if isinstance(envelope.msg, m.LotCommitMsg) and self.lots.mine is None:
            # Drawn here, in the order the lost table drew it, so later seeds line up.
            self.lots.mine = self._seed_source()

    # -- the local seat's own moves ------------------------------------------------------

    def _act(self) -> None:
        """Send whatever the local seat owes now; ask the player where the rules give a choice."""
        if self._hold or self._me is None or self.finished or self._me not in self._order:
            return
        if self._stop_at_deal is not None and self._deal_id >= self._stop_at_deal:
            return
        step = self._step()
        if not step.parallel and self.turn != self._me:
            return
        key = self._sent_key()
        if key in self._sent:
            return
        pending = self._own_pending()
        if pending is not None and step.decision:
            self._send_once(key, pending.msg)
            return
        if pending is None and not self._may_sign():
            return  # what we sent here before a crash must come back first
        try:
            own = self.compose()
        except Abort as abort:
            self._abort(*abort.faults)
            return
        if isinstance(own, Question):
            if self._question is None or self._question[0] != key:
                self._question = (key, own)
                self._events.append(ev.ChoiceNeeded(own.kind, own.moves))
        elif own is not None:
            self._send_once(key, own, reproducible=not step.before_deals)

    def _abort(self, *faults: ev.Fault) -> None:
        if self._signer is not None:
            # Pass on the envelopes that prove it: a peer that holds other ones for
            # the same places (the liar told it something else) then holds the proof.
            proof = {h for f in faults if f.proven for h in f.evidence}
            self._outgoing += [e.raw for e in self._transcript if e.digest.hex() in proof]
        self._faults.extend(faults)
        if self.on_transition is not None:
            self.on_transition(self._phase, Phase.ABORTED)
        self._phase = Phase.ABORTED
        self._order = []
        self._events.append(ev.GameAborted(tuple(faults)))
