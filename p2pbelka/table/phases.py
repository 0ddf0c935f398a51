"""What a table does with each message of a game, phase by phase (protocol/SPEC.md §4).

A mixin of :class:`~p2pbelka.table.session.Table`, kept apart so each file reads in
one sitting: ``session`` takes envelopes in and keeps the canonical order; this
module applies them: the lot, the deck's passes and shares, the J♣, re-deals,
plays, the reveal and its audit, the deal-end comparison and the eggs choice.
A handler that finds a seat at fault raises :class:`Abort`.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.cards import CARDS
from p2pbelka.fairdeal.deck import LocalSeat
from p2pbelka.fairdeal.derive import DealContext
from p2pbelka.fairdeal.errors import FairDealError
from p2pbelka.fairdeal.lots import check_lot, resolve_lots
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.rules.errors import RuleViolation
from p2pbelka.table import events as ev
from p2pbelka.table.audit import audit_deal
from p2pbelka.table.dealdeck import DealDeck, DeckFault
from p2pbelka.table.intake import Intake
from p2pbelka.table.schedule import (
    JACK_OF_CLUBS,
    LOT_PURPOSE,
    N_POSITIONS,
    Abort,
    Phase,
    deal_owners,
)
from p2pbelka.table.track import BelkaTrack


class GameFlow:
    # State kept by the table (set in ``Table.__init__``), used here.
    game_id: bytes
    me: int | None
    setup: m.TableMsg | None
    table_digest: bytes
    phase: Phase
    transcript: list[Envelope]
    faults: list[ev.Fault]
    deal_id: int
    track: BelkaTrack | None
    deck: DealDeck | None
    my_hand: dict[int, int]
    _seed_source: Callable[[], bytes]
    _events: list[ev.Event]
    _intake: Intake | None
    _order: list[int]
    _slot: int
    _lot_commits: dict[int, bytes]
    _lot_values: dict[int, bytes]
    _trumps: dict[int, m.TrumpMsg]
    _jc_claims: list[int]
    _redeal: tuple[int, int] | None
    _dispute: list[ev.Fault]
    _played_positions: set[int]
    _deal_heads: tuple[bytes, ...]
    _public_cards: dict[int, int]

    @property
    def n_seats(self) -> int:
        return len(self.setup.seats) if self.setup else 4

    # -- the driver's side --------------------------------------------------------------

    def _intake_or_fail(self) -> Intake:
        assert self._intake is not None, "no table yet"
        return self._intake

    def _pass_order(self) -> list[int]:
        assert self.track is not None
        return [(self.track.dealer + 1 + i) % self.n_seats for i in range(self.n_seats)]

    def _all_seats(self) -> list[int]:
        return list(range(self.n_seats))

    def _start_phase(self, phase: Phase, order: list[int]) -> None:
        self.phase = phase
        self._order = order
        self._slot = 0

    # -- handling each message ---------------------------------------------------------

    def _handle(self, seat: int, msg: m.Message) -> None:
        handler = getattr(self, f"_on_{msg.TYPE}")
        handler(seat, msg)

    def _fault(self, seat: int, what: str, fatal: bool = True) -> ev.Fault:
        evidence = (self.transcript[-1].digest.hex(),) if self.transcript else ()
        return ev.Fault(seat, what, evidence, fatal, self.deal_id or None)

    def _on_sit(self, seat: int, msg: m.SitMsg) -> None:
        if msg.table != self.table_digest:
            raise Abort(self._fault(seat, "agreed to a different table description"))

    def _on_lot_commit(self, seat: int, msg: m.LotCommitMsg) -> None:
        self._lot_commits[seat] = msg.c

    def _on_lot_reveal(self, seat: int, msg: m.LotRevealMsg) -> None:
        self._lot_values[seat] = msg.v
        if not check_lot(self.game_id, LOT_PURPOSE, seat, msg.v, self._lot_commits.get(seat)):
            raise Abort(
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
            raise Abort(self._fault(exc.seat, exc.what)) from None

    def _on_shares(self, seat: int, msg: m.SharesMsg) -> None:
        try:
            self._deck().add_shares(seat, msg.shares)
        except DeckFault as exc:
            raise Abort(self._fault(exc.seat, exc.what)) from None

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
            raise Abort(self._fault(seat, f"claimed the J♣ with a position holding {CARDS[card]}"))
        self._jc_claims.append(seat)

    def _open(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        try:
            card = self._deck().open(seat, opening)
        except DeckFault as exc:
            raise Abort(self._fault(exc.seat, exc.what)) from None
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
            raise Abort(self._fault(seat, "a re-deal claim must open exactly the claimant's hand"))
        mask = 0
        for opening in msg.hand:
            card = self._open(seat, opening)
            if card is None:
                return
            mask |= 1 << card
        assert self.track is not None
        if not self.track.can_claim_redeal(seat, mask):
            raise Abort(self._fault(seat, "claimed a re-deal with a hand that does not allow one"))
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
            raise Abort(self._fault(seat, f"played position {msg.pos} a second time"))
        card = self._open(seat, m.Opening(msg.pos, msg.key))
        self._played_positions.add(msg.pos)
        if card is None:
            return
        assert self.track is not None
        try:
            trick = self.track.play(seat, CARDS[card])
        except RuleViolation as exc:
            raise Abort(self._fault(seat, f"illegal play: {exc}")) from None
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
            raise Abort(self._fault(seat, "revealed a seed that does not match its commitment"))

    def _finish_reveal(self) -> None:
        assert self.track is not None
        report = audit_deal(self, self._deck())
        fatal = [f for f in report.faults if f.fatal]
        for fault in report.faults:
            self._events.append(ev.FaultFound(fault))
        if fatal:
            raise Abort(*fatal)
        self._events.append(ev.DealAudited(self.deal_id, report.summary))
        self._deal_heads = self._intake_or_fail().heads()
        self._start_phase(Phase.DEAL_END, self._all_seats())

    def _on_deal_end(self, seat: int, msg: m.DealEndMsg) -> None:
        if msg.heads == self._deal_heads:
            return
        if len(msg.heads) != len(self._deal_heads):
            raise Abort(self._fault(seat, "sent a deal-end report of the wrong size"))
        differing = [
            s for s, (a, b) in enumerate(zip(msg.heads, self._deal_heads, strict=True)) if a != b
        ]
        raise Abort(
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
