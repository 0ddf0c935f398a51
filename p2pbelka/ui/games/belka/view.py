"""What Belka's table screen shows beyond every game's view: the trump team and the
holder of the J♣, the seats' suits, the titles and the eggs, the scoring (game points or
eyes), and the hand in Belka's order (the four jacks on top).  No prompt_toolkit here.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.game import GameState
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka import events as belka_ev
from p2pbelka.ui.games.belka import words
from p2pbelka.ui.games.belka.words import team_name
from p2pbelka.ui.view import TableView, alternating
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


@dataclass
class BelkaView(TableView):
    """One seat's Belka table.  ``score``, ``tricks_won`` and ``card_points`` are by pair."""

    scoring: str = "classic"
    trump_team: int | None = None
    jc_holder: int | None = None
    seat_suits: tuple[Suit, ...] | None = None
    titles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    eggs_pending: bool = False
    state: GameState | None = None
    """The rules state as of the last event (the seat's own view: other hands unknown)."""

    def observe(self, game: object) -> None:
        if isinstance(game, GameState):
            self.state = game

    def _standing(self, score: ev.Score) -> None:
        self.score = (score.points[0], score.points[1])
        # Belka's standing says more than the points; plain points leave none of it
        own = score if isinstance(score, belka_ev.BelkaScore) else belka_ev.BelkaScore(score.points)
        self.titles = (own.titles[0], own.titles[1]) if own.titles else ((), ())
        self.eggs_pending = own.eggs_pending
        self.seat_suits = own.seat_suits

    def _on_GameStarted(self, event: ev.GameStarted) -> None:
        self.scoring = event.options.get("scoring", self.scoring)
        super()._on_GameStarted(event)

    def clear_deal(self) -> None:
        super().clear_deal()
        self.trump_team = self.jc_holder = None
        self.tricks_won = self.card_points = (0, 0)

    def _on_TrumpAnnounced(self, event: belka_ev.TrumpAnnounced) -> None:
        self.trump, self.jc_holder, self.trump_team = (
            Suit.parse(event.trump),
            event.holder,
            event.trump_team,
        )
        self.seat_suits = event.seat_suits
        self.resort()
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

    def _on_EggsChosen(self, event: belka_ev.EggsChosen) -> None:
        self._standing(event.score)
        if event.seat == self.me:
            self.choice, self.asked, self.status = None, None, ""
        what = (
            _("+4 points")
            if event.choice == "plus4"
            else _("the title {title}").format(title=words.eggs_title())
        )
        self.say(_("{name} chooses {what}.").format(name=self.name(event.seat), what=what))

    def winner_line(self, event: ev.GameOver) -> str:
        assert event.winner is not None
        return _("{team} win the game.").format(team=team_name(event.winner, self.names))

    def sorted_hand(self, cards: list[Card]) -> list[Card]:
        return sort_hand(cards, self.trump)


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
