"""What a table needs from a game: the ``GameTrack`` interface, and the games it knows.

The table runs the fair deal, the hash chains and the schedule for any game;
the game's rules come in through a track: the rules engine's state, whose
turn it is, which deck positions go to which seat, what a card does, and how
a deal ends and is scored.  ``table/registry.py`` lists the games; the seats and
rules a game is played by are its rules' (``p2pbelka.rules.registry.spec``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from p2pbelka.cards import Card
from p2pbelka.protocol import messages as m
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table.events import Fault, Score

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    S = TypeVar("S", default=Any)
else:
    from typing import TypeVar

    S = TypeVar("S")
"""A game's rules-engine state (``GameTrack.game``).  A bare ``GameTrack`` (the table's,
the registry's: any game) is ``GameTrack[Any]``; a game's own track is
``GameTrack[ItsGame]`` (Python 3.11's ``TypeVar`` takes no default, hence the two
spellings)."""


@dataclass(frozen=True, slots=True)
class TrickSoFar:
    """The trick being played: who led it and the cards on the table."""

    leader: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickDone:
    """A trick just completed by a play."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass
class Settlement:
    """A deal's audited outcome: faults found with every hand known (a renege is a
    non-fatal fault) and, when the deal could be scored, its summary."""

    faults: list[Fault] = field(default_factory=list)
    summary: DealSummary | None = None


class GameTrack(Protocol[S]):
    name: ClassVar[str]

    @classmethod
    def new(cls, setup: m.TableMsg, first_dealer: int) -> GameTrack[S]: ...

    @classmethod
    def resumed(cls, setup: m.TableMsg, game: S) -> GameTrack[S]:
        """Go on from the rules engine's state between deals (a continuation segment,
        ``table/carry.py``): the same game, in other hands at one seat."""
        ...

    @property
    def game(self) -> S:
        """The rules engine's state, as bots and records read it."""
        ...

    @property
    def n_seats(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def deal_number(self) -> int: ...

    @property
    def turn(self) -> int | None:
        """Whose card is due, or None outside trick play."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def final_score(self) -> tuple[int, ...]: ...

    def standing(self) -> Score: ...

    def owners(self) -> tuple[int, ...]:
        """The seat each deck position is dealt to in the deal about to start."""
        ...

    def begin_deal(self) -> None:
        """Forget the last deal's announcements: a new deal (or re-deal) starts."""
        ...

    def forget_hand(self, seat: int) -> None:
        """From now on the deal in progress goes on for the engine without ``seat``'s
        hand, as every other table sees it (a card of that hand was shown by another
        seat: ``flow.note_shown_twice``); nothing to do before the engine's deal starts."""
        ...

    def legal_cards(self, seat: int) -> list[Card]: ...

    def play(self, seat: int, card: Card) -> TrickDone | None:
        """Apply a card (raises ``RuleViolation``); the trick it completed, if any."""
        ...

    def trick_so_far(self) -> TrickSoFar: ...

    def tricks_won(self) -> tuple[int, ...]: ...

    def card_points(self) -> tuple[int, ...]: ...

    def check_announcements(self, hands: Sequence[int], deal: int) -> list[Fault]:
        """What seats said about their hands during the deal, against the hands."""
        ...

    def settle(self, hands: Sequence[int], deal: int) -> Settlement:
        """Score the deal from the audited hands."""
        ...
