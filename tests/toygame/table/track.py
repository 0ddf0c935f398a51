"""Toy at the table: its track (the rules engine as the table drives it) and its place in
the schedule.  The common shares, trick play, reveal and deal end do everything; Toy
only starts its deal once the hands are read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from p2pbelka.cards import Card
from p2pbelka.protocol import messages as m
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.table import events as ev
from p2pbelka.table import flow
from p2pbelka.table.context import TableContext
from p2pbelka.table.events import Fault, Score
from p2pbelka.table.phase import GamePhases, Phase, Step, all_seats, leads_to
from p2pbelka.table.track import Settlement, TrickDone, TrickSoFar
from tests.toygame.rules import game as rules
from tests.toygame.rules.summary import ToySummary


class ToyTrack:
    name: ClassVar[str] = rules.NAME

    def __init__(self, game: rules.ToyGame) -> None:
        self._game = game

    @classmethod
    def new(cls, setup: m.TableMsg, first_dealer: int) -> ToyTrack:
        deals = rules.deals_of(setup.options)
        return cls(rules.ToyGame(deals, first_dealer))

    @classmethod
    def resumed(cls, setup: m.TableMsg, game: rules.ToyGame) -> ToyTrack:
        return cls(game)

    @property
    def game(self) -> rules.ToyGame:
        return self._game

    @property
    def n_seats(self) -> int:
        return rules.SEATS

    @property
    def dealer(self) -> int:
        return self._game.dealer

    @property
    def deal_number(self) -> int:
        return self._game.deal_number

    @property
    def deal(self) -> rules.ToyDeal:
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

    def standing(self) -> Score:
        return Score(self._game.score)

    def owners(self) -> tuple[int, ...]:
        return rules.owners(self.dealer)

    def begin_deal(self) -> None:
        return None

    def start_play(self, me: int | None, my_hand: int | None) -> None:
        hands: list[int | None] = [None] * rules.SEATS
        if me is not None:
            hands[me] = my_hand
        self._game = self._game.start_deal(hands)

    def legal_cards(self, seat: int) -> list[Card]:
        return self.deal.legal_cards(seat)

    def forget_hand(self, seat: int) -> None:
        deal = self._game.deal
        if deal is not None:
            hands = tuple(None if s == seat else h for s, h in enumerate(deal.hands))
            self._game = replace(self._game, deal=replace(deal, hands=hands))

    def play(self, seat: int, card: Card) -> TrickDone | None:
        before = len(self.deal.tricks)
        self._game = self._game.play(seat, card)
        if len(self.deal.tricks) == before:
            return None
        trick = self.deal.tricks[-1]
        return TrickDone(trick.leader, trick.cards, trick.winner)

    def trick_so_far(self) -> TrickSoFar:
        return TrickSoFar(self.deal.leader, self.deal.trick)

    def tricks_won(self) -> tuple[int, ...]:
        return self.deal.won()

    def card_points(self) -> tuple[int, ...]:
        return self.deal.won()

    def check_announcements(self, hands: Sequence[int], deal: int) -> list[Fault]:
        return []  # Toy has no announcements

    def settle(self, hands: Sequence[int], deal: int) -> Settlement:
        out = Settlement()
        try:
            self._game, audited = self._game.finish_deal(hands)
        except RuleViolation as exc:
            seat = exc.seat if exc.seat is not None else -1
            out.faults.append(Fault(seat, f"the audited deal breaks the rules: {exc}", deal=deal))
            return out
        out.summary = ToySummary.of(audited, hands)
        return out


def _track(table: TableContext) -> ToyTrack:
    track = table.track
    assert isinstance(track, ToyTrack)
    return track


def start_play(table: TableContext) -> None:
    """The hands are read: the deal starts, the seat after the dealer leads."""
    flow.read_hand(table)
    mine = table.round.my_mask() if table.me is not None else None
    track = _track(table)
    track.start_play(table.me, mine)
    turn = track.turn
    assert turn is not None
    table.emit(ev.TurnToPlay(turn))


PHASES = GamePhases(
    steps={
        Phase.SHARES: Step(
            {m.SharesMsg: flow.on_shares},
            all_seats,
            flow.own_shares,
            leads_to(Phase.PLAY),
            on_exit=start_play,
        ),
    },
    after_shares=Phase.PLAY,
    moves={},
)
"""Toy's place in the schedule: the common phases, its deal started after the shares."""
