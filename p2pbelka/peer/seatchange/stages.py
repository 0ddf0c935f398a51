"""The seat change's stages as data: each stage with the data valid in it, and the
stages each may lead to (``SUCCESSORS``).  ``machine.py`` changes stage only through
its one transition (``SeatChange._go``), which refuses one not declared here.

One change at a time, in one stage:

- the proposer (the lowest seat but the lost one): ``ASKING`` its player, then
  ``OFFERING`` the continuation until every other remaining seat signed it (seal
  and switch), one said no, or the time ran out;
- every other remaining seat: ``AWAITING`` the offer (its player is asked at once,
  with the proposer's: an answer given before the offer signs it when it comes),
  ``CONSIDERING`` it, then ``AGREED`` until the sealed continuation comes;
- the peer whose bot plays a seat its player asks back: ``HANDING`` (its player is
  asked), ``DRAINING`` (the bot finishes the deal in progress), then ``OFFERING``;
- ``SWITCHED``: a switch to another segment is out; ``IDLE`` again once the runner
  enters it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from p2pbelka.peer.seatchange.offer import OpenOffer
from p2pbelka.protocol.seatchange import Offer
from p2pbelka.table.carry import Previous


class Stage(enum.Enum):
    """A stage's name (what tests, logs and the simulator's coverage speak of)."""

    IDLE = "idle"
    ASKING = "asking"
    OFFERING = "offering"
    AWAITING = "awaiting"
    CONSIDERING = "considering"
    AGREED = "agreed"
    HANDING = "handing"
    DRAINING = "draining"
    SWITCHED = "switched"


_ALL = frozenset(Stage)

SUCCESSORS: Mapping[Stage, frozenset[Stage]] = {
    Stage.IDLE: frozenset(
        # (AGREED: what we signed before a crash, ``SeatChange.restore``; SWITCHED: a
        # watcher follows its seat back, or our seat was given away, ``watch``)
        {Stage.ASKING, Stage.AWAITING, Stage.CONSIDERING, Stage.AGREED, Stage.HANDING}
        | {Stage.SWITCHED}
    ),
    Stage.ASKING: frozenset({Stage.IDLE, Stage.OFFERING}),
    Stage.OFFERING: frozenset({Stage.IDLE, Stage.SWITCHED}),  # (SWITCHED: sealed)
    Stage.AWAITING: frozenset({Stage.IDLE, Stage.CONSIDERING}),
    Stage.CONSIDERING: frozenset({Stage.IDLE, Stage.AWAITING, Stage.AGREED}),
    Stage.AGREED: frozenset({Stage.IDLE, Stage.SWITCHED}),  # (SWITCHED: it came sealed)
    Stage.HANDING: frozenset({Stage.IDLE, Stage.DRAINING}),
    Stage.DRAINING: frozenset({Stage.IDLE, Stage.OFFERING}),
    Stage.SWITCHED: frozenset({Stage.IDLE}),  # the runner entered the next segment
}
"""Each stage's allowed next stages: the whole machine, as the table's phases are."""

assert set(SUCCESSORS) == _ALL and all(s <= _ALL for s in SUCCESSORS.values())

TRANSITIONS: frozenset[tuple[Stage, Stage]] = frozenset(
    (stage, nxt) for stage, successors in SUCCESSORS.items() for nxt in successors
)
"""Every declared transition, (from, to): what a coverage of the machine counts
against (``SeatChange.on_transition``, ``SeatChange.transitions``)."""

OWN_CHANGE = frozenset({Stage.ASKING, Stage.OFFERING, Stage.HANDING, Stage.DRAINING})
"""Stages of a change this peer proposes: another's offer waits till it is over."""


class MachineError(AssertionError):
    """The machine took a transition ``SUCCESSORS`` does not declare: a bug here,
    never a peer's fault (what a peer sends is checked before it moves anything)."""


@dataclass(frozen=True, slots=True)
class Question:
    """A question out to our player (``AskPlayer``), due by ``until``."""

    ask: int
    seat: int
    until: float
    silent: float = 0.0
    later: bool = False
    """A fresh bot for one lost with our restart, asked before the window: a no (or
    none) only puts it off (``SeatChange.lost``)."""


@dataclass(frozen=True, slots=True)
class Idle:
    name = Stage.IDLE
    busy = None


@dataclass(frozen=True, slots=True)
class Asking:
    """The proposer asks its player whether to offer a bot for ``question.seat``."""

    question: Question
    name = Stage.ASKING

    @property
    def busy(self) -> int:
        return self.question.seat


@dataclass(frozen=True, slots=True)
class Offering:
    """Our offer is out; its signatures come in (``OpenOffer`` counts them)."""

    offer: OpenOffer
    name = Stage.OFFERING

    @property
    def busy(self) -> int:
        return self.offer.seat


@dataclass(frozen=True, slots=True)
class Awaiting:
    """A remaining seat waits until ``until`` for the proposer's offer about ``seat``;
    its player may be asked already (``question``) or have said yes (``said_yes``)."""

    seat: int
    until: float
    question: Question | None = None
    said_yes: bool = False
    name = Stage.AWAITING

    @property
    def busy(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True)
class Considering:
    """A remaining seat's player decides on ``offer`` (about seat ``about``; ``back``:
    it hands the seat back to its player).  ``waiting`` is the ``Awaiting`` it came
    from (or that our own give-up made meanwhile), gone back to on a no: None if the
    offer came before this seat gave up on anyone."""

    offer: Offer
    about: int
    question: Question | None
    back: bool = False
    waiting: Awaiting | None = None
    name = Stage.CONSIDERING

    @property
    def busy(self) -> int | None:
        return self.waiting.seat if self.waiting is not None else None


@dataclass(frozen=True, slots=True)
class Agreed:
    """We signed ``segment`` (a continuation of ``previous`` giving ``seat`` to another
    key): frozen until it comes sealed, or ``until``; sent again from ``resend``."""

    segment: bytes
    previous: Previous
    sig: bytes
    seat: int
    until: float
    resend: float
    name = Stage.AGREED

    @property
    def busy(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True)
class Handing:
    """Our player is asked to hand ``question.seat`` (a bot of ours) back to its
    player, whose fresh ``nonce`` the continuation will carry."""

    question: Question
    nonce: bytes
    name = Stage.HANDING

    @property
    def busy(self) -> int:
        return self.question.seat


@dataclass(frozen=True, slots=True)
class Draining:
    """Our bot in ``seat`` finishes its deal (its table stops at deal ``stop``); looked
    at again at ``at``."""

    seat: int
    stop: int
    nonce: bytes
    at: float
    name = Stage.DRAINING

    @property
    def busy(self) -> int:
        return self.seat


@dataclass(frozen=True, slots=True)
class Switched:
    """A switch to another segment is out: nothing more until ``enter``."""

    name = Stage.SWITCHED
    busy = None


StageData = (
    Idle | Asking | Offering | Awaiting | Considering | Agreed | Handing | Draining | Switched
)
"""A stage with its data."""
