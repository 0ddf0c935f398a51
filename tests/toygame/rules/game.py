"""Toy's rules: two seats, sixteen cards each, follow suit, the highest card of the led
suit takes the trick, a trick is a point, and the game is a fixed number of deals.

Built like the real engines: an immutable state, ``apply`` returning a new one or
raising ``RuleViolation``; hands unknown to a seat are None, so during play only the
turn and the card's freshness are checked, and the audit replays every card with
every hand known.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from p2pbelka.cards import CARDS, Card
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.options import OptionError
from p2pbelka.rules.common.play import Play, Trick
from p2pbelka.rules.common.recordio import RecordError

NAME = "toy"
SEATS = 2
HAND = 16
DEALS = ("1", "2", "3")


def check_rules(preset: str, options: Mapping[str, str]) -> None:
    if preset != "plain":
        raise OptionError(f"Toy has no preset {preset!r} (use 'plain')")
    for name, value in options.items():
        if name != "deals" or value not in DEALS:
            raise OptionError(f"Toy has one option, deals = {'|'.join(DEALS)}; not {name}={value}")


def deals_of(options: Mapping[str, str]) -> int:
    return int(options.get("deals", "2"))


def owners(dealer: int) -> tuple[int, ...]:
    """Two rounds of eight cards, from the seat after the dealer."""
    first = (dealer + 1) % SEATS
    return tuple([first] * 8 + [dealer] * 8 + [first] * 8 + [dealer] * 8)


@dataclass(frozen=True, slots=True)
class ToyDeal:
    number: int
    dealer: int
    hands: tuple[int | None, ...]
    leader: int
    trick: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    played: int = 0

    @property
    def turn(self) -> int | None:
        if self.finished:
            return None
        return (self.leader + len(self.trick)) % SEATS

    @property
    def finished(self) -> bool:
        return len(self.tricks) == HAND

    def won(self) -> tuple[int, ...]:
        return tuple(sum(1 for t in self.tricks if t.winner == s) for s in range(SEATS))

    def legal_cards(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        if hand is None:
            return [c for c in CARDS if not self.played >> c.index & 1]
        cards = [c for c in CARDS if hand >> c.index & 1]
        if self.trick:
            led = [c for c in cards if c.suit == self.trick[0].suit]
            return led or cards
        return cards

    def apply(self, play: Play) -> ToyDeal:
        seat, card = play.seat, play.card
        if seat != self.turn:
            raise RuleViolation("turn", f"it is not seat {seat}'s turn", seat=seat, card=card)
        if self.played >> card.index & 1:
            raise RuleViolation("already_played", f"{card} was played", seat=seat, card=card)
        if card not in self.legal_cards(seat):
            raise RuleViolation("follow_suit", f"{card} is not legal", seat=seat, card=card)
        hands = list(self.hands)
        if hands[seat] is not None:
            hands[seat] = hands[seat] & ~card.bit  # type: ignore[operator]
        trick = (*self.trick, card)
        new = replace(self, hands=tuple(hands), trick=trick, played=self.played | card.bit)
        if len(trick) < SEATS:
            return new
        led = trick[0].suit
        best = max((c for c in trick if c.suit == led), key=lambda c: c.rank)
        winner = (self.leader + trick.index(best)) % SEATS
        done = Trick(self.leader, trick, winner)
        return replace(new, trick=(), tricks=(*self.tricks, done), leader=winner)


@dataclass(frozen=True, slots=True)
class ToyOptions:
    deals: str = "2"

    def to_dict(self) -> dict[str, str]:
        return {"deals": self.deals}


@dataclass(frozen=True, slots=True)
class ToyGame:
    deals: int
    dealer: int
    score: tuple[int, ...] = (0, 0)
    history: tuple[tuple[int, ...], ...] = ()
    deal: ToyDeal | None = None

    @property
    def options(self) -> ToyOptions:
        return ToyOptions(str(self.deals))

    @property
    def deal_number(self) -> int:
        return len(self.history)

    @property
    def finished(self) -> bool:
        return len(self.history) >= self.deals

    @property
    def winner(self) -> int | None:
        if not self.finished or self.score[0] == self.score[1]:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    def start_deal(self, hands: Sequence[int | None]) -> ToyGame:
        deal = ToyDeal(self.deal_number, self.dealer, tuple(hands), (self.dealer + 1) % SEATS)
        return replace(self, deal=deal)

    def play(self, seat: int, card: Card) -> ToyGame:
        assert self.deal is not None
        return replace(self, deal=self.deal.apply(Play(seat, card)))

    def finish_deal(self, hands: Sequence[int]) -> tuple[ToyGame, ToyDeal]:
        """Replay the deal with every hand known (``RuleViolation`` at a renege) and
        score it; the game goes on with the next dealer."""
        assert self.deal is not None
        audited = ToyDeal(self.deal.number, self.dealer, tuple(hands), (self.dealer + 1) % SEATS)
        for trick in self.deal.tricks:
            for offset, card in enumerate(trick.cards):
                audited = audited.apply(Play((trick.leader + offset) % SEATS, card))
        won = audited.won()
        score = tuple(a + b for a, b in zip(self.score, won, strict=True))
        game = replace(
            self,
            score=score,
            history=(*self.history, won),
            dealer=(self.dealer + 1) % SEATS,
            deal=None,
        )
        return game, audited


# -- records: the game as JSON (the referee's input) ------------------------------------


def game_to_record(game: ToyGame) -> dict[str, Any]:
    return {"game": NAME, "deals": game.deals, "history": [list(h) for h in game.history]}


def parse_record(data: object) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("game") != NAME:
        raise RecordError("game", f'expected "{NAME}"')
    return data


def replay_record(record: dict[str, Any]) -> ToyGame:
    return ToyGame(int(record["deals"]), 0)


def report(game: ToyGame) -> dict[str, Any]:
    return {"game": NAME, "score": list(game.score)}


def finished_to_record(game: ToyGame) -> dict[str, Any]:
    return game_to_record(game)
