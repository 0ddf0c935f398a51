"""One seat's view of a Belka game over the fair-deal protocol, as a sans-IO state machine.

Feed it envelopes (``receive``) and the local player's choices (``play``,
``claim_redeal``, ``choose_eggs``); take envelopes to broadcast
(``take_outgoing``) and events for the screen or bot (``take_events``).  It
never touches a socket, a clock or trio; the peer driver does.  An observer
(no signer) replays a transcript: that is ``p2pbelka verify``.

Every peer processes envelopes in one canonical order (``_drain``), whatever
order they arrive in, so all transcripts of a game are identical; see
protocol/SPEC.md ("Schedule") for the phases and who speaks in each.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.cards import Card
from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.fairdeal.lots import commit_lot
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.dealdeck import DealDeck, DeckFault
from p2pbelka.table.intake import Intake, IntakeError
from p2pbelka.table.phases import GameFlow
from p2pbelka.table.schedule import (
    JACK_OF_CLUBS,
    LOT_PURPOSE,
    PARALLEL,
    PHASE_TYPES,
    Abort,
    OrderError,
    Phase,
)
from p2pbelka.table.track import BelkaTrack

__all__ = ["PARALLEL", "PHASE_TYPES", "OrderError", "Phase", "Table"]


class Table(GameFlow):
    def __init__(
        self,
        game_id: bytes,
        *,
        signer: Signer | None = None,
        seed_source: Callable[[], bytes] = new_seed,
        on_accept: Callable[[Envelope], None] | None = None,
    ) -> None:
        self.game_id = game_id
        self.signer = signer
        self._seed_source = seed_source
        self._on_accept = on_accept
        self.me: int | None = None
        self.setup: m.TableMsg | None = None
        self.table_digest = b""
        self.phase = Phase.SIT
        self.transcript: list[Envelope] = []
        self.faults: list[ev.Fault] = []
        self._outgoing: list[bytes] = []
        self._events: list[ev.Event] = []
        self._intake: Intake | None = None
        self._my_seq = 0
        self._my_prev = ZERO_HASH
        self._sent: set[tuple[int, str, int]] = set()  # (deal_id, phase, slot) sent already
        self._asked: tuple[object, ...] | None = None
        self._draining = False
        self._pending_table: Envelope | None = None
        # A resumed seat stays silent until its driver has fetched what the others hold.
        self._hold = False
        # Set by a driver that sends each envelope before the table processes it itself
        # (``proceed``), so its peers need not wait for, say, this seat's own audit.
        self.send_first = False
        self._deferred = False
        # the schedule
        self._order: list[int] = []
        self._slot = 0
        self.deal_id = 0
        self._lot_commits: dict[int, bytes] = {}
        self._lot_values: dict[int, bytes] = {}
        self._my_lot: bytes | None = None
        self.track: BelkaTrack | None = None
        self.deck: DealDeck | None = None
        self.my_hand: dict[int, int] = {}  # pos -> card index
        self._trumps: dict[int, m.TrumpMsg] = {}
        self._jc_claims: list[int] = []
        self._redeal: tuple[int, int] | None = None  # (seat, hand mask)
        self._dispute: list[ev.Fault] = []
        self._played_positions: set[int] = set()
        self._deal_heads: tuple[bytes, ...] = ()
        self._public_cards: dict[int, int] = {}  # card index -> seat, for cards opened to all

    # -- construction ----------------------------------------------------------------

    @classmethod
    def host(cls, signer: Signer, game_id: bytes, setup: m.TableMsg, **kwargs: object) -> Table:
        """The hosting seat's table: it signs the ``table`` envelope that opens the game."""
        table = cls(game_id, signer=signer, **kwargs)  # type: ignore[arg-type]
        envelope = table._seal(0, setup)
        table._outgoing.append(envelope.raw)
        table.receive(envelope.raw)
        return table

    @classmethod
    def resume(
        cls,
        signer: Signer,
        envelopes: list[Envelope],
        *,
        seed_source: Callable[[], bytes],
        on_accept: Callable[[Envelope], None] | None = None,
    ) -> Table:
        """Rebuild a seat's table from its own transcript, after a crash.

        ``seed_source`` must give the same values, in the same order, as the lost
        table drew them (lot value, then one seed per deal): a peer keeps them on
        disk.  The table is *held*: it sends nothing until ``release``, so the
        driver can first fetch what the others hold (its own envelopes sent just
        before the crash included; those are reused, never signed anew, or the
        seat would equivocate).  Raises ``OrderError`` if the transcript does not
        replay.
        """
        if not envelopes:
            raise OrderError("an empty transcript: nothing to resume")
        table = cls(envelopes[0].game, signer=signer, seed_source=seed_source)
        table._hold = True
        for envelope in envelopes:
            if table.finished:
                raise OrderError("envelope after the end of the game")
            table.replay(envelope)
        table._on_accept = on_accept
        return table

    @property
    def held(self) -> bool:
        return self._hold

    def release(self) -> None:
        """Let a resumed table speak for its seat again: it sends what it owes now."""
        if not self._hold:
            return
        self._hold = False
        self._asked = None
        self._act()
        self._drain()

    @property
    def deferred(self) -> bool:
        """True when ``send_first`` stopped processing so the driver could send."""
        return self._deferred

    def proceed(self) -> None:
        """Go on processing after ``send_first`` stopped for the driver to send."""
        self._deferred = False
        self._drain()

    def take_outgoing(self) -> list[bytes]:
        out, self._outgoing = self._outgoing, []
        return out

    def take_events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        return out

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.OVER, Phase.ABORTED)

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
        if self.setup is None:
            self._receive_table(envelope)
            return
        seat = self.seat_of(envelope.sender)
        if seat is None:
            self._events.append(ev.Rejected("sender is not seated at this table"))
            return
        try:
            self._intake_or_fail().offer(seat, envelope)
        except IntakeError as exc:
            self._events.append(ev.Rejected(str(exc), seat))
            return
        self._drain()

    def replay(self, envelope: Envelope) -> None:
        """Feed a transcript envelope, which must be exactly the one due next (verify)."""
        if self.setup is not None and not self.finished:
            due = self.due_seat()
            seat = self.seat_of(envelope.sender)
            if (
                seat is None
                or seat != due
                or envelope.seq != self._intake_or_fail().chains[seat].next_seq
            ):
                who = "an unseated key" if seat is None else f"seat {seat} (seq {envelope.seq})"
                raise OrderError(f"out of order: expected seat {due}'s next message, got {who}")
        before = len(self.transcript)
        self.receive_envelope(envelope)
        if len(self.transcript) == before and not self.finished:
            rejected = [e for e in self._events if isinstance(e, ev.Rejected)]
            raise OrderError(rejected[-1].reason if rejected else "envelope not accepted")

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
        return out

    def envelopes_from(self, seat: int, seq: int, limit: int = 256) -> list[bytes]:
        """``seat``'s envelopes from ``seq`` on that this table holds, accepted or
        waiting, in chain order: the answer to a resend request (any peer may relay)."""
        if self._intake is None or not 0 <= seat < self.n_seats:
            return []
        key = self.setup.seats[seat].key if self.setup else b""
        out = [e.raw for e in self.transcript if e.sender == key and e.seq >= seq]
        chain = self._intake.chains[seat]
        nxt = max(seq, chain.next_seq)
        while nxt in chain.waiting and len(out) < limit:
            out.append(chain.waiting[nxt].raw)
            nxt += 1
        return out[:limit]

    def seat_of(self, key: bytes) -> int | None:
        assert self.setup is not None
        for seat, info in enumerate(self.setup.seats):
            if info.key == key:
                return seat
        return None

    def due_seat(self) -> int | None:
        """The seat whose envelope is processed next, or None (finished)."""
        if self.finished or not self._order:
            return None
        return self._order[self._slot]

    def awaiting_player(self) -> bool:
        """Whether what is due may be a person's decision (a card, a re-deal, the eggs),
        rather than work a program does in milliseconds."""
        return self.phase in (Phase.PLAY, Phase.READY, Phase.CHOICE)

    def missing(self) -> list[int]:
        """Seats the table is waiting for (for a driver's timeout)."""
        seat = self.due_seat()
        return [] if seat is None else [seat]

    def abandon(self, seats: list[int], why: str = "went silent") -> None:
        """The driver gave up on ``seats``: end the game naming them."""
        if self.finished:
            return
        what = f"{why} while {self.phase.value} was due"
        self._abort(*(ev.Fault(s, what, deal=self.deal_id or None) for s in seats))

    # -- the local player's choices -------------------------------------------------------

    def legal_cards(self) -> list[Card]:
        if self.me is None or self.track is None or self.phase is not Phase.PLAY:
            return []
        return self.track.legal_cards(self.me)

    def play(self, card: Card) -> None:
        if self.phase is not Phase.PLAY or self.due_seat() != self.me:
            raise ValueError("it is not your turn to play")
        if card not in self.legal_cards():
            raise ValueError(f"{card} is not a legal card now")
        pos = next(p for p, c in self.my_hand.items() if c == card.index)
        assert self.deck is not None
        self._send_once(self._deal_key(), m.PlayMsg(pos, self.deck.my_opening(pos).key))

    def claim_redeal(self, claim: bool) -> None:
        if self.phase is not Phase.READY or self._asked is None:
            raise ValueError("no re-deal decision is due")
        assert self.deck is not None and self.me is not None
        if claim:
            hand = tuple(self.deck.my_opening(pos) for pos in sorted(self.my_hand))
            self._send_once(self._deal_key(), m.RedealMsg(hand))
        else:
            self._send_once(self._deal_key(), m.ReadyMsg())

    def choose_eggs(self, choice: str) -> None:
        if self.phase is not Phase.CHOICE or self.due_seat() != self.me:
            raise ValueError("no eggs choice is due")
        self._send_once(self._deal_key(), m.ChoiceMsg(choice))

    # -- sending ---------------------------------------------------------------------------

    def _deal_key(self) -> tuple[int, str, int]:
        """Identifies one thing the local seat owes, so it is never sent twice."""
        if self.phase in PARALLEL:
            return (self.deal_id, self.phase.value, -1)
        if self.phase is Phase.PLAY:
            return (self.deal_id, self.phase.value, len(self._played_positions))
        return (self.deal_id, self.phase.value, self._slot)

    def _seal(self, deal: int, msg: m.Message) -> Envelope:
        assert self.signer is not None
        envelope = seal_envelope(self.signer, self.game_id, deal, self._my_seq, self._my_prev, msg)
        self._my_seq += 1
        self._my_prev = envelope.digest
        return envelope

    def _send_once(self, key: tuple[int, str, int], msg: m.Message) -> None:
        """Sign, broadcast and queue for ourselves (it is processed in its turn, like any)."""
        if key in self._sent:
            return
        self._sent.add(key)
        self._asked = None
        deal = (
            self.deal_id if self.phase not in (Phase.SIT, Phase.LOT_COMMIT, Phase.LOT_REVEAL) else 0
        )
        pending = self._own_pending()
        if pending is not None:
            # Sent before a crash and handed back by a peer: that one stands.
            envelope = pending
            self._my_seq += 1
            self._my_prev = envelope.digest
        else:
            envelope = self._seal(deal, msg)
        self._outgoing.append(envelope.raw)
        assert self.me is not None
        self._intake_or_fail().offer(self.me, envelope)
        if not self._draining:
            self._drain()

    def _own_pending(self) -> Envelope | None:
        """Our own next envelope, if a peer handed it back (only after a resume)."""
        if self.me is None or self._intake is None:
            return None
        return self._intake.chains[self.me].waiting.get(self._my_seq)

    # -- the opening envelope ------------------------------------------------------------

    def _receive_table(self, envelope: Envelope) -> None:
        if not isinstance(envelope.msg, m.TableMsg):
            self._events.append(ev.Rejected(f"expected the table description, got {envelope.type}"))
            return
        setup = envelope.msg
        if envelope.seq != 0 or envelope.prev != ZERO_HASH or envelope.deal != 0:
            self._events.append(ev.Rejected("the table description must open its sender's chain"))
            return
        if setup.game != "belka" or len(setup.seats) != 4:
            self._events.append(ev.Rejected("only four-seat Belka is played so far"))
            return
        try:
            BelkaTrack.check_options(setup.preset, setup.options)
        except ValueError as exc:
            self._events.append(ev.Rejected(f"bad rules: {exc}"))
            return
        self.setup = setup
        host = self.seat_of(envelope.sender)
        if host is None:
            self.setup = None
            self._events.append(ev.Rejected("the host is not one of the seats"))
            return
        if self.signer is not None:
            self.me = self.seat_of(self.signer.public_key)
        self._intake = Intake(len(setup.seats))
        self._intake.offer(host, envelope)
        self._intake.accept(host)
        self._accepted(envelope)
        self.table_digest = envelope.digest
        self._order = [s for s in range(self.n_seats) if s != host]
        self._slot = 0
        self.phase = Phase.SIT
        self._act()
        self._drain()

    # -- the schedule ----------------------------------------------------------------------

    def _drain(self) -> None:
        """Process every envelope that is due, in the canonical order."""
        self._draining = True
        try:
            self._drain_loop()
        finally:
            self._draining = False

    def _drain_loop(self) -> None:
        intake = self._intake
        while intake is not None and not self.finished and self._order:
            if self.send_first and self._outgoing:
                self._deferred = True
                return
            seat = self._order[self._slot]
            envelope = intake.peek(seat)
            if envelope is None:
                return
            refusal = self._refusal(seat, envelope)
            if refusal:
                intake.drop(seat)
                self._events.append(ev.Rejected(refusal, seat))
                continue
            intake.accept(seat)
            self._accepted(envelope)
            try:
                self._handle(seat, envelope.msg)
                self._next_slot()
            except Abort as abort:
                self._abort(*abort.faults)
                return
            self._act()

    def _refusal(self, seat: int, envelope: Envelope) -> str:
        chain = self._intake_or_fail().chains[seat]
        if envelope.prev != chain.head:
            return "does not follow the sender's previous envelope (broken hash chain)"
        expected_deal = (
            0 if self.phase in (Phase.SIT, Phase.LOT_COMMIT, Phase.LOT_REVEAL) else self.deal_id
        )
        if envelope.deal != expected_deal:
            return f"belongs to deal {envelope.deal}, but deal {expected_deal} is being played"
        allowed = PHASE_TYPES.get(self.phase, frozenset())
        if envelope.type not in allowed:
            return f"out of turn: a {envelope.type} while {'/'.join(sorted(allowed))} is due"
        return ""

    def _accepted(self, envelope: Envelope) -> None:
        self.transcript.append(envelope)
        if (
            self.signer is not None
            and envelope.sender == self.signer.public_key
            and envelope.seq >= self._my_seq
        ):
            self._own_replayed(envelope)
        if self._on_accept is not None:
            self._on_accept(envelope)

    def _own_replayed(self, envelope: Envelope) -> None:
        """One of our own envelopes from before a crash: continue our chain after it."""
        self._my_seq = envelope.seq + 1
        self._my_prev = envelope.digest
        if isinstance(envelope.msg, m.TableMsg):
            return
        self._sent.add(self._deal_key())
        if isinstance(envelope.msg, m.LotCommitMsg) and self._my_lot is None:
            # Drawn here, in the order the lost table drew it, so later seeds line up.
            self._my_lot = self._seed_source()

    def _next_slot(self) -> None:
        """Move the schedule on after an envelope was handled."""
        if self.phase is Phase.PLAY:
            self._after_play()
            return
        if self.phase is Phase.CHOICE:
            self._next_deal_or_end()
            return
        self._slot += 1
        if self._slot < len(self._order):
            return
        finish = {
            Phase.SIT: lambda: self._start_phase(Phase.LOT_COMMIT, self._all_seats()),
            Phase.LOT_COMMIT: lambda: self._start_phase(Phase.LOT_REVEAL, self._all_seats()),
            Phase.LOT_REVEAL: self._finish_lot,
            Phase.COMMIT: lambda: self._start_phase(Phase.SHUFFLE, self._pass_order()),
            Phase.SHUFFLE: lambda: self._start_phase(Phase.LOCK, self._pass_order()),
            Phase.LOCK: lambda: self._start_phase(Phase.SHARES, self._all_seats()),
            Phase.SHARES: self._finish_shares,
            Phase.TRUMP: self._finish_trump,
            Phase.READY: self._finish_ready,
            Phase.REVEAL: self._finish_reveal,
            Phase.DEAL_END: self._finish_deal_end,
        }[self.phase]
        finish()

    # -- the local seat's own moves ------------------------------------------------------

    def _act(self) -> None:
        """Send whatever the local seat owes now; ask the player where the rules give a choice."""
        if self._hold:
            return
        if self.me is None or self.finished or not self._order or self.me not in self._order:
            return
        if self.phase not in PARALLEL and self.due_seat() != self.me:
            return
        key = self._deal_key()
        if key in self._sent:
            return
        pending = self._own_pending()
        if pending is not None and self.phase in (Phase.READY, Phase.PLAY, Phase.CHOICE):
            self._send_once(key, pending.msg)
            return
        msg = self._automatic_message()
        if msg is not None:
            self._send_once(key, msg)

    def _ask(self, kind: str, options: tuple[object, ...]) -> None:
        key = (kind, *self._deal_key())
        if self._asked != key:
            self._asked = key
            self._events.append(ev.ChoiceNeeded(kind, options))

    def _automatic_message(self) -> m.Message | None:
        phase = self.phase
        if phase is Phase.SIT:
            return m.SitMsg(self.table_digest)
        if phase is Phase.LOT_COMMIT:
            self._my_lot = self._seed_source()
            assert self.me is not None
            return m.LotCommitMsg(commit_lot(self.game_id, LOT_PURPOSE, self.me, self._my_lot))
        if phase is Phase.LOT_REVEAL:
            assert self._my_lot is not None
            return m.LotRevealMsg(self._my_lot)
        deck = self._deck()
        assert deck.local is not None
        if phase is Phase.COMMIT:
            return m.CommitMsg(deck.local.commitment)
        if phase in (Phase.SHUFFLE, Phase.LOCK):
            try:
                points = deck.local_pass()
            except DeckFault as exc:
                self._abort(self._fault(exc.seat, exc.what))
                return None
            return (
                m.ShuffleMsg(tuple(points)) if phase is Phase.SHUFFLE else m.LockMsg(tuple(points))
            )
        if phase is Phase.SHARES:
            return m.SharesMsg(tuple(deck.my_shares()))
        if phase is Phase.TRUMP:
            jack = next(
                (deck.my_opening(p) for p, c in self.my_hand.items() if c == JACK_OF_CLUBS), None
            )
            return m.TrumpMsg(jack, bool(self.my_hand))
        if phase is Phase.READY:
            assert self.track is not None and self.me is not None
            if self.track.can_claim_redeal(self.me, self._my_mask()):
                self._ask("redeal", (True, False))
                return None
            return m.ReadyMsg()
        if phase is Phase.PLAY:
            self._ask("play", tuple(self.legal_cards()))
            return None
        if phase is Phase.CHOICE:
            self._ask("eggs", ("plus4", "title"))
            return None
        if phase is Phase.REVEAL:
            return m.RevealMsg(deck.local.seed)
        if phase is Phase.DEAL_END:
            return m.DealEndMsg(self._deal_heads)
        return None
