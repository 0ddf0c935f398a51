"""A Belka game as an immutable state: deals in turn, the score, the winner.

Typical use::

    game = GameState.new(options_from("classic"), first_dealer=0)
    game = game.start_deal(hands)             # or hands=[mine, None, None, None], jc_holder=2
    game = game.apply(Play(1, Card.parse("AS")))
    ...                                       # 32 plays, or one RedealClaim
    game = game.finish_deal()                 # or finish_deal(game.deal.audited(all_hands))
    if game.pending_choice is not None:       # eggs=plus4: the winners choose
        game = game.apply(EggsChoice(seat, "plus4"))

``score`` holds game points won (classic) or eyes opened against each team
(eyes variant); ``winner`` is 0, 1 or None while the game goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from p2pbelka.cards import Suit
from p2pbelka.rules.belka.deal import DealState, Offense, RedealClaim, seat_suits_from
from p2pbelka.rules.belka.name import GAME as GAME  # (still game.GAME, as before)
from p2pbelka.rules.belka.name import SEATS as SEATS
from p2pbelka.rules.belka.options import TARGET, Options, options_from
from p2pbelka.rules.belka.scoring import deal_score
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import HandInput, Play, Trick

EGGS_TITLE = "Жумыртка"
GOAT_TITLE = "ешкі"
EGGS_CHOICES = ("plus4", "title")


@dataclass(frozen=True, slots=True)
class EggsChoice:
    """The winners after a 60:60 (option ``eggs=plus4``): ``"plus4"`` or ``"title"``."""

    seat: int
    choice: str


Action = Play | RedealClaim | EggsChoice


@dataclass(frozen=True, slots=True)
class DealResult:
    """One finished deal (``deal``, its final state) as the game scored it.

    ``winner``: the team with more than 60 card points (None at 60:60, or for
    a re-deal).  ``awarded``: game points won by each team (classic) or eyes
    opened against each team (eyes), penalties and bonuses included;
    ``score``: the game's score after it.  ``bonus``: the eggs bonus this deal
    carried (``plus4``, ``four``, ``double``) or None.  ``notes``: what else
    happened, in words.
    """

    deal: DealState
    winner: int | None = None
    eggs: bool = False
    goli: bool = False
    all_tricks: bool = False
    bonus: str | None = None
    eggs_choice: str | None = None
    awarded: tuple[int, int] = (0, 0)
    score: tuple[int, int] = (0, 0)
    notes: tuple[str, ...] = ()

    @property
    def number(self) -> int:
        return self.deal.number

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def first(self) -> bool:
        return self.deal.first

    @property
    def trump(self) -> Suit:
        return self.deal.trump

    @property
    def jc_holder(self) -> int:
        return self.deal.jc_holder

    @property
    def trump_team(self) -> int:
        return self.deal.trump_team

    @property
    def hands(self) -> tuple[int | None, ...]:
        """The hands as dealt."""
        return self.deal.dealt

    @property
    def plays(self) -> tuple[int, ...]:
        return self.deal.plays

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return self.deal.tricks

    @property
    def card_points(self) -> tuple[int, int]:
        return self.deal.card_points

    @property
    def redeal_claim(self) -> int | None:
        return self.deal.redeal_claim

    @property
    def offenses(self) -> tuple[Offense, ...]:
        return self.deal.offenses


@dataclass(frozen=True, slots=True)
class GameState:
    """A game.  Create with :meth:`new`.

    Fields: ``options``; ``first_dealer``; ``dealer`` (of the current or next
    deal); ``deal_number`` (0-based, re-deals count); ``seat_suits`` (each
    seat's trump suit, fixed by the first played deal, None before);
    ``score``; ``games_won`` (goli with ``goli=continues``); ``titles`` per
    team; ``eggs_pending`` (a 60:60 waits for the next deal with a winner);
    ``redeal_streak``; ``pending_choice`` (the team that must send an
    :class:`EggsChoice`, else None); ``deal`` (the deal in progress, else
    None); ``history`` (finished deals); ``winner``.
    """

    options: Options
    first_dealer: int
    dealer: int
    deal_number: int = 0
    seat_suits: tuple[Suit, ...] | None = None
    score: tuple[int, int] = (0, 0)
    games_won: tuple[int, int] = (0, 0)
    titles: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    eggs_pending: bool = False
    redeal_streak: int = 0
    pending_choice: int | None = None
    deal: DealState | None = None
    history: tuple[DealResult, ...] = ()
    winner: int | None = None

    @classmethod
    def new(cls, options: Options | None = None, first_dealer: int = 0) -> GameState:
        if not 0 <= first_dealer < 4:
            raise RuleViolation(E.BAD_SEAT, f"no seat {first_dealer} to deal")
        return cls(
            options=options or options_from(), first_dealer=first_dealer, dealer=first_dealer
        )

    # -- questions ----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def first_deal(self) -> bool:
        """The next (or current) deal is the game's first: clubs, and it fixes the seat suits."""
        return self.seat_suits is None

    @property
    def eyes_left(self) -> tuple[int, int]:
        """Eyes variant: each team's eyes not yet opened."""
        return (TARGET - self.score[0], TARGET - self.score[1])

    @property
    def choice_seat(self) -> int | None:
        """The seat expected to send the pending :class:`EggsChoice`.

        The choosing team's first seat in play order after the last deal's
        dealer (the engine accepts either seat of the team).
        """
        if self.pending_choice is None:
            return None
        seat = (self.history[-1].dealer + 1) % 4
        return seat if seat & 1 == self.pending_choice else (seat + 1) % 4

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now (deal actions need the seat's hand known)."""
        if self.finished:
            return []
        if self.pending_choice is not None:
            if seat & 1 != self.pending_choice:
                return []
            return [EggsChoice(seat, c) for c in EGGS_CHOICES]
        if self.deal is None or self.deal.hands[seat] is None:
            return []
        return list(self.deal.legal_actions(seat))

    # -- actions ------------------------------------------------------------------

    def start_deal(
        self,
        hands: Sequence[HandInput] | None = None,
        *,
        jc_holder: int | None = None,
        audit: bool = False,
    ) -> GameState:
        """Start the next deal; see :meth:`DealState.start` for ``hands`` and ``jc_holder``."""
        self._check_open()
        if self.deal is not None:
            raise RuleViolation(
                E.DEAL_IN_PROGRESS, "finish the current deal first", deal=self.deal_number
            )
        deal = DealState.start(
            self.options,
            self.dealer,
            hands,
            jc_holder=jc_holder,
            seat_suits=self.seat_suits,
            number=self.deal_number,
            audit=audit,
        )
        return replace(self, deal=deal)

    def apply(self, action: Action) -> GameState:
        """The state after a play, a re-deal claim or an eggs choice."""
        if isinstance(action, EggsChoice):
            return self._choose(action)
        self._check_open()
        if self.deal is None:
            raise RuleViolation(
                E.NO_DEAL, "no deal in progress", deal=self.deal_number, seat=action.seat
            )
        return replace(self, deal=self.deal.apply(action))

    def finish_deal(self, audited: DealState | None = None) -> GameState:
        """Score the finished deal and move on.

        ``audited``: the same deal replayed with all hands known
        (:meth:`DealState.audited`); its offenses are charged.
        """
        self._check_open()
        deal = self.deal
        if deal is None:
            raise RuleViolation(E.NO_DEAL, "no deal in progress", deal=self.deal_number)
        if audited is not None:
            if (audited.plays, audited.redeal_claim, audited.number, audited.jc_holder) != (
                deal.plays,
                deal.redeal_claim,
                deal.number,
                deal.jc_holder,
            ):
                raise RuleViolation(
                    E.DEAL_MISMATCH, "the audited deal is not this deal", deal=deal.number
                )
            deal = audited
        if not deal.finished:
            raise RuleViolation(
                E.DEAL_NOT_FINISHED,
                "the deal is not over",
                deal=deal.number,
                trick=deal.trick_number,
            )
        if deal.redeal_claim is not None:
            return self._redeal(deal)
        return self._score(deal)

    # -- internals ----------------------------------------------------------------

    def _check_open(self) -> None:
        if self.finished:
            raise RuleViolation(E.GAME_OVER, f"team {self.winner} has won the game")
        if self.pending_choice is not None:
            raise RuleViolation(
                E.CHOICE_PENDING,
                f"team {self.pending_choice} must choose plus4 or title",
                deal=self.deal_number,
            )

    def _redeal(self, deal: DealState) -> GameState:
        streak = self.redeal_streak + 1
        notes = [f"seat {deal.redeal_claim} asked for a re-deal"]
        awarded = [0, 0]
        if streak == 3:
            # A penalty on the dealers (seed 000: an eye opened *on* the dealing team):
            # an eye against it in the eyes variant, a point to the other team in the
            # classic count.
            dealers = deal.dealer & 1
            if self.options.eyes:
                awarded[dealers] += 1
                notes.append(f"three re-deals in a row: one eye against the dealing team {dealers}")
            else:
                awarded[1 - dealers] += 1
                notes.append(
                    f"three re-deals in a row: one point to team {1 - dealers},"
                    f" the dealing team {dealers} is charged"
                )
            streak = 0
        score = (self.score[0] + awarded[0], self.score[1] + awarded[1])
        winner = self._target_winner(score)
        result = DealResult(deal, awarded=(awarded[0], awarded[1]), score=score, notes=tuple(notes))
        return replace(
            self,
            deal=None,
            deal_number=self.deal_number + 1,
            redeal_streak=streak,
            score=score,
            winner=winner,
            history=(*self.history, result),
        )

    def _target_winner(self, score: tuple[int, int]) -> int | None:
        """Classic: the team at 12 points wins; eyes: the team with 12 eyes open loses."""
        for team in (0, 1):
            if score[team] >= TARGET:
                return 1 - team if self.options.eyes else team
        return None

    def _score(self, deal: DealState) -> GameState:
        opts = self.options
        ds = deal_score(opts, deal.card_points, deal.trump_team, deal.tricks_won, deal.first)
        awarded = [0, 0]
        notes: list[str] = []
        for off in deal.offenses:
            # Penalties first: the deal's own result stands, and is added after.
            team = off.seat & 1 if opts.eyes else 1 - (off.seat & 1)
            awarded[team] += 1
            # Tricks are counted from 1 for players, as the renege charge says them.
            notes.append(
                f"seat {off.seat} broke {off.rule} in trick {off.trick + 1} with {off.card}"
            )
        score = (self.score[0] + awarded[0], self.score[1] + awarded[1])
        winner = self._target_winner(score)
        seat_suits = self.seat_suits or seat_suits_from(deal.jc_holder, opts.trump_order)
        nxt = replace(
            self,
            deal=None,
            deal_number=self.deal_number + 1,
            dealer=(self.dealer + 1) % 4,
            seat_suits=seat_suits,
            redeal_streak=0,
        )
        bonus: str | None = None
        pending: int | None = None
        eggs_pending = self.eggs_pending
        games_won = self.games_won
        titles = self.titles
        if ds.winner is None:
            notes.append("60:60, eggs")
            eggs_pending = opts.eggs != "none"
        elif winner is None:
            w = ds.winner
            points = ds.base
            if eggs_pending:
                bonus = opts.eggs
                eggs_pending = False
                if bonus == "four":
                    points = 4
                elif bonus == "double":
                    points *= 2
            target_team = 1 - w if opts.eyes else w
            awarded[target_team] += points
            score = (self.score[0] + awarded[0], self.score[1] + awarded[1])
            winner = self._target_winner(score)
            instant = (ds.goli and opts.goli == "wins_game") or (
                ds.all_tricks and opts.all_tricks == "wins_game"
            )
            if ds.goli:
                notes.append("goli: all 120 card points")
            if ds.all_tricks:
                notes.append("all eight tricks")
            if instant and winner is None:
                winner = w
            elif ds.goli and opts.goli == "continues" and winner is None:
                games_won = _plus(games_won, w, 1)
                titles = _with_title(_without_title(titles, w, GOAT_TITLE), 1 - w, GOAT_TITLE)
                notes.append(f"team {w} wins a game; a new one starts at 0:0")
                score = (0, 0)
                eggs_pending = False
            elif bonus == "plus4" and winner is None:
                pending = w
        result = DealResult(
            deal,
            winner=ds.winner,
            eggs=ds.eggs,
            goli=ds.goli,
            all_tricks=ds.all_tricks,
            bonus=bonus,
            awarded=(awarded[0], awarded[1]),
            score=score,
            notes=tuple(notes),
        )
        return replace(
            nxt,
            score=score,
            winner=winner,
            games_won=games_won,
            titles=titles,
            eggs_pending=eggs_pending,
            pending_choice=pending,
            history=(*self.history, result),
        )

    def _choose(self, action: EggsChoice) -> GameState:
        if self.finished:
            raise RuleViolation(E.GAME_OVER, f"team {self.winner} has won the game")
        team = self.pending_choice
        number = self.deal_number - 1
        if team is None:
            raise RuleViolation(
                E.NO_CHOICE_PENDING, "nobody has to choose now", deal=number, seat=action.seat
            )
        if not 0 <= action.seat < 4 or action.seat & 1 != team:
            raise RuleViolation(
                E.CHOICE_TEAM, f"team {team} chooses", deal=number, seat=action.seat
            )
        if action.choice not in EGGS_CHOICES:
            raise RuleViolation(
                E.BAD_CHOICE,
                f"choose plus4 or title, not {action.choice!r}",
                deal=number,
                seat=action.seat,
            )
        last = self.history[-1]
        awarded = list(last.awarded)
        titles = self.titles
        if action.choice == "plus4":
            awarded[1 - team if self.options.eyes else team] += 4
        else:
            titles = _with_title(titles, 1 - team, EGGS_TITLE)
        plus = (awarded[0] - last.awarded[0], awarded[1] - last.awarded[1])
        score = (self.score[0] + plus[0], self.score[1] + plus[1])
        result = replace(
            last, eggs_choice=action.choice, awarded=(awarded[0], awarded[1]), score=score
        )
        return replace(
            self,
            score=score,
            titles=titles,
            pending_choice=None,
            winner=self._target_winner(score),
            history=(*self.history[:-1], result),
        )


def _plus(pair: tuple[int, int], team: int, n: int) -> tuple[int, int]:
    return (pair[0] + n, pair[1]) if team == 0 else (pair[0], pair[1] + n)


def _with_title(
    titles: tuple[tuple[str, ...], tuple[str, ...]], team: int, title: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if title in titles[team]:
        return titles
    new = (*titles[team], title)
    return (new, titles[1]) if team == 0 else (titles[0], new)


def _without_title(
    titles: tuple[tuple[str, ...], tuple[str, ...]], team: int, title: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    new = tuple(t for t in titles[team] if t != title)
    return (new, titles[1]) if team == 0 else (titles[0], new)
