"""One seat's view of a Belka game over the fair-deal protocol, as a sans-IO state machine.

Feed it envelopes (``receive``) and the local player's choices (``play``,
``claim_redeal``, ``choose_eggs``); take envelopes to broadcast
(``take_outgoing``) and events for the screen or bot (``take_events``).  It
never touches a socket, a clock or trio; the peer driver does.  An observer
(no signer) replays a transcript: that is ``p2pbelka verify``.

Every peer processes envelopes in one canonical order (``_due``), whatever
order they arrive in, so all transcripts of a game are identical; see
protocol/SPEC.md ("Schedule") for the phases and who speaks in each.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from p2pbelka.cards import CARDS, Card
from p2pbelka.fairdeal.deck import LocalSeat
from p2pbelka.fairdeal.derive import DealContext, new_seed
from p2pbelka.fairdeal.errors import FairDealError
from p2pbelka.fairdeal.lots import check_lot, commit_lot, resolve_lots
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.rules.errors import RuleViolation
from p2pbelka.table import events as ev
from p2pbelka.table.audit import audit_deal
from p2pbelka.table.dealdeck import DealDeck, DeckFault
from p2pbelka.table.intake import Intake, IntakeError
from p2pbelka.table.track import BelkaTrack

N_POSITIONS = 32
JACK_OF_CLUBS = Card.parse("JC").index
LOT_PURPOSE = b"first-dealer"


class Phase(StrEnum):
    SIT = "sit"
    LOT_COMMIT = "lot_commit"
    LOT_REVEAL = "lot_reveal"
    COMMIT = "commit"
    SHUFFLE = "shuffle"
    LOCK = "lock"
    SHARES = "shares"
    TRUMP = "trump"
    READY = "ready"
    PLAY = "play"
    REVEAL = "reveal"
    DEAL_END = "deal_end"
    CHOICE = "choice"
    OVER = "over"
    ABORTED = "aborted"


# The message types each phase accepts; a phase where every seat speaks once, in
# seat order, is "parallel": seats send at once and are processed in seat order.
PHASE_TYPES: dict[Phase, frozenset[str]] = {
    Phase.SIT: frozenset({"sit"}),
    Phase.LOT_COMMIT: frozenset({"lot_commit"}),
    Phase.LOT_REVEAL: frozenset({"lot_reveal"}),
    Phase.COMMIT: frozenset({"commit"}),
    Phase.SHUFFLE: frozenset({"shuffle"}),
    Phase.LOCK: frozenset({"lock"}),
    Phase.SHARES: frozenset({"shares"}),
    Phase.TRUMP: frozenset({"trump"}),
    Phase.READY: frozenset({"ready", "redeal"}),
    Phase.PLAY: frozenset({"play"}),
    Phase.REVEAL: frozenset({"reveal"}),
    Phase.DEAL_END: frozenset({"deal_end"}),
    Phase.CHOICE: frozenset({"choice"}),
}
PARALLEL = frozenset(
    {
        Phase.SIT,
        Phase.LOT_COMMIT,
        Phase.LOT_REVEAL,
        Phase.COMMIT,
        Phase.SHARES,
        Phase.TRUMP,
        Phase.READY,
        Phase.REVEAL,
        Phase.DEAL_END,
    }
)


class OrderError(ValueError):
    """A transcript whose envelopes are not in the canonical order."""


class _Abort(Exception):
    def __init__(self, *faults: ev.Fault) -> None:
        self.faults = faults


def deal_owners(dealer: int, n_seats: int = 4) -> tuple[int, ...]:
    """Seat of each deck position: 4 rounds of 2 cards a seat, from the seat after the dealer."""
    owners = []
    for _round in range(4):
        for offset in range(1, n_seats + 1):
            owners += [(dealer + offset) % n_seats] * 2
    return tuple(owners)


class Table:
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

    @property
    def n_seats(self) -> int:
        return len(self.setup.seats) if self.setup else 4

    # -- the driver's side --------------------------------------------------------------

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

    def _intake_or_fail(self) -> Intake:
        assert self._intake is not None, "no table yet"
        return self._intake

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
            except _Abort as abort:
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

    def _start_phase(self, phase: Phase, order: list[int]) -> None:
        self.phase = phase
        self._order = order
        self._slot = 0

    def _all_seats(self) -> list[int]:
        return list(range(self.n_seats))

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

    def _pass_order(self) -> list[int]:
        assert self.track is not None
        return [(self.track.dealer + 1 + i) % self.n_seats for i in range(self.n_seats)]

    # -- handling each message ---------------------------------------------------------

    def _handle(self, seat: int, msg: m.Message) -> None:
        handler = getattr(self, f"_on_{msg.TYPE}")
        handler(seat, msg)

    def _fault(self, seat: int, what: str, fatal: bool = True) -> ev.Fault:
        evidence = (self.transcript[-1].digest.hex(),) if self.transcript else ()
        return ev.Fault(seat, what, evidence, fatal, self.deal_id or None)

    def _on_sit(self, seat: int, msg: m.SitMsg) -> None:
        if msg.table != self.table_digest:
            raise _Abort(self._fault(seat, "agreed to a different table description"))

    def _on_lot_commit(self, seat: int, msg: m.LotCommitMsg) -> None:
        self._lot_commits[seat] = msg.c

    def _on_lot_reveal(self, seat: int, msg: m.LotRevealMsg) -> None:
        self._lot_values[seat] = msg.v
        if not check_lot(self.game_id, LOT_PURPOSE, seat, msg.v, self._lot_commits.get(seat)):
            raise _Abort(
                self._fault(seat, "revealed a lot value that does not match its commitment")
            )

    def _finish_lot(self) -> None:
        seats = self._all_seats()
        outcome = resolve_lots(
            self.game_id,
            LOT_PURPOSE,
            [self._lot_commits[s] for s in seats],
            [self._lot_values[s] for s in seats],
            self.n_seats,
        )
        assert outcome.choice is not None  # every reveal was checked as it came
        assert self.setup is not None
        self.track = BelkaTrack(self.setup.preset, self.setup.options, outcome.choice)
        names = tuple(s.name for s in self.setup.seats)
        self._events.append(ev.GameStarted(names, outcome.choice))
        self._begin_deal()

    def _begin_deal(self) -> None:
        assert self.track is not None
        self.deal_id += 1
        ctx = DealContext(self.game_id, self.deal_id, self.n_seats, N_POSITIONS)
        local = LocalSeat(ctx, self.me, self._seed_source()) if self.me is not None else None
        self.deck = DealDeck(ctx, self._pass_order(), deal_owners(self.track.dealer), local)
        self.my_hand = {}
        self._trumps = {}
        self._jc_claims = []
        self._redeal = None
        self._dispute = []
        self._played_positions = set()
        self._public_cards = {}
        self._events.append(ev.DealStarted(self.deal_id, self.track.deal_number, self.track.dealer))
        self._start_phase(Phase.COMMIT, self._all_seats())

    def _deck(self) -> DealDeck:
        assert self.deck is not None
        return self.deck

    def _on_commit(self, seat: int, msg: m.CommitMsg) -> None:
        self._deck().commitments[seat] = msg.c

    def _on_shuffle(self, seat: int, msg: m.ShuffleMsg) -> None:
        self._add_pass(seat, msg.deck)

    def _on_lock(self, seat: int, msg: m.LockMsg) -> None:
        self._add_pass(seat, msg.deck)

    def _add_pass(self, seat: int, deck: tuple[bytes, ...]) -> None:
        try:
            self._deck().add_pass(seat, deck)
        except DeckFault as exc:
            raise _Abort(self._fault(exc.seat, exc.what)) from None

    def _on_shares(self, seat: int, msg: m.SharesMsg) -> None:
        try:
            self._deck().add_shares(seat, msg.shares)
        except DeckFault as exc:
            raise _Abort(self._fault(exc.seat, exc.what)) from None

    def _finish_shares(self) -> None:
        if self.me is not None:
            hand = self._deck().read_my_hand()
            self.my_hand = hand or {}
            if hand is not None:
                cards = tuple(sorted(CARDS[c] for c in hand.values()))
                self._events.append(ev.HandDealt(self.me, cards))
        self._start_phase(Phase.TRUMP, self._all_seats())

    def _on_trump(self, seat: int, msg: m.TrumpMsg) -> None:
        self._trumps[seat] = msg
        if not msg.hand_ok:
            self._dispute.append(self._fault(seat, "says its hand did not open to eight cards"))
        if msg.jack is None:
            return
        card = self._open(seat, msg.jack)
        if card is None:
            return
        if card != JACK_OF_CLUBS:
            raise _Abort(self._fault(seat, f"claimed the J♣ with a position holding {CARDS[card]}"))
        self._jc_claims.append(seat)

    def _open(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        try:
            card = self._deck().open(seat, opening)
        except DeckFault as exc:
            raise _Abort(self._fault(exc.seat, exc.what)) from None
        except FairDealError as exc:
            self._dispute.append(self._fault(seat, f"opened a position that is not a card: {exc}"))
            return None
        if self._public_cards.get(card, seat) != seat:
            self._dispute.append(
                self._fault(seat, f"opened {CARDS[card]}, already shown by another seat")
            )
            return None
        self._public_cards[card] = seat
        return card

    def _finish_trump(self) -> None:
        assert self.track is not None
        if not self._dispute and len(self._jc_claims) != 1:
            what = "nobody claimed the J♣" if not self._jc_claims else "the J♣ was claimed twice"
            self._dispute.append(ev.Fault(-1, what, deal=self.deal_id))
        if self._dispute:
            self._start_phase(Phase.REVEAL, self._all_seats())
            return
        holder = self._jc_claims[0]
        mine = self._my_mask() if self.me is not None else None
        self.track.start_deal(holder, self.me, mine)
        deal = self.track.deal
        self._events.append(ev.TrumpAnnounced(holder, deal.trump.letter, deal.trump_team))
        self._start_phase(Phase.READY, self._all_seats())

    def _my_mask(self) -> int:
        mask = 0
        for card in self.my_hand.values():
            mask |= 1 << card
        return mask

    def _on_ready(self, seat: int, msg: m.ReadyMsg) -> None:
        pass

    def _on_redeal(self, seat: int, msg: m.RedealMsg) -> None:
        positions = sorted(o.pos for o in msg.hand)
        if positions != self._deck().positions_of(seat):
            raise _Abort(self._fault(seat, "a re-deal claim must open exactly the claimant's hand"))
        mask = 0
        for opening in msg.hand:
            card = self._open(seat, opening)
            if card is None:
                return
            mask |= 1 << card
        assert self.track is not None
        if not self.track.can_claim_redeal(seat, mask):
            raise _Abort(self._fault(seat, "claimed a re-deal with a hand that does not allow one"))
        cards = tuple(sorted(CARDS[c] for c in range(32) if mask >> c & 1))
        self._events.append(ev.RedealClaimed(seat, cards))
        if self._redeal is None:
            self._redeal = (seat, mask)

    def _finish_ready(self) -> None:
        if self._dispute or self._redeal is not None:
            self._start_phase(Phase.REVEAL, self._all_seats())
            return
        assert self.track is not None
        turn = self.track.turn
        assert turn is not None
        self._start_phase(Phase.PLAY, [turn])

    def _on_play(self, seat: int, msg: m.PlayMsg) -> None:
        if msg.pos in self._played_positions:
            raise _Abort(self._fault(seat, f"played position {msg.pos} a second time"))
        card = self._open(seat, m.Opening(msg.pos, msg.key))
        self._played_positions.add(msg.pos)
        if card is None:
            return
        assert self.track is not None
        try:
            trick = self.track.play(seat, CARDS[card])
        except RuleViolation as exc:
            raise _Abort(self._fault(seat, f"illegal play: {exc}")) from None
        self._events.append(ev.CardPlayed(seat, CARDS[card]))
        if trick is not None:
            self._events.append(ev.TrickTaken(trick.leader, trick.cards, trick.winner))

    def _after_play(self) -> None:
        assert self.track is not None
        turn = self.track.turn
        if self._dispute or turn is None:
            self._start_phase(Phase.REVEAL, self._all_seats())
        else:
            self._order, self._slot = [turn], 0

    def _on_reveal(self, seat: int, msg: m.RevealMsg) -> None:
        if not self._deck().add_seed(seat, msg.seed):
            raise _Abort(self._fault(seat, "revealed a seed that does not match its commitment"))

    def _finish_reveal(self) -> None:
        assert self.track is not None
        report = audit_deal(self, self._deck())
        fatal = [f for f in report.faults if f.fatal]
        for fault in report.faults:
            self._events.append(ev.FaultFound(fault))
        if fatal:
            raise _Abort(*fatal)
        self._events.append(ev.DealAudited(self.deal_id, report.summary))
        self._deal_heads = self._intake_or_fail().heads()
        self._start_phase(Phase.DEAL_END, self._all_seats())

    def _on_deal_end(self, seat: int, msg: m.DealEndMsg) -> None:
        if msg.heads == self._deal_heads:
            return
        if len(msg.heads) != len(self._deal_heads):
            raise _Abort(self._fault(seat, "sent a deal-end report of the wrong size"))
        differing = [
            s for s, (a, b) in enumerate(zip(msg.heads, self._deal_heads, strict=True)) if a != b
        ]
        raise _Abort(
            *(
                self._fault(s, f"told different peers different things (seen by seat {seat})")
                for s in differing
            )
        )

    def _finish_deal_end(self) -> None:
        assert self.track is not None
        chooser = self.track.chooser
        if chooser is not None:
            self._start_phase(Phase.CHOICE, [chooser])
            return
        self._next_deal_or_end()

    def _on_choice(self, seat: int, msg: m.ChoiceMsg) -> None:
        assert self.track is not None
        self.track.choose_eggs(seat, msg.eggs)
        self._events.append(ev.EggsChosen(seat, msg.eggs))

    def _next_deal_or_end(self) -> None:
        assert self.track is not None
        if self.track.finished:
            self.phase = Phase.OVER
            self._order = []
            self._events.append(ev.GameOver(self.track.winner, self.track.score))
            return
        self._begin_deal()

    def _abort(self, *faults: ev.Fault) -> None:
        self.faults.extend(faults)
        self.phase = Phase.ABORTED
        self._order = []
        self._events.append(ev.GameAborted(tuple(faults)))

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
