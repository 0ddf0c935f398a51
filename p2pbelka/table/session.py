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
own (``chains.py``), the phase runner (``runner.py``) and the state the phases work
through (``state.py``: the table description, the rules' track, the set-up of
deals, who is at fault, the outbox), which the runner is given instead of the
table.  A transcript is fed in its recorded order through ``replay.Replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.ids import derived_id
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.blame import Suspicion
from p2pbelka.table.carry import Previous
from p2pbelka.table.chains import Chains, OwnChain, View
from p2pbelka.table.errors import OrderError
from p2pbelka.table.intake import MAX_AHEAD
from p2pbelka.table.opening import check_table
from p2pbelka.table.phase import Phase, PhaseId
from p2pbelka.table.replay import Replay
from p2pbelka.table.runner import Runner
from p2pbelka.table.state import TableState
from p2pbelka.table.track import GameTrack

__all__ = ["OrderError", "Phase", "Suspicion", "Table", "TableState"]


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
        state: type[TableState] = TableState,
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
        let the host choose the game id) and any flow for an observer (``verify``).

        ``state``: the phases' state, a subclass for a dishonest seat (tests, vectors)."""
        self.game_id = game_id
        self._nonce = nonce
        if oldest_flow is None:
            oldest_flow = m.OLDEST_LIVE_FLOW if signer is not None else min(m.FLOWS)
        self._oldest_flow = oldest_flow
        self._signer = signer
        self._chains = Chains()
        self._own = OwnChain(signer, game_id)
        self._state = state(game_id, self._chains, seed_source, previous)
        self._out = self._state.out
        self._blame = self._state.blame
        self._runner = Runner(self._state, self._own)

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
        state: type[TableState] = TableState,
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
            state=state,
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
        state: type[TableState] = TableState,
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
        table = cls(
            envelopes[0].game,
            signer=signer,
            seed_source=seed_source,
            previous=previous,
            state=state,
        )
        table._state.held = True
        replay = Replay(table)
        for i, envelope in enumerate(envelopes):
            if table.finished:
                raise OrderError("envelope after the end of the game")
            replay.feed(envelope, envelopes[i + 1] if i + 1 < len(envelopes) else None)
        table._chains.forget_accepted()
        table._own.forget_signed()
        table._out.outgoing.clear()
        return table

    # -- what anyone may read ---------------------------------------------------------

    @property
    def state(self) -> TableState:
        """What the phases work through: the deal in progress, the lot, the table
        description's details (for tests and tools that look deeper than the face)."""
        return self._state

    @property
    def phase(self) -> PhaseId:
        """The phase the table is in: one of ``Phase`` or of the game's own."""
        return self._state.phase

    @property
    def me(self) -> int | None:
        """The local seat, or None for an observer (or before the table description)."""
        return self._state.me

    @property
    def setup(self) -> m.TableMsg | None:
        return self._state.setup

    @property
    def n_seats(self) -> int:
        return self._state.n_seats

    @property
    def seed_source(self) -> Callable[[], bytes]:
        """Where the local seat's secrets for this segment come from (a continuation
        segment has a source of its own: nothing drawn for one segment is used in
        another)."""
        return self._state.deals.seed_source

    @property
    def previous(self) -> Previous | None:
        """The segment this table continues (None in a game's first segment)."""
        return self._state.previous

    @property
    def game(self) -> Any:
        """The rules engine's state of the game (None before the lot)."""
        return self._state.game

    @property
    def track(self) -> GameTrack:
        return self._state.track

    @property
    def started(self) -> bool:
        return self._state.started

    @property
    def deal_id(self) -> int:
        return self._state.deal_id

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
        return self._state.held

    @property
    def short_of_own(self) -> bool:
        """True when the local seat must send next an envelope it signed before (a
        crash lost it) that has not come back yet: it signs nothing until it has."""
        if self.me is None or not self._chains.opened or self.finished:
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
        return step is not None and step.decision and self._blame.suspicion is None

    def missing(self) -> list[int]:
        """Seats the table is waiting for (for a driver's timeout): the seat whose
        envelope would settle a differing view; else the seats an ending that came
        waits for, and the seat due (in the closing exchange, every seat whose
        ``close`` has not come)."""
        if self.finished:
            return []
        settles = self._blame.waited_for(self.me)
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
        if self.setup is None:
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

    def receive_record(self, envelope: Envelope) -> None:
        """A record of a transcript (``replay.Replay`` checks its order first): taken as
        ``receive_envelope`` takes it, but an ending is the file's, not relayed."""
        endings = self._runner.endings
        endings.from_file = True
        try:
            self.receive_envelope(envelope)
            self.proceed()
        finally:
            endings.from_file = False

    def _receive_table(self, envelope: Envelope) -> None:
        key = self._signer.public_key if self._signer is not None else None
        checked = check_table(envelope, self.previous, self._oldest_flow, key, self._nonce)
        if isinstance(checked, ev.Rejected):
            self._out.events.append(checked)
            return
        assert isinstance(envelope.msg, m.TableMsg)
        setup, (host, schedule) = envelope.msg, checked
        self._chains.open(tuple(info.key for info in setup.seats))
        me = self.seat_of(key) if key is not None else None
        self._state.seat(setup, host, schedule, me)
        intake = self._chains.intake
        intake.offer(host, envelope)
        intake.accept(host)
        self._runner.accepted(envelope)
        self._state.table_digest = envelope.digest
        self._runner.start(Phase.SIT)
        self._runner.act()
        self._runner.drain()

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
        self._runner.release()

    def stop_at_deal(self, deal_id: int | None) -> None:
        """Send nothing more for deal ``deal_id`` or later: the local seat hands over
        there (it goes on answering for the deals before).  The others then wait
        at that deal, where the seat can change hands with nothing dealt to it.
        None: go on after all (the seat change did not happen)."""
        self._runner.stop_before(deal_id)

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
        deals = self._state.deals
        if not self.finished and deals.prepare_cards():
            return True
        if (
            self._signer is None
            or self.me is None
            or self.held
            or self.finished
            or deals.round is None
            or not self.started
        ):
            return False
        return deals.prepare_next(self.track)

    def abandon(self, seats: list[int], why: str = "went silent") -> None:
        """The driver gave up waiting: end the game *disputed*, naming ``seats`` (or,
        while a view is unsettled, its reporter and the seat it accuses; once the game
        is won, the seats that did not close).  See ``Endings.give_up``."""
        if not self.finished:
            self._runner.endings.give_up(seats, why)

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
        return self._runner.endings.unrecorded()

    def wants(self) -> list[int]:
        """For each seat, the first sequence number this table does not hold (for a
        resend request), and while a view is unsettled the places that could settle
        it; empty before the table description arrived."""
        return self._blame.wants(self.me)

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
        if seat != self.me or not self._out.outgoing:
            return found
        unsent = set(self._out.outgoing)
        return [raw for raw in found if raw not in unsent]

    def view(self) -> View:
        """What this table has accepted of every chain: the view it signs now."""
        return self._chains.intake.view()
