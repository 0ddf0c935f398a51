"""What a table tells its driver (screen, bot, log): plain immutable records.

Each event carries what a screen draws of it, so a front end never reads the
table: a card played names the trick so far and whose turn is next; a deal's
audit carries the deal as verified and the score after it.

These are the events every game shares.  A game's own events (a call, a bonus
chosen...) are :class:`GameEvent` subclasses in the game's own module beside its
phases (``table/games/<game>/events.py``), so a driver that knows no game can still hand
them on; a game with more to its standing than points subclasses :class:`Score` there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.cards import Card
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table.moves import Move


@dataclass(frozen=True, slots=True)
class Event:
    pass


@dataclass(frozen=True, slots=True)
class GameEvent(Event):
    """An event of a game's own, not every game's (defined with the game's phases): data
    only, worded by the game's screen (``GameUI.event_line``)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A seat caught breaking the protocol or the rules, with the signed evidence.

    ``evidence`` holds the hashes of the envelopes that prove it (hex), all in the
    transcript.  ``fatal`` faults stop the game; a renege is not fatal (the rules
    charge it and play goes on).  ``seat`` is -1 when no single seat is to blame.
    ``proven``: the seat's own signed messages in the transcript prove it; an
    unproven fault (a seat gone silent, a view nobody could back) only names the
    seats involved, and the game ends *disputed*.
    """

    seat: int
    what: str
    evidence: tuple[str, ...] = ()
    fatal: bool = True
    deal: int | None = None
    proven: bool = True

    def __str__(self) -> str:
        where = f"deal {self.deal}: " if self.deal is not None else ""
        return f"{where}seat {self.seat}: {self.what}"


@dataclass(frozen=True, slots=True)
class Score:
    """The game's standing: its points by team (by seat in a game each plays for
    oneself).  A game whose standing holds more (a game's own titles or bonuses)
    subclasses it beside its own events."""

    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rejected(Event):
    """An envelope that was dropped; the game goes on.  ``seat`` when the sender is known."""

    reason: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ViewConflict(Event):
    """``reporter`` signed a view of ``accused``'s chain that differs from ours at
    envelope ``seq``: the table waits for the envelope behind it (the proof that
    ``accused`` equivocated) or for its driver to give up (the game is disputed)."""

    reporter: int
    accused: int
    seq: int


@dataclass(frozen=True, slots=True)
class MoveRejected(Event):
    """A move of the local player's that the table refused; the choice is open again."""

    move: Move
    reason: str


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The lot is drawn.  ``me`` is the local seat (None for an observer).
    ``continued``: a continuation segment (a seat changed hands): no lot was drawn,
    the game goes on from the previous segment, ``first_dealer`` dealing next.
    ``first_names`` and ``first_keys``: the seats of the game's first segment, the
    players who sat down at the start, whose result the game is (protocol/results.md
    1.1), whoever holds a seat now; () when not said (take ``names`` and ``keys``)."""

    game: str
    names: tuple[str, ...]
    keys: tuple[bytes, ...]
    first_dealer: int
    me: int | None
    options: dict[str, str] = field(hash=False)
    score: Score
    continued: bool = False
    first_names: tuple[str, ...] = ()
    first_keys: tuple[bytes, ...] = ()


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal_id: int
    number: int
    dealer: int
    score: Score


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardInTwoHands(Event):
    """``seat`` showed ``card`` (-1: a card open to all that is no seat's, such as
    Belot's turned card), and the local seat holds it too: the deck is unsound.  The
    local seat shows its copy in its next play, where every table sees the card twice;
    the deal then goes to the reveal, and the audit names whoever broke the deck."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TurnToPlay(Event):
    """Trick play begins: ``seat`` leads the first trick."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChoiceNeeded(Event):
    """The local seat must decide: ``kind`` is ``play`` (a card, with any of a game's
    own moves allowed beside it) or a game's own decision (a call, a bonus...);
    ``moves`` are the moves ``Table.apply`` accepts now."""

    kind: str
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``trick`` holds the cards of the trick so far, from ``leader`` on, this one
    included; ``turn`` is the seat to play next (None once the trick is complete)."""

    seat: int
    card: Card
    leader: int
    trick: tuple[Card, ...]
    turn: int | None


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """``turn``: who leads next (None after the last trick).  ``tricks_won`` and
    ``card_points`` by team (by seat in a game each plays for oneself), as played
    so far."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    turn: int | None
    tricks_won: tuple[int, ...]
    card_points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealAudited(Event):
    """The end-of-deal audit passed (or charged a renege): the deal as verified,
    and the score after it."""

    deal_id: int
    summary: DealSummary = field(hash=False)
    score: Score


@dataclass(frozen=True, slots=True)
class FaultFound(Event):
    fault: Fault


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: int | None
    score: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameAborted(Event):
    faults: tuple[Fault, ...]
