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
table.  The face keeps the verbs; what anyone reads is ``table.state`` (the phases'
state as it is) and ``table.view`` (``view.TableView``: the transcript, faults, whom
the table waits for, what it holds for a resend).  A transcript is fed in its
recorded order through ``replay.Replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.ids import derived_id
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.blame import Suspicion
from p2pbelka.table.carry import Previous
from p2pbelka.table.chains import Chains, OwnChain
from p2pbelka.table.errors import OrderError
from p2pbelka.table.opening import check_table
from p2pbelka.table.phase import Phase
from p2pbelka.table.replay import Replay
from p2pbelka.table.runner import Runner
from p2pbelka.table.state import TableState
from p2pbelka.table.view import TableView

__all__ = ["OrderError", "Phase", "Suspicion", "Table", "TableState", "TableView"]


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
        self._runner = Runner(self._state, self._own)
        self.view = TableView(self._state, self._runner, self._own)
        """What a driver, screen or verifier reads beyond the state (``view.py``)."""

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
        table._state.out.outgoing.append(envelope.raw)
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
        table._state.out.outgoing.clear()
        return table

    # -- what anyone may read ---------------------------------------------------------

    @property
    def state(self) -> TableState:
        """What the phases work through: the table description, the local seat, the
        track, the deal in progress, the phase (``state.py``)."""
        return self._state

    @property
    def finished(self) -> bool:
        return self._runner.finished

    @property
    def deferred(self) -> bool:
        """True when the table stopped so its driver can send what it signed."""
        return self._runner.deferred

    # -- what the driver takes ----------------------------------------------------------

    def take_outgoing(self) -> list[bytes]:
        out, self._state.out.outgoing = self._state.out.outgoing, []
        return out

    def take_events(self) -> list[ev.Event]:
        out, self._state.out.events = self._state.out.events, []
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
            self._state.emit(ev.Rejected(f"malformed envelope: {exc}"))
            return
        self.receive_envelope(envelope)

    def receive_envelope(self, envelope: Envelope) -> None:
        if envelope.game != self.game_id:
            self._state.emit(ev.Rejected("envelope of another game"))
            return
        if self._state.setup is None:
            self._receive_table(envelope)
            return
        seat = self._chains.seat_of(envelope.sender)
        if seat is None:
            self._state.emit(ev.Rejected("sender is not seated at this table"))
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
        checked = check_table(envelope, self._state.previous, self._oldest_flow, key, self._nonce)
        if isinstance(checked, ev.Rejected):
            self._state.emit(checked)
            return
        assert isinstance(envelope.msg, m.TableMsg)
        setup, (host, schedule) = envelope.msg, checked
        self._chains.open(tuple(info.key for info in setup.seats))
        me = self._chains.seat_of(key) if key is not None else None
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
        state, deals = self._state, self._state.deals
        if not self.finished and deals.prepare_cards():
            return True
        if (
            self._signer is None
            or state.me is None
            or state.held
            or self.finished
            or deals.round is None
            or not state.started
        ):
            return False
        return deals.prepare_next(state.track)

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
            self._runner.leave([ev.Fault(seat, why, (), False, self._state.deal_id or None, False)])
