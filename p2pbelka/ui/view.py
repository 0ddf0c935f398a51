"""What the table screen shows, kept up to date from the table's events.

The screen draws only from a :class:`TableView`; the view is built from the
table's events alone (each carries what is drawn of it), so it never reads the
table.  No prompt_toolkit here: this is tested on its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from p2pbelka.cards import Card, Suit
from p2pbelka.peer.driver import Waiting
from p2pbelka.peer.seatdrivers import OfferClosed, SeatOffer
from p2pbelka.rules.belka import core
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import belka_events as belka_ev
from p2pbelka.table import events as ev
from p2pbelka.table.moves import PlayCard
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui.i18n import _
from p2pbelka.ui.text import card_label, seat_name, suit_name, team_name

LOG_LIMIT = 500


@dataclass
class TrickView:
    leader: int
    cards: list[Card]
    winner: int | None = None
    seats: int = 4  # Belot's tricks go round two or three

    def by_seat(self) -> dict[int, Card]:
        return {(self.leader + i) % self.seats: card for i, card in enumerate(self.cards)}


@dataclass(frozen=True, slots=True)
class DealEnd:
    """A deal the audit verified, as the pages show it: its summary, the faults the
    audit charged in it, and when it ended (``time.time()``)."""

    summary: DealSummary
    faults: tuple[ev.Fault, ...] = ()
    when: float = 0.0


@dataclass
class TableView:
    me: int = 0
    names: list[str] = field(default_factory=lambda: [f"{s}" for s in range(4)])
    keys: list[bytes] = field(default_factory=list)
    scoring: str = "classic"
    dealer: int | None = None
    deal_number: int = 0
    trump: Suit | None = None
    trump_team: int | None = None
    jc_holder: int | None = None
    seat_suits: tuple[Suit, ...] | None = None
    hand: list[Card] = field(default_factory=list)
    legal: set[Card] = field(default_factory=set)
    selected: int = 0
    choice: str | None = None  # "play", "redeal" or "eggs" while the rules ask us
    asked: str | None = None  # the last question, until answered (the screen clears choice)
    offer: SeatOffer | None = None  # a bot for a lost seat (or the seat back): y or n
    turn: int | None = None
    trick: TrickView | None = None
    last_trick: TrickView | None = None
    # by team in Belka; by seat in Belot (ui/belot_view.py)
    tricks_won: tuple[int, ...] = (0, 0)
    card_points: tuple[int, ...] = (0, 0)
    score: tuple[int, ...] = (0, 0)
    titles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    eggs_pending: bool = False
    log: list[str] = field(default_factory=list)
    deal_ends: list[DealEnd] = field(default_factory=list)
    game_over: ev.GameOver | None = None
    aborted: ev.GameAborted | None = None
    faults: list[ev.Fault] = field(default_factory=list)
    waiting_for: tuple[int, ...] = ()
    status: str = ""
    transcript_path: str | None = None
    changes: int = 0  # bumped on every event, so a watcher can tell the view moved
    said: int = 0  # lines said so far, so the screen wraps the log only when it grew

    # -- the table's events ------------------------------------------------------------

    def observe(self, game: object) -> None:
        """The table's rules state, handed over before each event (Belka's view needs
        only the events; Belot's reads values and totals from it)."""

    def apply(self, event: ev.Event) -> None:
        self.changes += 1
        if not isinstance(event, Waiting):
            self.waiting_for = ()
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _standing(self, score: ev.Score) -> None:
        self.score = (score.points[0], score.points[1])
        # Belka's standing says more than the points; plain points leave none of it
        own = score if isinstance(score, belka_ev.BelkaScore) else belka_ev.BelkaScore(score.points)
        self.titles = (own.titles[0], own.titles[1]) if own.titles else ((), ())
        self.eggs_pending = own.eggs_pending
        self.seat_suits = own.seat_suits

    def _on_GameStarted(self, event: ev.GameStarted) -> None:
        self.names = list(event.names)
        self.keys = list(event.keys)
        if event.me is not None:
            self.me = event.me
        self.scoring = event.options.get("scoring", self.scoring)
        self._standing(event.score)
        self.say(
            _("The lot chose {name} to deal first.").format(name=self.name(event.first_dealer))
        )

    def _on_DealStarted(self, event: ev.DealStarted) -> None:
        self.dealer, self.deal_number = event.dealer, event.number
        self._standing(event.score)
        self.turn = None
        self.trump = self.trump_team = self.jc_holder = None
        self.hand, self.legal, self.choice, self.asked = [], set(), None, None
        self.trick = self.last_trick = None
        self.tricks_won = self.card_points = (0, 0)
        self.say(
            _("Deal {number}: {name} deals.").format(
                number=event.number + 1, name=self.name(event.dealer)
            )
        )

    def _on_HandDealt(self, event: ev.HandDealt) -> None:
        if event.seat == self.me:
            self.hand = sort_hand(list(event.cards), self.trump)
            self.selected = 0

    def _on_TrumpAnnounced(self, event: belka_ev.TrumpAnnounced) -> None:
        self.trump, self.jc_holder, self.trump_team = (
            Suit.parse(event.trump),
            event.holder,
            event.trump_team,
        )
        self.seat_suits = event.seat_suits
        self._sort_hand()
        self.say(
            _("{name} holds the J♣: {suit} are trumps, {team} is the trump team.").format(
                name=self.name(event.holder),
                suit=suit_name(self.trump),
                team=team_name(event.trump_team, self.names),
            )
        )

    def _on_RedealClaimed(self, event: belka_ev.RedealClaimed) -> None:
        self.choice = self.asked = None
        self.say(
            _("{name} shows {cards} and claims a re-deal.").format(
                name=self.name(event.seat), cards=" ".join(card_label(c) for c in event.cards)
            )
        )

    def _on_ChoiceNeeded(self, event: ev.ChoiceNeeded) -> None:
        self.choice = self.asked = event.kind
        if event.kind == "play":
            self.legal = {m.card for m in event.moves if isinstance(m, PlayCard)}
            chosen_ok = (
                0 <= self.selected < len(self.hand) and self.hand[self.selected] in self.legal
            )
            if not chosen_ok:
                self.selected = next((i for i, c in enumerate(self.hand) if c in self.legal), 0)
            self.status = _("Your turn: choose a card and press Enter.")

    def _on_TurnToPlay(self, event: ev.TurnToPlay) -> None:
        self.turn = event.seat

    def _on_CardPlayed(self, event: ev.CardPlayed) -> None:
        self.trick = TrickView(event.leader, list(event.trick))
        self.turn = event.turn
        if event.seat == self.me:
            if event.card in self.hand:
                index = self.hand.index(event.card)
                self.hand.remove(event.card)
                if self.selected > index or self.selected >= len(self.hand):
                    self.selected = max(0, self.selected - 1)
            self.legal, self.choice, self.asked, self.status = set(), None, None, ""

    def _on_TrickTaken(self, event: ev.TrickTaken) -> None:
        self.trick = TrickView(event.leader, list(event.cards), event.winner)
        self.last_trick = self.trick
        self.turn = event.turn
        self.tricks_won = (event.tricks_won[0], event.tricks_won[1])
        self.card_points = (event.card_points[0], event.card_points[1])
        self.say(
            _("{name} takes the trick: {cards}.").format(
                name=self.name(event.winner), cards=" ".join(card_label(c) for c in event.cards)
            )
        )

    def _on_DealAudited(self, event: ev.DealAudited) -> None:
        faults = tuple(f for f in self.faults if f.deal == event.deal_id)
        self.deal_ends.append(DealEnd(event.summary, faults, time.time()))
        self._standing(event.score)
        self.turn = None
        self.choice = self.asked = None
        self.legal = set()
        self.status = ""
        self.say(_("Deal verified: the shuffle was fair and every card checked."))

    def _on_EggsChosen(self, event: belka_ev.EggsChosen) -> None:
        self._standing(event.score)
        if event.seat == self.me:
            self.choice, self.asked, self.status = None, None, ""
        what = (
            _("+4 points")
            if event.choice == "plus4"
            else _("the title {title}").format(title="Жумыртка")
        )
        self.say(_("{name} chooses {what}.").format(name=self.name(event.seat), what=what))

    def _on_CardInTwoHands(self, event: ev.CardInTwoHands) -> None:
        card = card_label(event.card)
        if event.seat < 0:
            line = _(
                "The open card {card} is in your hand too: the deck was tampered with."
                " Your next card shows your copy to all, and the audit names who did it."
            ).format(card=card)
        else:
            line = _(
                "{name} showed {card}, which is in your hand too: the deck was tampered"
                " with. Your next card shows your copy to all, and the audit names who did it."
            ).format(name=self.name(event.seat), card=card)
        self.say(line)

    def _on_FaultFound(self, event: ev.FaultFound) -> None:
        self.faults.append(event.fault)
        self.say(_("Fault: {fault}").format(fault=self.describe_fault(event.fault)))

    def _on_GameOver(self, event: ev.GameOver) -> None:
        self.game_over = event
        self.choice, self.legal, self.status = None, set(), ""
        if event.winner is None:
            self.say(_("The game is over."))
        else:
            self.say(_("{team} win the game.").format(team=team_name(event.winner, self.names)))

    def _on_GameAborted(self, event: ev.GameAborted) -> None:
        self.aborted = event
        self.choice, self.legal, self.status = None, set(), ""
        for fault in event.faults:
            self.say(_("Game stopped: {fault}").format(fault=self.describe_fault(fault)))

    def _on_MoveRejected(self, event: ev.MoveRejected) -> None:
        # Envelopes dropped on the way (duplicates, resends) are the network's business;
        # a move of ours the table refused is the player's: the choice is open again.
        reason = f"move refused: {event.reason}"
        self.status = reason
        self.say(reason)
        self.choice = self.asked

    def _on_Waiting(self, event: Waiting) -> None:
        self.waiting_for = event.seats
        names = ", ".join(self.name(s) for s in event.seats)
        self.say(_("Waiting for {names}…").format(names=names))

    def _on_SeatOffer(self, event: SeatOffer) -> None:
        self.offer = event
        self.say(self.offer_question(event))

    def offer_question(self, event: SeatOffer) -> str:
        if event.back:
            return _("{name} is back. Hand the seat back from the next deal?").format(
                name=event.bot
            )
        return _(
            "{name} has been gone for {seconds} s. Seat a bot in their place from the next deal?"
        ).format(name=event.name, seconds=round(event.seconds))

    def _on_OfferClosed(self, event: OfferClosed) -> None:
        self.offer = None
        self.say(_("No bot for {name}: {why}").format(name=self.name(event.seat), why=event.why))

    def _on_SeatChanged(self, event: SeatChanged) -> None:
        self.offer = None
        if event.back:
            line = _("{name} has their seat back from deal {deal}.")
            self.say(line.format(name=event.name, deal=event.from_deal))
        else:
            line = _("{name} takes the seat of {was} from deal {deal}.")
            self.say(line.format(name=event.name, was=event.was_name, deal=event.from_deal))

    # -- helpers ------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return seat_name(seat, self.names)

    def describe_fault(self, fault: ev.Fault) -> str:
        who = self.name(fault.seat) if 0 <= fault.seat < 4 else _("no single seat")
        return f"{who}: {fault.what}"

    def say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LIMIT]
        self.said += 1

    def _sort_hand(self) -> None:
        chosen = self.hand[self.selected] if self.hand and self.selected < len(self.hand) else None
        self.hand = sort_hand(self.hand, self.trump)
        if chosen is not None:
            self.selected = self.hand.index(chosen)

    @property
    def my_turn(self) -> bool:
        return self.choice == "play" and bool(self.legal)

    @property
    def finished(self) -> bool:
        return self.game_over is not None or self.aborted is not None


def sort_hand(cards: list[Card], trump: Suit | None) -> list[Card]:
    """Trumps first (jacks on top), then the plain suits alternating colours, strongest first.

    Before the trump is known the jacks still go together: they are trumps whatever it is.
    """
    t = int(trump) if trump is not None else None
    plain = alternating(
        [s for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS) if s != t]
    )

    def key(card: Card) -> tuple[int, int]:
        i = card.index
        if i & 7 == core.JACK:
            return (0, -core.POWER[0][0][i])
        if t is not None and card.suit == t:
            return (0, -core.POWER[t][t][i])
        group = plain.index(card.suit) + 1
        return (group, -core.POWER[int(card.suit) if t is None else t][int(card.suit)][i])

    return sorted(cards, key=key)


def alternating(suits: list[Suit]) -> list[Suit]:
    """The suits in an order where red and black alternate as far as they can."""
    reds = [s for s in suits if s in (Suit.HEARTS, Suit.DIAMONDS)]
    blacks = [s for s in suits if s not in reds]
    longer, shorter = (reds, blacks) if len(reds) > len(blacks) else (blacks, reds)
    out: list[Suit] = []
    for i, suit in enumerate(longer):
        out.append(suit)
        if i < len(shorter):
            out.append(shorter[i])
    return out
