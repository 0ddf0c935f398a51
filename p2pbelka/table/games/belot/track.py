"""Belot (2 or 3 players) at the table: the rules engine as the table drives it, and
Belot's own phases over the same fair deck.

The deck is dealt by the rules' pattern (``rules.belot.core.deal_pattern``): six
positions per seat, the turned card, three more per seat, the stock.  The
positions open in stages (protocol/fairdeal.md, "Belot's position schedule"):

- ``shares``: each seat's first six open to their owner;
- ``turn``: every seat publishes its share of the turned card, which opens to all;
- ``bid``: one call per turn, until someone takes the deal or all pass twice (void);
- ``extra``: each seat's three more open to their owner;
- ``play``: at its lead a seat may declare (the cards open to all, as played
  cards do) or, after taking a trick, claim 1001; then its card;
- the stock's other positions stay face down until the seeds are revealed.

During a deal a peer knows its own hand only; at the end the audit replays the
deal with every position known (first six, turned card, three more, stock) and
scores it with the engine.  A void deal is audited the same way, then the next
seat deals.  Belot's own events are in ``events.py`` beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import ClassVar

from p2pbelka.cards import CARDS, Card
from p2pbelka.fairdeal.errors import FairDealError
from p2pbelka.protocol import messages as m
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot import summary as belot_summary
from p2pbelka.rules.belot.deal import PASS, Action, Bid, Claim, DealState, Declare
from p2pbelka.rules.belot.game import BelotGame, DealResult
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.belot.spec import GAME
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import Play
from p2pbelka.table import events as ev
from p2pbelka.table import flow
from p2pbelka.table import moves as mv
from p2pbelka.table.audit import DealAudit, audit_deal
from p2pbelka.table.context import TableContext
from p2pbelka.table.dealdeck import DeckFault
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.events import Fault, Score
from p2pbelka.table.games.belot.events import BidMade, CardTurned, Claimed, Declared
from p2pbelka.table.phase import (
    Abort,
    GamePhases,
    Handler,
    Phase,
    PhaseId,
    Question,
    Step,
    all_seats,
    leads_to,
)
from p2pbelka.table.phase import Action as Closing
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack, Settlement, TrickDone, TrickSoFar

FIRST, EXTRA = 6, 3


class BelotPhase(StrEnum):
    """Belot's own phases (the others are every game's: ``phase.Phase``)."""

    TURN = "turn"
    BID = "bid"
    EXTRA = "extra"


# -- the position schedule ------------------------------------------------------------


def first_positions(players: int) -> range:
    """The first six of every seat (opened to their owners by ``shares``)."""
    return range(FIRST * players)


def turned_position(players: int) -> int:
    return FIRST * players


def extra_positions(players: int) -> range:
    """The three more of every seat (opened to their owners by ``extra``)."""
    return range(FIRST * players + 1, (FIRST + EXTRA) * players + 1)


# -- the track ------------------------------------------------------------------------


class BelotTrack:
    name: ClassVar[str] = GAME

    def __init__(self, game: BelotGame) -> None:
        self._game = game
        self._before = game
        """The game before the deal in progress: the audit replays the deal from it."""
        self.actions: list[Action] = []
        """The deal's calls, declarations, cards and claim, in order."""

    @classmethod
    def new(cls, setup: m.TableMsg, first_dealer: int) -> BelotTrack:
        options = belot_options(dict(setup.options))
        return cls(BelotGame.new(options, len(setup.seats), first_dealer))

    @classmethod
    def resumed(cls, setup: m.TableMsg, game: BelotGame) -> BelotTrack:
        return cls(game)

    # -- questions ------------------------------------------------------------------

    @property
    def game(self) -> BelotGame:
        return self._game

    @property
    def n_seats(self) -> int:
        return self._game.players

    @property
    def dealer(self) -> int:
        return self._game.dealer

    @property
    def deal_number(self) -> int:
        return self._game.deal_number

    @property
    def deal(self) -> DealState:
        assert self._game.deal is not None, "no deal in progress"
        return self._game.deal

    @property
    def turn(self) -> int | None:
        deal = self._game.deal
        return None if deal is None or deal.phase != "play" else deal.turn

    @property
    def finished(self) -> bool:
        return self._game.finished

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def final_score(self) -> tuple[int, ...]:
        return self._game.score

    def standing(self) -> Score:
        return Score(self._game.score)

    def owners(self) -> tuple[int, ...]:
        """The rules' pattern: -1 for the turned card, -2 for the stock (nobody's)."""
        return core.deal_pattern(self.n_seats, self.dealer)

    def legal_cards(self, seat: int) -> list[Card]:
        return self.deal.legal_cards(seat)

    def forget_hand(self, seat: int) -> None:
        deal = self._game.deal
        if deal is None:
            return  # before the card is turned: ``open_turned`` starts it without

        def without(masks: tuple[int | None, ...]) -> tuple[int | None, ...]:
            return tuple(None if s == seat else h for s, h in enumerate(masks))

        extra = None if deal.extra is None else without(deal.extra)
        deal = replace(deal, hands=without(deal.hands), dealt=without(deal.dealt), extra=extra)
        self._game = replace(self._game, deal=deal)

    def trick_so_far(self) -> TrickSoFar:
        deal = self.deal
        return TrickSoFar(deal.leader, tuple(CARDS[i] for i in deal.trick))

    def tricks_won(self) -> tuple[int, ...]:
        won = [0] * self.n_seats
        for trick in self.deal.tricks:
            won[trick.winner] += 1
        return tuple(won)

    def card_points(self) -> tuple[int, ...]:
        return self.deal.card_points

    def action_count(self) -> int:
        """Calls, declarations, cards and claims so far in the deal: which is due next."""
        return len(self.actions)

    # -- moves ------------------------------------------------------------------------

    def begin_deal(self) -> None:
        self._before = self._game
        self.actions = []

    def start_deal(self, turned: Card, me: int | None, first: int | None) -> None:
        hands: list[int | None] = [None] * self.n_seats
        if me is not None:
            hands[me] = first
        self._game = self._game.start_deal(hands, turned)

    def deal_extra(self, me: int | None, extra: int | None) -> None:
        hands: list[int | None] = [None] * self.n_seats
        if me is not None:
            hands[me] = extra
        self._game = self._game.deal_extra(hands)

    def act(self, action: Action) -> None:
        """A call, declaration or claim (raises ``RuleViolation``)."""
        self._game = self._game.apply(action)
        self.actions.append(action)

    def play(self, seat: int, card: Card) -> TrickDone | None:
        before = len(self.deal.tricks)
        self.act(Play(seat, card))
        tricks = self.deal.tricks
        if len(tricks) == before:
            return None
        trick = tricks[-1]
        return TrickDone(trick.leader, trick.cards, trick.winner)

    # -- the end of a deal ------------------------------------------------------------

    def check_announcements(self, hands: Sequence[int], deal: int) -> list[Fault]:
        """Declarations opened their cards when made: nothing is left to check here."""
        return []

    def settle(self, hands: Sequence[int], deal: int) -> Settlement:
        raise TypeError("a Belot deal is settled from every position (settle_positions)")

    def settle_positions(self, cards: Sequence[int], deal: int) -> Settlement:
        """Replay the deal with every position known, then score it."""
        out = Settlement()
        first, turned, extra = split_deck(self.owners_of_deal(), cards)
        try:
            game = self._replay(first, turned, extra)
        except RuleViolation as exc:
            seat = exc.seat if exc.seat is not None else -1
            out.faults.append(Fault(seat, f"the audited deal breaks the rules: {exc}", deal=deal))
            return out
        self._game = game
        out.summary = summarize(game.history[-1], cards, self.owners_of_deal())
        return out

    def owners_of_deal(self) -> tuple[int, ...]:
        """The pattern of the deal being audited (its dealer is the one before it)."""
        return core.deal_pattern(self.n_seats, self._before.dealer)

    def _replay(self, first: list[int], turned: int, extra: list[int]) -> BelotGame:
        game = self._before.start_deal(first, CARDS[turned])
        for action in self.actions:
            deal = game.deal
            assert deal is not None
            if deal.phase == "extra":
                game = game.deal_extra(extra)
            game = game.apply(action)
        deal = game.deal
        assert deal is not None
        if deal.phase == "extra":
            game = game.deal_extra(extra)
        return game.finish_deal()


def split_deck(owners: Sequence[int], cards: Sequence[int]) -> tuple[list[int], int, list[int]]:
    """Every position's card as the rules see it: (first six by seat, turned, three more)."""
    players = max(owners) + 1
    first, extra, turned = [0] * players, [0] * players, -1
    for pos, (owner, card) in enumerate(zip(owners, cards, strict=True)):
        if owner == -1:
            turned = card
        elif owner >= 0:
            (first if pos < FIRST * players else extra)[owner] |= 1 << card
    return first, turned, extra


def summarize(
    result: DealResult, cards: Sequence[int], owners: Sequence[int]
) -> belot_summary.BelotSummary:
    """The deal as players read it afterwards (and as ``verify`` prints it)."""
    stock = [CARDS[c] for c, o in zip(cards, owners, strict=True) if o == -2]
    return belot_summary.summarize(result, stock, len(cards))


# -- Belot's own phases (see the transition table in table/flow.py) -----------------------


def _track(table: TableContext) -> BelotTrack:
    track = table.track
    assert isinstance(track, BelotTrack)
    return track


def _deck_fault(table: TableContext, exc: DeckFault) -> Abort:
    return Abort(table.fault(exc.seat, exc.what))


def shares_step(batch: Callable[[int], range], read: Closing, then: PhaseId) -> Step:
    """A shares phase opening the positions ``batch(players)`` to their owners, which
    ``read`` reads, before ``then``: the common ``shares`` step with the batch (so
    whatever else it accepts is kept)."""

    def own(table: TableContext) -> m.Message:
        return m.SharesMsg(tuple(table.round.deck.my_shares(batch(table.n_seats))))

    def on(table: TableContext, seat: int, msg: m.SharesMsg) -> None:
        try:
            table.round.deck.add_shares(seat, msg.shares, batch(table.n_seats))
        except DeckFault as exc:
            raise _deck_fault(table, exc) from None

    common = flow.shares_step(then)
    return replace(common, handlers={**common.handlers, m.SharesMsg: on}, own=own, on_exit=read)


def read_first_six(table: TableContext) -> None:
    _read(table, first_positions(table.n_seats))


def _read(table: TableContext, batch: range) -> dict[int, int] | None:
    """The local seat reads its positions in ``batch`` (None: they do not open to
    distinct cards new to it: not in its hand already, not the turned card)."""
    if table.me is None:
        return None
    rnd = table.round
    cards = rnd.deck.read_my_hand(batch)
    seen = set(rnd.my_hand.values()) | set(rnd.public_cards)
    if cards is not None and seen & set(cards.values()):
        cards = None
    if cards is not None:
        rnd.my_hand.update(cards)
        table.emit(ev.HandDealt(table.me, tuple(sorted(CARDS[c] for c in rnd.my_hand.values()))))
    return cards


def own_turned(table: TableContext) -> m.Message:
    rnd = table.round
    return m.TurnedMsg(rnd.deck.my_opening(turned_position(table.n_seats)), bool(rnd.my_hand))


def on_turned(table: TableContext, seat: int, msg: m.TurnedMsg) -> None:
    pos = turned_position(table.n_seats)
    if msg.share.pos != pos:
        raise Abort(
            table.fault(seat, f"shared position {msg.share.pos}, not the turned card {pos}")
        )
    try:
        table.round.deck.add_share(seat, msg.share)
    except DeckFault as exc:
        raise _deck_fault(table, exc) from None
    if not msg.hand_ok:
        table.dispute(seat, "says its first six cards did not open")


def open_turned(table: TableContext) -> None:
    """Every share of the turned card is in: open it, and the deal starts for the engine
    (unless the deal is disputed)."""
    rnd = table.round
    if rnd.disputes:
        return
    try:
        card = rnd.deck.open_to_all(turned_position(table.n_seats))
    except FairDealError as exc:
        table.dispute(-1, f"the turned card does not open: {exc}")
        return
    if card in rnd.my_hand.values():
        flow.note_shown_twice(table, -1, card)  # we show our copy at our first card
    rnd.public_cards[card] = -1
    track = _track(table)
    mine = rnd.my_mask() if table.me is not None and rnd.shown_twice is None else None
    track.start_deal(CARDS[card], table.me, mine)
    table.emit(CardTurned(CARDS[card], track.deal.turn))


def after_turned(table: TableContext) -> PhaseId:
    return Phase.REVEAL if table.round.disputes else BelotPhase.BID


def bidder(table: TableContext) -> list[int]:
    deal = _track(table).deal
    return [deal.turn] if deal.phase == "bidding" and deal.turn is not None else []


def ask_bid(table: TableContext) -> m.Message | Question:
    assert table.me is not None
    if table.round.shown_twice is not None:
        # Our hand holds a card shown elsewhere: the deal is going to the audit, and
        # our copy is shown at our first card; pass is always a legal call.
        return m.BidMsg(PASS)
    calls = _track(table).deal.legal_calls(table.me)
    return Question("bid", tuple(belot_mv.Bid(c) for c in calls))


def on_bid(table: TableContext, seat: int, msg: m.BidMsg) -> None:
    track = _track(table)
    try:
        track.act(Bid(seat, msg.call))
    except RuleViolation as exc:
        raise Abort(table.fault(seat, f"illegal call: {exc}")) from None
    deal = track.deal
    trump = None if deal.trump is None else deal.trump.letter
    table.emit(BidMade(seat, msg.call, deal.declarer, trump, deal.turn, deal.void))


def after_bidding(table: TableContext) -> PhaseId:
    return Phase.REVEAL if _track(table).deal.void else BelotPhase.EXTRA


def read_extra(table: TableContext) -> None:
    track = _track(table)
    cards = _read(table, extra_positions(table.n_seats))
    mask = None
    if cards is not None and table.round.shown_twice is None:
        mask = 0
        for card in cards.values():
            mask |= 1 << card
    track.deal_extra(table.me, mask)
    turn = track.turn
    assert turn is not None
    table.emit(ev.TurnToPlay(turn))


def ask_move(table: TableContext) -> m.Message | Question:
    """At its lead a seat may also declare, or claim 1001; then (always) a card."""
    me = table.me
    assert me is not None
    forced = flow.forced_play(table)
    if forced is not None:
        return forced  # another seat showed a card of our hand: our copy, for all to see
    deal = _track(table).deal
    if deal.hands[me] is None:
        return m.UnopenedMsg()  # its three more did not open: it cannot play
    moves: list[mv.Move] = []
    if deal.can_claim(me):
        moves.append(belot_mv.Claim1001())
    moves += [belot_mv.Declare(cards) for cards in deal.legal_declarations(me)]
    moves += [mv.PlayCard(c) for c in deal.legal_cards(me)]
    return Question("play", tuple(moves))


def declare(table: TableContext, move: mv.Move) -> m.Message:
    assert isinstance(move, belot_mv.Declare)
    rnd = table.round
    openings = []
    for card in move.cards:
        pos = rnd.position_of(card.index)
        if pos is None or pos in rnd.played:
            raise MoveRefused(f"{card} is not in your hand")
        openings.append(rnd.deck.my_opening(pos))
    return m.DeclareMsg(tuple(openings))


def on_declare(table: TableContext, seat: int, msg: m.DeclareMsg) -> None:
    cards = []
    for opening in msg.cards:
        if opening.pos in table.round.played:
            raise Abort(table.fault(seat, f"declared position {opening.pos}, already played"))
        card = table.open_position(seat, opening)
        if card is None:
            return
        cards.append(CARDS[card])
    track = _track(table)
    try:
        track.act(Declare(seat, tuple(cards)))
    except RuleViolation as exc:
        raise Abort(table.fault(seat, f"false declaration: {exc}")) from None
    made = track.deal.declarations[-1]
    table.emit(Declared(seat, tuple(made.cards), made.name, made.value))


def on_claim(table: TableContext, seat: int, msg: m.ClaimMsg) -> None:
    track = _track(table)
    try:
        track.act(Claim(seat))
    except RuleViolation as exc:
        raise Abort(table.fault(seat, f"false claim of 1001: {exc}")) from None
    table.emit(Claimed(seat, track.deal.claim_total(seat)))


def on_unopened(table: TableContext, seat: int, msg: m.UnopenedMsg) -> None:
    table.dispute(seat, "says its three more cards did not open")


def audit_belot_deal(rnd: DealRound, track: GameTrack) -> DealAudit:
    """The common audit, settled from every position (first six, turned, three more)."""
    assert isinstance(track, BelotTrack)
    return audit_deal(rnd, track, lambda cards: track.settle_positions(cards, rnd.deal_id))


def play_step() -> Step:
    """The common trick play, where the seat to act may also declare, claim or say its
    three more did not open; one seat sends several messages in a row (``slot``)."""
    common = flow.PLAY_STEP
    handlers: dict[type[m.Message], Handler] = {
        **common.handlers,
        m.DeclareMsg: on_declare,
        m.ClaimMsg: on_claim,
        m.UnopenedMsg: on_unopened,
    }
    return replace(common, handlers=handlers, own=ask_move, slot=action_slot)


def action_slot(table: TableContext) -> int:
    return _track(table).action_count()


PHASES = GamePhases(
    steps={
        Phase.SHARES: shares_step(first_positions, read_first_six, BelotPhase.TURN),
        BelotPhase.TURN: Step(
            {m.TurnedMsg: on_turned},
            all_seats,
            own_turned,
            leads_to(BelotPhase.BID, Phase.REVEAL),
            then=after_turned,
            on_exit=open_turned,
        ),
        BelotPhase.BID: Step(
            {m.BidMsg: on_bid},
            bidder,
            ask_bid,
            leads_to(BelotPhase.EXTRA, Phase.REVEAL),
            then=after_bidding,
            parallel=False,
            turn_based=True,
            decision=True,
            slot=action_slot,
        ),
        BelotPhase.EXTRA: shares_step(extra_positions, read_extra, Phase.PLAY),
        Phase.PLAY: play_step(),
    },
    after_shares=BelotPhase.TURN,
    audit=audit_belot_deal,
    moves={
        belot_mv.Bid: lambda t, move: m.BidMsg(move.call),
        belot_mv.Declare: declare,
        belot_mv.Claim1001: lambda t, move: m.ClaimMsg(),
    },
)
"""Belot's place in the schedule: its own shares (the first six only), the turned card,
bidding, the three more, trick play with declarations and claims, and its audit
(every other phase, the reveal included, is the common one)."""
