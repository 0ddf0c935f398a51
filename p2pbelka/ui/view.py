"""What the table screen shows, kept up to date from the table's events: what every
game's table has (names, the hand, the trick, the log, the pages of finished deals).

The screen draws only from a :class:`TableView`; the view is built from the
table's events alone (each carries what is drawn of it), so it never reads the
table.  A game's own view (``ui/games/<game>/view.py``) subclasses it with what only
that game shows, and handles that game's events.  No prompt_toolkit here: this is
tested on its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from p2pbelka.cards import Card, Suit
from p2pbelka.peer.driver import CutOff, Waiting
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev
from p2pbelka.table.moves import PlayCard
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui.words.cardnames import card_label, seat_name
from p2pbelka.ui.words.faults import cut_off_line, fault_words
from p2pbelka.ui.words.i18n import _

LOG_LIMIT = 500


@dataclass
class TrickView:
    leader: int
    cards: list[Card]
    winner: int | None = None
    seats: int = 4  # the players a trick goes round

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
    """One seat's table, any game's.  ``score``, ``tricks_won`` and ``card_points`` are
    as the game counts them (by seat, or by pair)."""

    me: int = 0
    players: int = 4
    names: list[str] = field(default_factory=lambda: [f"{s}" for s in range(4)])
    keys: list[bytes] = field(default_factory=list)
    first_keys: list[bytes] = field(default_factory=list)
    """The keys that sat down at the start (a seat changed hands since: the ladder counts
    the game for them, protocol/results.md 1.1), and their names."""
    first_names: list[str] = field(default_factory=list)
    dealer: int | None = None
    deal_number: int = 0
    trump: Suit | None = None
    hand: list[Card] = field(default_factory=list)
    legal: set[Card] = field(default_factory=set)
    selected: int = 0
    choice: str | None = None  # "play", or a game's own question, while the rules ask us
    asked: str | None = None  # the last question, until answered (the screen clears choice)
    offer: SeatOffer | None = None  # a bot for a lost seat (or the seat back): y or n
    turn: int | None = None
    trick: TrickView | None = None
    last_trick: TrickView | None = None
    tricks_won: tuple[int, ...] = (0, 0)
    card_points: tuple[int, ...] = (0, 0)
    score: tuple[int, ...] = (0, 0)
    log: list[str] = field(default_factory=list)
    deal_ends: list[DealEnd] = field(default_factory=list)
    game_over: ev.GameOver | None = None
    aborted: ev.GameAborted | None = None
    faults: list[ev.Fault] = field(default_factory=list)
    waiting_for: tuple[int, ...] = ()
    thinking: tuple[int, ...] = ()  # of those, seats a person decides for over a live link
    alone: bool = False  # no other seat can be reached (this machine's network is down?)
    alone_limit: float = 0.0  # ... and the silence after which this peer stops waiting
    waiting: bool = False  # the table waits (``waiting_for`` empty: for our own moves back)
    status: str = ""
    played_by: str | None = None  # a bot's name while it plays our seat (we watch)
    transcript_path: str | None = None
    game_id: bytes | None = None  # a LAN game's, once it has begun
    changes: int = 0  # bumped on every event, so a watcher can tell the view moved
    said: int = 0  # lines said so far, so the screen wraps the log only when it grew
    watching: bool = False  # a watcher's table: no hand of its own, every hand face down
    played: list[int] = field(default_factory=list)  # cards each seat played in this deal
    in_deal: bool = False  # a deal is dealt and not yet audited
    watchers: tuple[str, ...] = ()  # who watches the table (the host's screen lists them)
    watch_asking: tuple[str, ...] = ()  # the host's: (name, fingerprint) asking to watch

    # -- the table's events ------------------------------------------------------------

    def observe(self, game: object) -> None:
        """The table's rules state, handed over before each event (a game's view may
        read values and totals from it that the events do not carry)."""

    def apply(self, event: ev.Event) -> None:
        self.changes += 1
        if not isinstance(event, Waiting):
            self.waiting_for, self.alone, self.waiting, self.thinking = (), False, False, ()
        handler = getattr(self, f"_on_{type(event).__name__}", None)
        if handler is not None:
            handler(event)

    def _standing(self, score: ev.Score) -> None:
        self.score = tuple(score.points)

    def _on_GameStarted(self, event: ev.GameStarted) -> None:
        self.names = list(event.names)
        self.players = len(event.names)
        self.keys = list(event.keys)
        if event.first_keys:  # the table says who sat down (a resumed seat's first
            # event may be a later segment's, with a bot in a seat)
            self.first_keys, self.first_names = list(event.first_keys), list(event.first_names)
        elif not event.continued or not self.first_keys:
            self.first_keys, self.first_names = list(event.keys), list(event.names)
        if event.me is not None:
            self.me = event.me
        self._standing(event.score)
        if event.continued:  # a seat changed hands: the game goes on, no lot is drawn,
            self.clear_deal()  # and no deal of the segment before goes on in this one
        else:
            self.say(
                _("The lot chose {name} to deal first.").format(name=self.name(event.first_dealer))
            )

    def _on_DealStarted(self, event: ev.DealStarted) -> None:
        self.dealer, self.deal_number = event.dealer, event.number
        self._standing(event.score)
        self.clear_deal()
        self.in_deal = True
        self.say(
            _("Deal {number}: {name} deals.").format(
                number=event.number + 1, name=self.name(event.dealer)
            )
        )

    def clear_deal(self) -> None:
        """No deal on the table: a new one begins, or the one shown was voided when a
        seat changed hands (its hand, trick, trump and trick count are no one's now).
        A game's view clears its own deal's values too."""
        self.turn = None
        self.trump = None
        self.hand, self.legal, self.choice, self.asked = [], set(), None, None
        self.status = ""
        self.trick = self.last_trick = None
        self.tricks_won = self.card_points = (0,) * self.players
        self.played, self.in_deal = [0] * self.players, False

    def _on_HandDealt(self, event: ev.HandDealt) -> None:
        if event.seat == self.me:
            self.hand = self.sorted_hand(list(event.cards))
            self.selected = 0

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
        self.trick = TrickView(event.leader, list(event.trick), seats=self.players)
        self.turn = event.turn
        if 0 <= event.seat < len(self.played):
            self.played[event.seat] += 1
        if event.seat == self.me:
            if event.card in self.hand:
                index = self.hand.index(event.card)
                self.hand.remove(event.card)
                if self.selected > index or self.selected >= len(self.hand):
                    self.selected = max(0, self.selected - 1)
            self.legal, self.choice, self.asked, self.status = set(), None, None, ""

    def _on_TrickTaken(self, event: ev.TrickTaken) -> None:
        self.trick = TrickView(event.leader, list(event.cards), event.winner, self.players)
        self.last_trick = self.trick
        self.turn = event.turn
        self.tricks_won = tuple(event.tricks_won)
        self.card_points = tuple(event.card_points)
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
        self.in_deal = False
        self.choice = self.asked = None
        self.legal = set()
        self.status = ""
        self.say(self.audit_line(event.summary.number, faults))

    def audit_line(self, number: int, faults: tuple[ev.Fault, ...]) -> str:
        """The log's word on a deal the audit finished (a watcher's names the deal)."""
        if not self.watching:
            return _("Deal verified: the shuffle was fair and every card checked.")
        if faults:
            return _("deal {n}: the audit charged {faults}").format(
                n=number + 1, faults="; ".join(self.describe_fault(f) for f in faults)
            )
        return _("deal {n} verified: the shuffle was fair and every card checked").format(
            n=number + 1
        )

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
        self.offer = None  # a question about a seat applies no more
        self.choice, self.legal, self.status = None, set(), ""
        if event.winner is None:
            self.say(_("The game is over."))
        else:
            self.say(self.winner_line(event))

    def winner_line(self, event: ev.GameOver) -> str:
        """The log's line for a won game (a game of pairs names the pair)."""
        assert event.winner is not None
        return _("{name} wins the game with {points}.").format(
            name=self.name(event.winner), points=event.score[event.winner]
        )

    def ending_line(self) -> str | None:
        """How the game ended, for the terminal once the screen is gone (None: it has not)."""
        if self.game_over is not None:
            over = self.game_over
            return self.winner_line(over) if over.winner is not None else _("The game is over.")
        if self.aborted is not None and self.aborted.faults:
            fault = self.describe_fault(self.aborted.faults[0])
            return _("Game stopped: {fault}").format(fault=fault)
        return None

    def _on_GameAborted(self, event: ev.GameAborted) -> None:
        self.aborted = event
        self.offer = None
        self.choice, self.legal, self.status = None, set(), ""
        for fault in event.faults:
            self.say(_("Game stopped: {fault}").format(fault=self.describe_fault(fault)))

    def _on_MoveRejected(self, event: ev.MoveRejected) -> None:
        # Envelopes dropped on the way (duplicates, resends) are the network's business;
        # a move of ours the table refused is the player's: the choice is open again.
        reason = _("move refused: {reason}").format(reason=event.reason)
        self.status = reason
        self.say(reason)
        self.choice = self.asked

    def alone_line(self) -> str:
        return _(
            "None of the others can be reached: this machine's network may be down."
            " Waiting for it to come back, until {limit:.0f} s of silence at most…"
        ).format(limit=self.alone_limit)

    def waiting_line(self) -> str:
        if not self.waiting_for:  # a resumed seat, before it may sign again
            return _("Waiting for the others to send back this seat's last moves…")
        names = ", ".join(self.name(s) for s in self.waiting_for)
        return _("Waiting for {names}…").format(names=names)

    def _on_Waiting(self, event: Waiting) -> None:
        # said again when a seat's link died while the table waits: the mark moves, the
        # log does not say the same wait twice
        again = self.waiting and (self.waiting_for, self.alone) == (event.seats, event.alone)
        self.waiting_for, self.alone, self.waiting = event.seats, event.alone, True
        self.alone_limit = event.limit
        self.thinking = event.thinking
        if again:
            return
        if event.alone:
            self.say(self.alone_line())
            return
        self.say(self.waiting_line())

    def _on_CutOff(self, event: CutOff) -> None:
        path = self.transcript_path
        self.say(cut_off_line(self.game_id, path, event.two_seats, event.split))

    def _on_SeatOffer(self, event: SeatOffer) -> None:
        self.offer = event
        self.say(self.offer_question(event))

    def offer_question(self, event: SeatOffer) -> str:
        if event.back:
            return _("{name} is back. Hand the seat back from the next deal?").format(
                name=event.bot
            )
        asked = _(
            "{name} has been gone for {seconds} s. Seat a bot in their place from the next deal?"
        ).format(name=event.name, seconds=round(event.seconds))
        if event.later:  # a fresh bot for one lost with this program's restart
            asked += " " + _("A no only puts it off: you are asked again in a while.")
        return asked

    def _on_OfferWithdrawn(self, event: OfferWithdrawn) -> None:
        if self.offer is not event.offer:
            return  # answered already, or another question is up
        self.offer = None
        line = _("The question about the seat of {name} no longer applies.")
        self.say(line.format(name=self.name(event.offer.seat)))

    def _on_SeatKept(self, event: SeatKept) -> None:
        line = _(
            "{bot} keeps your seat for this deal: {why}. It is asked back again from the next deal."
        )
        self.say(line.format(bot=self.name(event.seat), why=event.why))

    def _on_OfferClosed(self, event: OfferClosed) -> None:
        self.offer = None
        self.say(_("No bot for {name}: {why}").format(name=self.name(event.seat), why=event.why))

    def _on_SeatChanged(self, event: SeatChanged) -> None:
        self.offer = None
        # A seat's trick lines and panel name who plays it now, and show its key: a
        # watched seat gets no new GameStarted (its player only follows the
        # continuation), so the name and the key move here.
        if 0 <= event.seat < len(self.names):
            self.names[event.seat] = event.name
        if 0 <= event.seat < len(self.keys):
            self.keys[event.seat] = event.key
        # The deal the cut left unfinished is void (a hand-back's cut falls between
        # deals): its trick and count must not stay under the table.
        self.clear_deal()
        if event.seat == self.me:  # we watch until it is handed back
            self.played_by = None if event.back else event.name
        if event.back:
            line = _("{name} has their seat back from deal {deal}.")
            self.say(line.format(name=event.name, deal=event.from_deal))
        else:
            line = _("{name} takes the seat of {was} from deal {deal}.")
            self.say(line.format(name=event.name, was=event.was_name, deal=event.from_deal))

    def played_by_line(self) -> str:
        assert self.played_by is not None
        return _(
            "{bot} plays your seat; you get it back between deals, once the others agree."
        ).format(bot=self.played_by)

    # -- helpers ------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return seat_name(seat, self.names)

    def describe_fault(self, fault: ev.Fault) -> str:
        who = self.name(fault.seat) if 0 <= fault.seat < self.players else _("no single seat")
        return f"{who}: {fault_words(fault.what)}"

    def say(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-LOG_LIMIT]
        self.said += 1

    def sorted_hand(self, cards: list[Card]) -> list[Card]:
        """The hand in the order the game's players hold it (by suit, strongest first,
        unless the game says otherwise)."""
        return sorted(cards, key=lambda card: (int(card.suit), -int(card.rank)))

    def resort(self) -> None:
        """Sort the hand again (the trump is known), the chosen card still chosen."""
        chosen = self.hand[self.selected] if 0 <= self.selected < len(self.hand) else None
        self.hand = self.sorted_hand(self.hand)
        if chosen is not None:
            self.selected = self.hand.index(chosen)

    @property
    def my_turn(self) -> bool:
        return self.choice == "play" and bool(self.legal)

    @property
    def finished(self) -> bool:
        return self.game_over is not None or self.aborted is not None


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
