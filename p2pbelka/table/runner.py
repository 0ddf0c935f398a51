"""The phase runner: the schedule of one game driven over the chains, in the one canonical
order every peer processes envelopes in, and the local seat's part in it.

``drain`` takes the envelope due next (the speaker the phase's order names), checks
it fits (chain, deal, phase, view) and hands it to the phase's handler; once every
speaker has spoken the step closes and names the next phase.  ``act`` has the local
seat say what it owes when its turn comes (a message the schedule makes, or a
question for its player: ``legal_moves``/``apply``).  What the local seat signs
leaves first: the runner stops (``deferred``) until the driver sent it.

It works through the phases' context (``state.TableState``): the phases' code and
the local seat's words (``compose``, ``handle``) are the state's, and the runner
holds no table; the face (``session.Table``) holds the runner.
"""

from __future__ import annotations

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.chains import OwnChain, SentKey, View
from p2pbelka.table.endings import Endings, is_ending
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.flow import game_over
from p2pbelka.table.phase import ENDS, Abort, Phase, PhaseId, Question, Step
from p2pbelka.table.state import TableState


class Runner:
    def __init__(self, state: TableState, own: OwnChain) -> None:
        self._state = state
        self._chains = state.chains
        self._own = own
        self._blame = state.blame
        self._out = state.out
        self.order: list[int] = []
        self.slot = 0
        self._prelude_due = False  # the phase's prelude has not run yet
        self._entry_view: View = ()  # when the phase began
        self._draining = False
        self.deferred = False
        self.stop_at_deal: int | None = None
        """A seat that stops before a deal (its seat changes hands there) sends nothing
        for a deal with this id or later."""
        self.question: tuple[SentKey, Question] | None = None
        self.endings = Endings(self, self._chains, own, self._blame, self._out)

    # -- what the endings read of the table ---------------------------------------------------

    @property
    def me(self) -> int | None:
        return self._state.me

    @property
    def n_seats(self) -> int:
        return self._state.n_seats

    @property
    def flow(self) -> int:
        return self._state.flow

    @property
    def deal_id(self) -> int:
        return self._state.deal_id

    # -- where the schedule stands ---------------------------------------------------------

    @property
    def phase(self) -> PhaseId:
        return self._state.phase

    @property
    def held(self) -> bool:
        """A resumed seat stays silent until its driver has fetched what the others hold."""
        return self._state.held

    @held.setter
    def held(self, held: bool) -> None:
        self._state.held = held

    @property
    def finished(self) -> bool:
        return self.phase in ENDS

    @property
    def proven(self) -> bool:
        """The game ended on a proven fault: nothing that comes after can change it."""
        return self.finished and any(f.fatal and f.proven for f in self._blame.faults)

    @property
    def won(self) -> bool:
        """The rules say the game is won and its last audit passed (flow 3): the last
        deal's ``deal_end``s and the closing exchange are due.  What is left only
        covers what came before and changes nothing of the result, so a seat that
        never sends it cannot deny the others theirs (SPEC section 4.7)."""
        if self.phase is Phase.CLOSE:
            return True
        state = self._state
        return (
            self.phase is Phase.DEAL_END
            and state.flow >= 3
            and not self._prelude_due
            and state.started
            and state.track.finished
        )

    @property
    def turn(self) -> int | None:
        if self.finished or not self.order:
            return None
        return self.order[self.slot]

    def step_or_none(self) -> Step | None:
        return self._state.step_or_none()

    def step(self) -> Step:
        return self._state.step()

    def start(self, phase: PhaseId) -> None:
        self._state.phase = phase
        step = self.step_or_none()
        self.order = step.order(self._state) if step is not None else []
        self.slot = 0
        self._prelude_due = step is not None and step.prelude is not None
        self._entry_view = self._chains.view()

    def _moved(self, before: PhaseId, after: PhaseId) -> None:
        hook = self._state.on_transition
        if hook is not None:
            hook(before, after)

    # -- envelopes in ------------------------------------------------------------------------

    def offer(self, seat: int, envelope: Envelope) -> None:
        """An envelope of ``seat``'s chain (an ending too), in whatever order it came."""
        if seat == self._state.me:
            # Ours, so signed by us: a place in our chain we must never fill again.
            self._own.saw(envelope.seq)
        self._blame.compare_view_early(seat, envelope)
        self.endings.offer(seat, envelope)
        if not self.finished:
            self.drain()

    def accepted(self, envelope: Envelope) -> None:
        self._chains.accept(envelope)
        if self._own.is_ours(envelope) and envelope.seq >= self._own.seq:
            self._own_replayed(envelope)

    def _own_replayed(self, envelope: Envelope) -> None:
        """One of our own envelopes from before a crash: continue our chain after it."""
        self._own.follow(envelope)
        if isinstance(envelope.msg, m.TableMsg):
            return
        self._own.sent.add(self.sent_key())
        lots = self._state.lots
        if isinstance(envelope.msg, m.LotCommitMsg) and lots.mine is None:
            # Drawn here, in the order the lost table drew it, so later seeds line up.
            lots.mine = self._state.draw_secret()

    # -- the canonical order -------------------------------------------------------------------

    def drain(self) -> None:
        """Process every envelope that is due, in the canonical order."""
        if self._draining:
            return
        self._draining = True
        try:
            self._drain_loop()
        finally:
            self._draining = False

    def _drain_loop(self) -> None:
        while self._chains.opened and not self.finished:
            if self._out.outgoing and self._own.signer is not None:
                self.deferred = True
                return
            if not self.order:
                break
            if self._prelude_due:
                # After our own message of the phase left (the check above), before
                # any envelope of the phase: see ``Step.prelude``.
                self._prelude_due = False
                prelude = self.step().prelude
                assert prelude is not None
                try:
                    prelude(self._state)
                except Abort as abort:
                    self.abort(*abort.faults)
                    return
                continue
            if not self._process_next():
                break
            self.act()
        if self._chains.opened and not self.finished:
            # The schedule waits: an ending that came may be taken now.
            self.endings.take_due()

    def _process_next(self) -> bool:
        """Handle the envelope due next, if it came and fits; False to stop draining."""
        intake = self._chains.intake
        seat = self.order[self.slot]
        envelope = intake.peek(seat)
        if envelope is None or is_ending(envelope):
            return False  # an ending is taken outside the schedule (``Endings``)
        refusal = self._refusal(seat, envelope)
        if refusal:
            self._keep_refused(seat, refusal)
            return False
        try:
            agrees = self._blame.view_agrees(seat, envelope, self._state.deal_id)
        except Abort as abort:
            # A view that claims more than the schedule gave: proven by the envelope
            # itself, so it goes into the transcript first, and the file proves it too.
            intake.accept(seat)
            self.accepted(envelope)
            self.abort(*abort.faults)
            return False
        if not agrees:
            return False  # until the envelope behind the view comes, or the driver gives up
        try:
            intake.accept(seat)
            self.accepted(envelope)
            self._state.handle(seat, envelope.msg)
            self._advance()
        except Abort as abort:
            self.abort(*abort.faults)
            return False
        return True

    def _keep_refused(self, seat: int, refusal: str) -> None:
        """``seat``'s envelope due next is refused: kept at its place and recorded, so a
        different one there later is proven (here and by ``verify`` of the file, which
        refuses the record just as we did), and a resend answer or a dispute's relay
        passes it on.  Its sender's chain goes no further here: the game waits for
        the seat (and ends disputed) unless a proof comes.  Its view is compared now,
        as ``verify`` compares it when it reaches the record, so both conclude alike."""
        kept = self._chains.intake.refuse(seat)
        assert kept is not None
        self._chains.accept(kept)
        self._chains.refused_records += 1
        self._blame.compare_view_early(seat, kept)
        self._out.events.append(ev.Rejected(refusal, seat))

    def _advance(self) -> None:
        """Move the schedule on after an envelope was handled."""
        current = self.step()
        if current.turn_based:
            self.order, self.slot = current.order(self._state), 0
            if self.order:
                return
        else:
            self.slot += 1
            if self.slot < len(self.order):
                return
        nxt = current.leave(self._state)
        self._moved(self.phase, nxt)
        self.start(nxt)

    def _refusal(self, seat: int, envelope: Envelope) -> str:
        chain = self._chains.intake.chains[seat]
        if envelope.prev != chain.head:
            return "does not follow the sender's previous envelope (broken hash chain)"
        step = self.step()
        expected_deal = 0 if step.before_deals else self._state.deal_id
        if envelope.deal != expected_deal:
            return f"belongs to deal {envelope.deal}, but deal {expected_deal} is being played"
        if type(envelope.msg) not in step.handlers:
            allowed = "/".join(sorted(step.accepts))
            return f"out of turn: a {envelope.type} while {allowed} is due"
        n_seats = self._state.n_seats
        if len(envelope.view) != n_seats:
            return f"its view lists {len(envelope.view)} seats, the table has {n_seats}"
        if envelope.view[seat] != (envelope.seq, envelope.prev):
            return "its view of its own chain does not match its seq and prev"
        if isinstance(envelope.msg, m.CloseMsg) and envelope.view != self._entry_view:
            # Every seat signs its close at the exchange's start (SPEC section 2.1):
            # one view for all, so a close says exactly what it covers.
            return "its close's view is not the one the closing exchange began with"
        return ""

    # -- the local seat's part ------------------------------------------------------------------

    def act(self) -> None:
        """Send whatever the local seat owes now; ask the player where the rules give a choice."""
        me = self._state.me
        if self.held or me is None or self.finished or me not in self.order:
            return
        if self.stop_at_deal is not None and self._state.deal_id >= self.stop_at_deal:
            return
        step = self.step()
        if not step.parallel and self.turn != me:
            return
        key = self.sent_key()
        if key in self._own.sent:
            return
        pending = self.own_pending()
        if pending is not None and step.decision:
            self.send_once(key, pending.msg)
            return
        if pending is None and not self.may_sign():
            return  # what we sent here before a crash must come back first
        try:
            own = self._state.compose()
        except Abort as abort:
            self.abort(*abort.faults)
            return
        if isinstance(own, Question):
            if self.question is None or self.question[0] != key:
                self.question = (key, own)
                self._out.events.append(ev.ChoiceNeeded(own.kind, own.moves))
        elif own is not None:
            self.send_once(key, own, at_entry=step.parallel and not step.before_deals)

    def release(self) -> None:
        """A resumed seat speaks again (``Table.release``): it sends what it owes now."""
        if not self.held:
            return
        self.held = False
        self.question = None
        rnd = self._state.deals.round
        if rnd is not None:
            rnd.deck.multiply_ahead = rnd.deck.local is not None
        self.act()
        self.drain()

    def stop_before(self, deal_id: int | None) -> None:
        """Send nothing for deal ``deal_id`` or later (``Table.stop_at_deal``); None: go on."""
        self.stop_at_deal = deal_id
        if deal_id is None:
            self.act()
            self.drain()

    def legal_moves(self) -> list[mv.Move]:
        if self.question is None or self.question[0] in self._own.sent:
            return []
        return list(self.question[1].moves)

    def apply(self, move: mv.Move) -> None:
        moves = self.legal_moves()
        if not moves:
            raise MoveRefused(f"{move}: nothing is asked of you now")
        if move not in moves:
            kind = self.question[1].kind if self.question else "move"
            raise MoveRefused(f"{move} is not a legal {kind} now")
        schedule = self._state.schedule
        assert self.question is not None and schedule is not None
        msg = schedule.moves[type(move)](self._state, move)
        self.send_once(self.question[0], msg)

    def sent_key(self) -> SentKey:
        step = self.step()
        deal = 0 if step.before_deals else self._state.deal_id
        if step.parallel:
            return (deal, self.phase.value, -1)
        if step.slot is not None:
            return (deal, self.phase.value, step.slot(self._state))
        return (deal, self.phase.value, self.slot)

    def seal(self, deal: int, msg: m.Message, at_entry: bool = False) -> Envelope:
        """Sign ``msg`` as our chain's next envelope.  ``at_entry`` (what the schedule
        makes in a parallel phase of a deal): its view is what we accepted when the
        phase began, not what has come in since (a table held back, by a resume or
        a seat change, may have more of the phase already).  Every seat speaks at a
        parallel phase's start, so this is what it holds anyway otherwise; the rule
        fixes these envelopes' bytes (SPEC section 2.1, and the vectors)."""
        view = self._entry_view if at_entry else self._chains.view()
        return self._own.seal(deal, msg, view)

    def send_once(self, key: SentKey, msg: m.Message, at_entry: bool = False) -> None:
        """Sign, broadcast and queue for ourselves (it is processed in its turn, like any)."""
        if key in self._own.sent:
            return
        pending = self.own_pending()
        if pending is None and not self.may_sign():
            return
        self._own.sent.add(key)
        self.question = None
        if pending is not None:
            # Sent before a crash and handed back by a peer: that one stands.
            envelope = pending
            self._own.follow(envelope)
        else:
            envelope = self.seal(key[0], msg, at_entry)
        self._out.outgoing.append(envelope.raw)
        me = self._state.me
        assert me is not None
        self._chains.intake.offer(me, envelope)
        if not self._draining:
            self.drain()

    def may_sign(self) -> bool:
        """Whether the local seat may sign its next envelope (see ``TableView.short_of_own``)."""
        return self._own.may_sign(self.held)

    def own_pending(self) -> Envelope | None:
        """Our own next envelope, if a peer handed it back (only after a resume)."""
        me = self._state.me
        if me is None or not self._chains.opened:
            return None
        return self._chains.intake.chains[me].waiting.get(self._own.seq)

    # -- the end of a game --------------------------------------------------------------------

    def sign_ending(self, msg: m.EvidenceMsg | m.DisputeMsg) -> Envelope | None:
        """Sign ``msg`` into our chain and the transcript, if the local seat may sign: an
        ending is our next envelope, outside the schedule, its view what we accepted
        (our own entry our chain as signed: our last envelope may not be processed)."""
        me = self._state.me
        if self._own.signer is None or me is None or not self.may_sign():
            return None
        view = list(self._chains.view())
        view[me] = (self._own.seq, self._own.prev)
        record = self._own.seal(self._state.deal_id, msg, tuple(view))
        self._out.outgoing.append(record.raw)
        self._chains.intake.hold(me, record)
        self.accepted(record)
        return record

    def after_end(self, seat: int, envelope: Envelope) -> None:
        """An envelope for a finished table (see ``Endings.after_end``)."""
        self.endings.after_end(seat, envelope)

    def unclosed(self) -> list[int]:
        """Once the game is won (``won``): the seats whose ``close`` (or last
        ``deal_end``) has not come."""
        if not self.won:
            return []
        intake = self._chains.intake
        return [s for s in self.order[self.slot :] if intake.peek(s) is None]

    def untaken(self) -> list[int]:
        """Once the game is won (``won``): the seats whose ``close`` (or last
        ``deal_end``) has not been taken into the transcript, come or not."""
        return list(self.order[self.slot :]) if self.won else []

    def _relay_proof(self, faults: tuple[ev.Fault, ...]) -> None:
        """Pass on what the end rests on.  Proven: the envelopes that prove it, so a peer
        that holds other ones for the same places (the liar told it something else)
        comes to hold the proof.  Not proven: the last envelope we hold of every other
        chain, so a peer that holds another for that place (a fork that left every
        honest seat waiting) holds the proof too."""
        if self._own.signer is None:
            return
        transcript = self._chains.transcript
        proof = {h for f in faults if f.proven for h in f.evidence}
        if not proof and self._chains.opened:
            me = self._state.me
            heads = (self._chains.last_envelope_of(s) for s in range(self.n_seats) if s != me)
            proof = {e.digest.hex() for e in heads if e is not None}
        self._out.outgoing += [e.raw for e in transcript if e.digest.hex() in proof]

    def abort(self, *faults: ev.Fault) -> None:
        fatal = tuple(f for f in faults if f.fatal)
        self._relay_proof(fatal if any(f.proven for f in fatal) else ())
        self._blame.faults.extend(faults)
        self._end(Phase.ABORTED)
        self._out.events.append(ev.GameAborted(tuple(faults)))

    def leave(self, waited_for: list[ev.Fault]) -> None:
        """The local seat gave up waiting but may not sign its dispute (resumed, and
        short of its own chain: a dispute could fill a place it filled before the
        crash).  The game stops here unfinished, as its file reads (``verify``:
        INCOMPLETE, naming nobody), and may be resumed later; ``waited_for`` only
        tells the player which seats it waited for, it blames nobody."""
        self._end(Phase.LEFT)
        self._out.events.append(ev.GameAborted(tuple(waited_for)))

    def end_won(self, unclosed: list[ev.Fault]) -> None:
        """The closing exchange ended without every ``close``: the game is won as the
        rules said, and ``unclosed`` names (not proven, not fatal) who did not close."""
        self._relay_proof(())
        for fault in unclosed:
            self._out.events.append(ev.FaultFound(fault))
        self._blame.faults.extend(unclosed)
        self._end(Phase.OVER)
        game_over(self._state)

    def _end(self, phase: Phase) -> None:
        if not self.finished:
            self._moved(self.phase, phase)
        self._state.phase = phase
        self.order = []
