"""A Belot game as an immutable state: deals in turn, written scores, hanging points, 1001.

Typical use::

    game = BelotGame.new(belot_options(), players=3, first_dealer=0)
    game = game.start_deal(first_six, turned)     # hands may be None where unknown
    game = game.apply(Bid(1, "pass")) ...         # until game.deal.phase != "bidding"
    game = game.deal_extra(three_more)            # unless the deal is void
    game = game.apply(Declare(1, cards)) / apply(Play(1, card)) / apply(Claim(2)) ...
    game = game.finish_deal()                     # when game.deal.finished

``score`` holds each seat's written score; ``winner`` is a seat or None while
the game goes on.  ``hanging`` holds the sums of hanging baits not yet paid,
oldest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from p2pbelka.cards import Card
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import Action, DealState
from p2pbelka.rules.belot.name import GAME as GAME  # (still game.GAME, as before)
from p2pbelka.rules.belot.options import BelotOptions, belot_options
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import HandInput

CLAIMED = "claim"
"""The ``result`` of a deal ended by a claim of 1001."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal as the game scored it.

    ``result``: ``made``, ``bait``, ``hanging``, ``claim`` (1001 claimed), or
    None for a void deal.  ``combinations`` and ``totals`` per seat (as if the
    deal ended at the claim, for a claim); ``paid``: hanging points paid out in
    this deal and ``paid_to`` the seat; ``written``: what each seat wrote,
    paid hanging points included; ``hanging``: points still hanging after the
    deal; ``score``: written scores after it.
    """

    deal: DealState
    result: str | None
    combinations: tuple[int, ...]
    totals: tuple[int, ...]
    written: tuple[int, ...]
    paid: int
    paid_to: int | None
    hanging: int
    score: tuple[int, ...]

    @property
    def void(self) -> bool:
        return self.deal.void

    @property
    def number(self) -> int:
        return self.deal.number

    @property
    def dealer(self) -> int:
        return self.deal.dealer


@dataclass(frozen=True, slots=True)
class BelotGame:
    """A game.  Create with :meth:`new`.

    Fields: ``options``; ``players``; ``first_dealer``; ``dealer`` (of the
    current or next deal); ``deal_number``; ``score`` (written, per seat);
    ``hanging`` (unpaid hanging sums, oldest first); ``deal`` (in progress, or
    None); ``history``; ``winner``.
    """

    options: BelotOptions
    players: int
    first_dealer: int
    dealer: int
    deal_number: int = 0
    score: tuple[int, ...] = ()
    hanging: tuple[int, ...] = ()
    deal: DealState | None = None
    history: tuple[DealResult, ...] = ()
    winner: int | None = None

    @classmethod
    def new(
        cls, options: BelotOptions | None = None, players: int = 3, first_dealer: int = 0
    ) -> BelotGame:
        if players not in (2, 3):
            raise RuleViolation(E.BAD_SEAT, f"Belot is for 2 or 3 players, not {players}")
        if not 0 <= first_dealer < players:
            raise RuleViolation(E.BAD_SEAT, f"no seat {first_dealer} to deal")
        return cls(
            options=options or belot_options(),
            players=players,
            first_dealer=first_dealer,
            dealer=first_dealer,
            score=(0,) * players,
        )

    # -- questions ----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def hanging_total(self) -> int:
        return sum(self.hanging)

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (cards and declarations need its hand known)."""
        if self.finished or self.deal is None:
            return []
        return self.deal.legal_actions(seat)

    # -- actions ------------------------------------------------------------------

    def start_deal(self, hands: Sequence[HandInput] | None, turned: Card) -> BelotGame:
        """Deal the next deal: the first six of each seat and the turned card."""
        self._check_open()
        if self.deal is not None:
            raise RuleViolation(
                E.DEAL_IN_PROGRESS, "finish the current deal first", deal=self.deal_number
            )
        deal = DealState.start(
            self.options,
            self.players,
            self.dealer,
            hands,
            turned,
            scores=self.score,
            number=self.deal_number,
        )
        return replace(self, deal=deal)

    def deal_extra(self, extra: Sequence[HandInput] | None) -> BelotGame:
        """The three more cards of each seat, once bidding has a declarer."""
        return replace(self, deal=self._current().with_extra(extra))

    def apply(self, action: Action) -> BelotGame:
        """The state after a call, a declaration, a card or a claim."""
        self._check_open()
        return replace(self, deal=self._current().apply(action))

    def finish_deal(self) -> BelotGame:
        """Score the finished deal, pay or hang points, decide the winner, move the deal on."""
        self._check_open()
        deal = self._current()
        if not deal.finished:
            raise RuleViolation(
                E.DEAL_NOT_FINISHED, f"the deal is in its {deal.phase} phase", deal=deal.number
            )
        if deal.void:
            return self._next(deal, DealResult(deal, None, (), (), (), 0, None, *self._kept()))
        if deal.claim is not None:
            return self._claimed(deal, deal.claim)
        return self._scored(deal)

    # -- internals ----------------------------------------------------------------

    def _current(self) -> DealState:
        if self.deal is None:
            raise RuleViolation(E.NO_DEAL, "no deal in progress", deal=self.deal_number)
        return self.deal

    def _check_open(self) -> None:
        if self.finished:
            raise RuleViolation(E.GAME_OVER, f"seat {self.winner} has won the game")

    def _kept(self) -> tuple[int, tuple[int, ...]]:
        return self.hanging_total, self.score

    def _next(
        self,
        deal: DealState,
        result: DealResult,
        *,
        hanging: tuple[int, ...] | None = None,
        winner: int | None = None,
    ) -> BelotGame:
        declarer = deal.declarer
        hangs = result.result == core.RESULT_NAMES[core.HANGING]
        # The declarer of a hanging bait deals next; otherwise (void deals too) the next seat.
        dealer = declarer if hangs and declarer is not None else (deal.dealer + 1) % self.players
        return replace(
            self,
            deal=None,
            deal_number=self.deal_number + 1,
            dealer=dealer,
            score=result.score,
            hanging=self.hanging if hanging is None else hanging,
            history=(*self.history, result),
            winner=winner,
        )

    def _claimed(self, deal: DealState, seat: int) -> BelotGame:
        combos = deal.scored_combinations()
        totals = tuple(deal.card_points[s] + combos[s] for s in range(self.players))
        written = tuple(totals[s] if s == seat else 0 for s in range(self.players))
        score = tuple(a + b for a, b in zip(self.score, written, strict=True))
        result = DealResult(
            deal, CLAIMED, combos, totals, written, 0, None, self.hanging_total, score
        )
        return self._next(deal, result, winner=seat)

    def _scored(self, deal: DealState) -> BelotGame:
        assert deal.declarer is not None
        n = self.players
        combos = deal.scored_combinations()
        totals = deal.totals()
        outcome = core.deal_result(totals, deal.declarer)
        written = list(totals)
        hanging = self.hanging
        paid, paid_to = 0, None
        if outcome != core.MADE:
            written[deal.declarer] = 0
        if outcome == core.HANGING:
            hanging = (*hanging, totals[deal.declarer])
        else:
            top = core.top_seat(totals)
            if top >= 0 and hanging:
                taken = len(hanging) if self.options.together else 1
                paid, paid_to = sum(hanging[:taken]), top
                written[top] += paid
                hanging = hanging[taken:]
        score = tuple(self.score[s] + written[s] for s in range(n))
        result = DealResult(
            deal,
            core.RESULT_NAMES[outcome],
            combos,
            totals,
            tuple(written),
            paid,
            paid_to,
            sum(hanging),
            score,
        )
        winner = _winner(score, deal.last_trick, deal.dealer)
        return self._next(deal, result, hanging=hanging, winner=winner)


def _winner(score: Sequence[int], last_trick: int | None, dealer: int) -> int | None:
    """Who wins on written scores: the one seat at 1001+, or of several the last trick's
    taker, else the highest score, else the first in play order after the dealer."""
    over = [s for s, points in enumerate(score) if points >= core.TARGET]
    if len(over) <= 1:
        return over[0] if over else None
    if last_trick in over:
        return last_trick
    n = len(score)
    order = [(dealer + 1 + k) % n for k in range(n)]
    return max((s for s in order if s in over), key=lambda s: score[s])
