"""What the Belot table screen shows (2 or 3 seats), kept up to date from the table.

Every game's :class:`~p2pbelka.ui.view.TableView` holds what the games share (names,
the hand, the trick, the log, the pages of finished deals); this adds Belot's
own: the turned card, the calls, the declarer, the combinations, the hanging
points and the moves the rules offer at one's lead (declarations, the claim of
1001).  The events say what happened, in order (the screen paces them); the
rules state handed over with each event (:meth:`BelotView.observe`) gives the
values the events do not carry: a combination's worth, the totals so far, what
a claim would count.  No prompt_toolkit here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.deal import PASS, PLAY, SEQUENCE_NAMES, DealState
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.common.play import hand_mask
from p2pbelka.table import events as ev
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.ui.view import TableView, alternating
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import N_, _


@dataclass
class BelotView(TableView):
    """One seat's Belot table.  ``score``, ``tricks_won`` and ``card_points`` are by
    seat; ``trump`` is the deal's trump once called."""

    players: int = 3
    state: BelotGame | None = None
    """The rules state as of the last event (the seat's own view: other hands unknown)."""
    turned: Card | None = None
    calls: list[tuple[int, str]] = field(default_factory=list)
    """This deal's calls in order: (seat, ``play``/``pass``/suit letter)."""
    declarer: int | None = None
    declared: list[belot_ev.Declared] = field(default_factory=list)
    """This deal's declarations (combinations and belle) as shown."""
    offered_calls: list[str] = field(default_factory=list)
    """The calls the rules allow us now (while ``choice == "bid"``)."""
    offered: list[tuple[Card, ...]] = field(default_factory=list)
    """The combinations we may declare now, best first (at our lead)."""
    claim_offered: bool = False
    hanging: int = 0
    declare_index: int = 0
    """The combination chosen in the dialog of declarations."""

    # -- the rules state --------------------------------------------------------------

    def observe(self, game: object) -> None:
        if isinstance(game, BelotGame):
            self.state = game
            self.hanging = game.hanging_total

    @property
    def deal(self) -> DealState | None:
        """The deal in progress as this seat knows it (None between deals)."""
        return self.state.deal if self.state is not None else None

    def deal_totals(self) -> tuple[int, ...] | None:
        """Each seat's points in this deal so far: cards, last trick, scored combinations."""
        deal = self.deal
        if deal is None or deal.trump is None:
            return None
        return deal.totals()

    def claim_total(self) -> int | None:
        """What a claim of 1001 would count for us now (None when we may not claim)."""
        deal = self.deal
        if deal is None or not self.claim_offered:
            return None
        return deal.claim_total(self.me)

    def worth(self, cards: tuple[Card, ...]) -> tuple[str, int]:
        """A combination's name (``terz``, ``four``, ``belle`` …) and value under this
        deal's trump and the table's options."""
        deal = self.deal
        if deal is None or deal.trump is None:
            return "", 0
        found = core.combination(hand_mask(cards), int(deal.trump), deal.options.fours)
        if found is None:
            return "", 0
        kind, value, _key = found
        name = SEQUENCE_NAMES[len(cards)] if kind == core.SEQUENCE else core.KIND_NAMES[kind]
        return name, value

    @property
    def bidding(self) -> bool:
        return self.choice == "bid" and bool(self.offered_calls)

    @property
    def may_declare(self) -> bool:
        return self.my_turn and bool(self.offered)

    @property
    def stock_left(self) -> int:
        """Face-down cards in the stock now: before bidding the three more of each
        seat are still in it."""
        # the cards nobody is dealt, the turned one apart (two players: 13, three: 4)
        base = core.deal_pattern(self.players, 0).count(-2)
        deal = self.deal
        if deal is not None and deal.extra is None:
            return base + 3 * self.players
        return base

    # -- the table's events -----------------------------------------------------------

    def clear_deal(self) -> None:
        super().clear_deal()
        self.turned, self.declarer = None, None
        self.calls, self.declared = [], []
        self.offered_calls, self.offered, self.claim_offered = [], [], False

    def _on_HandDealt(self, event: ev.HandDealt) -> None:
        if event.seat != self.me:
            return
        chosen = self.hand[self.selected] if 0 <= self.selected < len(self.hand) else None
        self.hand = self.sorted_hand(list(event.cards))
        self.selected = self.hand.index(chosen) if chosen in self.hand else 0
        if len(event.cards) > 6:
            self.say(_("Three more cards each: nine in every hand."))

    def _on_CardTurned(self, event: belot_ev.CardTurned) -> None:
        self.turned = event.card
        self.turn = event.turn
        self.say(
            _("The turned card is {card}: {suit} proposed as trumps.").format(
                card=card_label(event.card), suit=suit_name(event.card.suit)
            )
        )

    def _on_ChoiceNeeded(self, event: ev.ChoiceNeeded) -> None:
        if event.kind == "bid":
            self.choice = self.asked = "bid"
            self.offered_calls = [m.call for m in event.moves if isinstance(m, belot_mv.Bid)]
            self.turn = self.me
            self.status = ""
            return
        super()._on_ChoiceNeeded(event)
        if event.kind == "play":
            self.turn = self.me
            found = [m.cards for m in event.moves if isinstance(m, belot_mv.Declare)]
            # best first: the most points, then the longer
            self.offered = sorted(found, key=lambda c: (-self.worth(c)[1], -len(c)))
            self.claim_offered = any(isinstance(m, belot_mv.Claim1001) for m in event.moves)
            if self.offered or self.claim_offered:
                self.status = ""  # the screen asks at the lead: declare, claim or a card
            if self.claim_offered:
                self.say(
                    _("You may claim 1001 now: you would count {total}.").format(
                        total=self.claim_total()
                    )
                )

    def _on_BidMade(self, event: belot_ev.BidMade) -> None:
        self.calls.append((event.seat, event.call))
        self.turn = event.turn
        if event.seat == self.me:
            self.choice = self.asked = None
            self.offered_calls, self.status = [], ""
        name = self.name(event.seat)
        if event.call == PASS:
            self.say(_("{name} passes.").format(name=name))
        elif event.call == PLAY and self.turned is not None:
            self.say(
                _("{name} plays {suit}: trumps, and {name} is the declarer.").format(
                    name=name, suit=suit_name(self.turned.suit)
                )
            )
        else:
            self.say(
                _("{name} names {suit}: trumps, and {name} is the declarer.").format(
                    name=name, suit=suit_name(Suit.parse(event.call))
                )
            )
        if event.declarer is not None and event.trump is not None:
            self.declarer, self.trump = event.declarer, Suit.parse(event.trump)
            self.resort()
        if event.void:
            self.say(_("Everybody passed twice: the deal is void, the next seat deals."))

    def _on_Declared(self, event: belot_ev.Declared) -> None:
        self.declared.append(event)
        if event.seat == self.me:
            self.choice = self.asked = None
            self.offered = []
        self.say(
            _("{name} declares {what}: {cards} ({value}).").format(
                name=self.name(event.seat),
                what=combination_name(event.name, event.cards),
                cards=" ".join(card_label(c) for c in event.cards),
                value=event.value,
            )
        )

    def _on_Claimed(self, event: belot_ev.Claimed) -> None:
        if event.seat == self.me:
            self.choice = self.asked = None
            self.claim_offered = False
        self.say(
            _("{name} claims 1001 with {total} points.").format(
                name=self.name(event.seat), total=event.total
            )
        )

    def _on_CardPlayed(self, event: ev.CardPlayed) -> None:
        super()._on_CardPlayed(event)
        if event.seat == self.me:
            self.offered, self.claim_offered = [], False

    def _on_DealAudited(self, event: ev.DealAudited) -> None:
        super()._on_DealAudited(event)
        self.offered_calls, self.offered, self.claim_offered = [], [], False
        if isinstance(event.summary, BelotSummary):
            self.hanging = event.summary.hanging

    def _on_GameOver(self, event: ev.GameOver) -> None:
        super()._on_GameOver(event)
        self.offered_calls, self.offered, self.claim_offered = [], [], False

    def sorted_hand(self, cards: list[Card]) -> list[Card]:
        return sort_belot_hand(cards, self.trump)


def sort_belot_hand(cards: list[Card], trump: Suit | None) -> list[Card]:
    """Trumps first (J 9 A 10 K Q 8 7), then the plain suits alternating colours,
    strongest first (A 10 K Q J 9 8 7)."""
    plain = [s for s in (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS) if s != trump]
    order = alternating(plain)

    def key(card: Card) -> tuple[int, int]:
        rank = int(card.rank)
        if trump is not None and card.suit == trump:
            return (0, -core.TRUMP_ORDER[rank])
        return (1 + order.index(card.suit), -core.PLAIN_ORDER[rank])

    return sorted(cards, key=key)


def combination_name(name: str, cards: tuple[Card, ...] | list[Card]) -> str:
    """A combination in the screen's language: "terz", "four jacks", "belle"."""
    if name == "four" and cards:
        return four_name(cards[0])
    names = {
        "terz": _("terz"),
        "berz": _("berz"),
        "quint": _("quint"),
        "six": _("six in a row"),
        "seven": _("seven in a row"),
        "eight": _("eight in a row"),
        "belle": _("belle"),
    }
    return names.get(name, name)


def four_name(card: Card) -> str:
    names = (
        _("four sevens"),
        _("four eights"),
        _("four nines"),
        _("four tens"),
        _("four jacks"),
        _("four queens"),
        _("four kings"),
        _("four aces"),
    )
    return names[int(card.rank)]


COACH_CALLS = N_("playing the turned suit")
"""The coach's word for a call of the turned suit (``bots/belot/coach.py``'s
``CALL_WORDS``; its other calls are words the catalogue has: pass and the suits)."""
COACH_DECLARES = (N_("declaring nothing"), N_("declaring {what}"))
"""The coach's words for what a seat declared at a lead (``bots/belot/coach.py``'s
``DECLARE_WORDS``; the combinations' words are :func:`combination_name`'s)."""


def call_name(call: str, turned: Card | None) -> str:
    """A call as said at the table: "play ♣", "pass", "♦ diamonds"."""
    if call == PASS:
        return _("pass")
    if call == PLAY:
        suit = suit_name(turned.suit) if turned is not None else ""
        return _("play {suit}").format(suit=suit).strip()
    return suit_name(Suit.parse(call))


def result_name(summary: BelotSummary) -> str:
    if summary.played is None:
        return _("void")
    names = {
        "made": _("made"),
        "bait": _("bait"),
        "hanging": _("hanging"),
        "claim": _("1001 claimed"),
    }
    result = summary.played.result
    return names.get(result, result)
