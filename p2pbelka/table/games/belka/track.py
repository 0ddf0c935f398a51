"""Belka at the table: the rules engine as the table drives it, and Belka's own phases.

During a deal a peer knows only its own hand, so the deal runs with the other
hands unknown (the engine checks turn and freshness for them); at the end the
audit replays it with every hand, and only that audited deal is scored.

Belka adds three phases to the common schedule (``table/flow.py``): ``trump``
(every seat says whether it holds the J♣, its holder opening it), ``ready``
(a seat whose hand allows it may claim a re-deal, opening its hand) and
``choice`` (after eggs, the winners of the next deal choose their bonus).
Belka's own events and its standing are in ``events.py`` beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar

from p2pbelka.cards import CARDS, Card
from p2pbelka.protocol import messages as m
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka import moves as belka_mv
from p2pbelka.rules.belka.deal import DealState, RedealClaim
from p2pbelka.rules.belka.game import EGGS_CHOICES, GAME, SEATS, DealResult, EggsChoice, GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.summary import summarize
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import Play
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.context import TableContext
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.events import Fault
from p2pbelka.table.flow import NEXT_DEAL, close_deal, next_deal_or_over
from p2pbelka.table.games.belka.events import BelkaScore, EggsChosen, RedealClaimed, TrumpAnnounced
from p2pbelka.table.phase import Abort, GamePhases, Phase, Question, Step, all_seats, leads_to
from p2pbelka.table.track import Settlement, TrickDone, TrickSoFar

ROUNDS = 4
CARDS_PER_ROUND = 2


class BelkaPhase(StrEnum):
    """Belka's own phases (the others are every game's: ``phase.Phase``)."""

    TRUMP = "trump"
    READY = "ready"
    CHOICE = "choice"


@dataclass
class Announcements:
    """What seats said about their hands in this deal, before play."""

    trump: dict[int, m.TrumpMsg] = field(default_factory=dict)
    jc_claims: list[int] = field(default_factory=list)
    redeal: tuple[int, int] | None = None  # (seat, hand mask) of the re-deal that counts


class BelkaTrack:
    name: ClassVar[str] = GAME

    def __init__(self, game: GameState) -> None:
        self._game = game
        self.said = Announcements()

    @classmethod
    def new(cls, setup: m.TableMsg, first_dealer: int) -> BelkaTrack:
        return cls(GameState.new(options_from(setup.preset, dict(setup.options)), first_dealer))

    @classmethod
    def resumed(cls, setup: m.TableMsg, game: GameState) -> BelkaTrack:
        return cls(game)

    # -- questions ------------------------------------------------------------------

    @property
    def game(self) -> GameState:
        return self._game

    @property
    def n_seats(self) -> int:
        return SEATS

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
        return None if self._game.deal is None else self._game.deal.turn

    @property
    def finished(self) -> bool:
        return self._game.finished

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def final_score(self) -> tuple[int, ...]:
        return self._game.score

    @property
    def chooser(self) -> int | None:
        """The seat that sends the eggs choice, when the rules ask for one."""
        return self._game.choice_seat

    def standing(self) -> BelkaScore:
        game = self._game
        return BelkaScore(game.score, game.titles, game.eggs_pending, game.seat_suits)

    def owners(self) -> tuple[int, ...]:
        """Four rounds of two cards a seat, from the seat after the dealer."""
        owners: list[int] = []
        for _round in range(ROUNDS):
            for offset in range(1, SEATS + 1):
                owners += [(self.dealer + offset) % SEATS] * CARDS_PER_ROUND
        return tuple(owners)

    def legal_cards(self, seat: int) -> list[Card]:
        return self.deal.legal_cards(seat)

    def forget_hand(self, seat: int) -> None:
        deal = self._game.deal
        if deal is None:
            return  # before the trump is found: ``trump_found`` starts it without
        hands = tuple(None if s == seat else h for s, h in enumerate(deal.hands))
        dealt = tuple(None if s == seat else h for s, h in enumerate(deal.dealt))
        self._game = replace(self._game, deal=replace(deal, hands=hands, dealt=dealt))

    def trick_so_far(self) -> TrickSoFar:
        return TrickSoFar(self.deal.leader, self.deal.current_trick)

    def tricks_won(self) -> tuple[int, ...]:
        return self.deal.tricks_won

    def card_points(self) -> tuple[int, ...]:
        return self.deal.card_points

    @staticmethod
    def can_claim_redeal(hand: int) -> bool:
        return core.is_redeal_hand(hand)

    # -- moves ------------------------------------------------------------------------

    def begin_deal(self) -> None:
        self.said = Announcements()

    def start_play(self, jc_holder: int, me: int | None, my_hand: int | None) -> None:
        hands: list[int | None] = [None] * SEATS
        if me is not None:
            hands[me] = my_hand
        self._game = self._game.start_deal(hands, jc_holder=jc_holder)

    def play(self, seat: int, card: Card) -> TrickDone | None:
        before = len(self.deal.tricks)
        self._game = self._game.apply(Play(seat, card))
        tricks = self.deal.tricks
        if len(tricks) == before:
            return None
        trick = tricks[-1]
        return TrickDone(trick.leader, trick.cards, trick.winner)

    def choose_eggs(self, seat: int, choice: str) -> None:
        self._game = self._game.apply(EggsChoice(seat, choice))

    # -- the end of a deal ------------------------------------------------------------

    def check_announcements(self, hands: Sequence[int], deal: int) -> list[Fault]:
        holder = next(s for s, h in enumerate(hands) if h >> core.JC_INDEX & 1)
        said = self.said.trump.get(holder)
        if said is not None and said.jack is None and said.hand_ok:
            return [Fault(holder, "held the J♣ and said it did not", deal=deal)]
        return []

    def settle(self, hands: Sequence[int], deal: int) -> Settlement:
        out = Settlement()
        try:
            result = self._finish(hands)
        except RuleViolation as exc:
            seat = exc.seat if exc.seat is not None else -1
            what = f"the audited deal breaks the rules: {exc}"
            out.faults.append(Fault(seat, what, deal=deal))
            return out
        for offense in result.offenses:
            what = (
                f"renege: played {offense.card} in trick {offense.trick + 1} ({offense.rule});"
                " charged by the rules"
            )
            out.faults.append(Fault(offense.seat, what, fatal=False, deal=deal))
        out.summary = summarize(result, hands)
        return out

    def _finish(self, hands: Sequence[int]) -> DealResult:
        """Score the deal from the audited hands (reneges become offenses).  Raises
        RuleViolation if the hands do not fit the public record of the deal."""
        redeal = self.said.redeal
        if redeal is not None:
            seat = redeal[0]
            deal = self.deal.with_hand(seat, hands[seat]).apply(RedealClaim(seat))
            self._game = replace(self._game, deal=deal)
        self._game = self._game.finish_deal(self.deal.audited(hands))
        return self._game.history[-1]


# -- Belka's own phases (see the transition table in table/flow.py) -----------------------


def _track(table: TableContext) -> BelkaTrack:
    track = table.track
    assert isinstance(track, BelkaTrack)
    return track


def own_trump(table: TableContext) -> m.Message:
    """Say whether this seat holds the J♣ (opening it if so) and whether its hand opened."""
    rnd = table.round
    pos = rnd.position_of(core.JC_INDEX)
    jack = rnd.deck.my_opening(pos) if pos is not None else None
    return m.TrumpMsg(jack, bool(rnd.my_hand))


def on_trump(table: TableContext, seat: int, msg: m.TrumpMsg) -> None:
    said = _track(table).said
    said.trump[seat] = msg
    if not msg.hand_ok:
        table.dispute(seat, "says its hand did not open to eight cards")
    if msg.jack is None:
        return
    card = table.open_position(seat, msg.jack)
    if card is None:
        return
    if card != core.JC_INDEX:
        raise Abort(table.fault(seat, f"claimed the J♣ with a position holding {CARDS[card]}"))
    said.jc_claims.append(seat)


def trump_found(table: TableContext) -> None:
    """Every seat spoke: exactly one must have shown the J♣, whose holder's suit is
    trumps; play starts for the engine (else the deal is disputed)."""
    track, rnd = _track(table), table.round
    claims = track.said.jc_claims
    if not rnd.disputes and len(claims) != 1:
        table.dispute(-1, "nobody claimed the J♣" if not claims else "the J♣ was claimed twice")
    if rnd.disputes:
        return
    holder = claims[0]
    # Without our hand if another seat showed a card of it (``flow.note_shown_twice``).
    mine = rnd.my_mask() if table.me is not None and rnd.shown_twice is None else None
    track.start_play(holder, table.me, mine)
    deal = track.deal
    table.emit(TrumpAnnounced(holder, deal.trump.letter, deal.trump_team, track.game.seat_suits))


def after_trump(table: TableContext) -> Phase | BelkaPhase:
    return Phase.REVEAL if table.round.disputes else BelkaPhase.READY


def own_ready(table: TableContext) -> m.Message | Question:
    assert table.me is not None
    if table.round.shown_twice is not None:
        return m.ReadyMsg()  # a card of our hand was shown by another seat: no claim
    if BelkaTrack.can_claim_redeal(table.round.my_mask()):
        return Question("redeal", (belka_mv.ClaimRedeal(), belka_mv.Ready()))
    return m.ReadyMsg()


def claim_redeal(table: TableContext, move: mv.Move) -> m.Message:
    rnd = table.round
    if not BelkaTrack.can_claim_redeal(rnd.my_mask()):
        raise MoveRefused("this hand does not allow a re-deal")
    return m.RedealMsg(tuple(rnd.deck.my_opening(pos) for pos in sorted(rnd.my_hand)))


def on_ready(table: TableContext, seat: int, msg: m.ReadyMsg) -> None:
    return None


def on_redeal(table: TableContext, seat: int, msg: m.RedealMsg) -> None:
    rnd = table.round
    positions = sorted(o.pos for o in msg.hand)
    if positions != rnd.deck.positions_of(seat):
        raise Abort(table.fault(seat, "a re-deal claim must open exactly the claimant's hand"))
    mask = 0
    for opening in msg.hand:
        card = table.open_position(seat, opening)
        if card is None:
            return
        mask |= 1 << card
    if not BelkaTrack.can_claim_redeal(mask):
        raise Abort(table.fault(seat, "claimed a re-deal with a hand that does not allow one"))
    table.emit(RedealClaimed(seat, tuple(sorted(CARDS[c] for c in range(32) if mask >> c & 1))))
    said = _track(table).said
    if said.redeal is None:  # two claims at once: the first in seat order counts
        said.redeal = (seat, mask)


def _plays(table: TableContext) -> bool:
    """The deal is played: nothing is disputed and nobody claimed a re-deal."""
    return not table.round.disputes and _track(table).said.redeal is None


def ready(table: TableContext) -> None:
    if _plays(table):
        turn = table.track.turn
        assert turn is not None
        table.emit(ev.TurnToPlay(turn))


def after_ready(table: TableContext) -> Phase:
    return Phase.PLAY if _plays(table) else Phase.REVEAL


def chooser(table: TableContext) -> int | None:
    return _track(table).chooser


def choosers(table: TableContext) -> list[int]:
    seat = chooser(table)
    return [] if seat is None else [seat]


def ask_eggs(table: TableContext) -> Question:
    return Question("eggs", tuple(belka_mv.ChooseEggs(c) for c in EGGS_CHOICES))


def on_choice(table: TableContext, seat: int, msg: m.ChoiceMsg) -> None:
    track = _track(table)
    try:
        track.choose_eggs(seat, msg.eggs)
    except RuleViolation as exc:
        raise Abort(table.fault(seat, f"illegal eggs choice: {exc}")) from None
    table.emit(EggsChosen(seat, msg.eggs, track.standing()))


PHASES = GamePhases(
    steps={
        BelkaPhase.TRUMP: Step(
            {m.TrumpMsg: on_trump},
            all_seats,
            own_trump,
            leads_to(BelkaPhase.READY, Phase.REVEAL),
            then=after_trump,
            on_exit=trump_found,
        ),
        BelkaPhase.READY: Step(
            {m.ReadyMsg: on_ready, m.RedealMsg: on_redeal},
            all_seats,
            own_ready,
            leads_to(Phase.PLAY, Phase.REVEAL),
            then=after_ready,
            on_exit=ready,
            decision=True,
        ),
        BelkaPhase.CHOICE: Step(
            {m.ChoiceMsg: on_choice},
            choosers,
            ask_eggs,
            NEXT_DEAL,
            then=next_deal_or_over,
            on_exit=close_deal,
            parallel=False,
            turn_based=True,
            decision=True,
        ),
    },
    after_shares=BelkaPhase.TRUMP,
    between_deals=BelkaPhase.CHOICE,
    moves={
        belka_mv.ClaimRedeal: claim_redeal,
        belka_mv.Ready: lambda t, move: m.ReadyMsg(),
        belka_mv.ChooseEggs: lambda t, move: m.ChoiceMsg(move.choice),
    },
)
"""Belka's place in the schedule: after the shares every seat says whether it holds the
J♣ (``trump``), then claims a re-deal or is ready; after the deal-end reports, the
eggs choice when the rules ask for one."""
