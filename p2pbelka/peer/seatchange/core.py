"""The seat change machine's core: its state, its one transition (``_go``, checked
against ``stages.SUCCESSORS``), what a ``MachineError`` does in the field, and the
steps every side of a change takes.  ``machine.py`` is the machine; this is what
its sides (``proposing.py``, ``agreeing.py``) share.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from p2pbelka.peer.seatchange.effects import (
    AskPlayer,
    Broadcast,
    Closed,
    Config,
    Effect,
    Identities,
    Remember,
    Switch,
    Thaw,
)
from p2pbelka.peer.seatchange.offer import Bots
from p2pbelka.peer.seatchange.stages import (
    SUCCESSORS,
    Asking,
    Awaiting,
    Considering,
    Handing,
    Idle,
    MachineError,
    Question,
    Stage,
    StageData,
    Switched,
)
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.seatchange import ClosedOffer, Decline, Offer, encode_seat_change
from p2pbelka.table.session import Table

log = logging.getLogger("p2pbelka.peer.seatchange.machine")

DRAIN_EVERY = 0.1
"""How often a bot finishing its deal before a hand-back is looked at."""
NO_AGAIN = "this seat said no to it"
"""Why an offer said no to once is declined again (a seat never signs it after)."""
KEEP_CLOSES = 8
"""How many closed offers a machine keeps (one a change: a game sees a few at most)."""
Cut = tuple[tuple[int, bytes], ...]
"""Where a continuation cuts its segment: every seat's envelope count and last hash."""

M = TypeVar("M", bound="MachineCore")
P = ParamSpec("P")
R = TypeVar("R")


def guarded(
    fallback: R,
) -> Callable[[Callable[Concatenate[M, P], R]], Callable[Concatenate[M, P], R]]:
    """An input of the machine: a ``MachineError`` in it is raised when strict, else
    the change under way is given up (``_gave_up``) and ``fallback`` returned."""

    def wrap(method: Callable[Concatenate[M, P], R]) -> Callable[Concatenate[M, P], R]:
        def guarded(self: M, /, *args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(self, *args, **kwargs)
            except MachineError as error:
                if self.strict:
                    raise
                self._gave_up(error)
                return fallback

        guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
        return guarded

    return wrap


class MachineCore:
    """The state of one peer's seat change, and the steps all its sides take."""

    def __init__(self, ids: Identities, config: Config) -> None:
        self.ids = ids
        self.config = config
        self.table: Table | None = None
        self.watching = False
        """Our seat is a bot's: our table is an observer's until the seat comes back."""
        self.at: StageData = Idle()
        """The stage the change is in, with its data."""
        self.strict = False
        """Raise a ``MachineError`` (tests, the simulator) instead of giving up."""
        self.on_transition: Callable[[Stage, Stage], None] | None = None
        """Told every transition taken (the simulator's coverage)."""
        self.transitions: Counter[tuple[Stage, Stage]] = Counter()
        """The transitions taken, counted."""
        self.bots: dict[int, Signer] = {}
        """The bots this peer runs for lost seats, by seat."""
        self.refused: Counter[str] = Counter()
        """Control messages not acted on, by type (an answer to no offer of ours)."""
        self.outcomes: Counter[str] = Counter()
        """How changes ended here: agreed, declined, no answer, sealed, switched..."""
        self._bot_tables: dict[int, Table] = {}
        self._failed: set[int] = set()
        self._out: list[Effect] = []
        self._asks = 0
        self._said_no: int | None = None  # our player refused a bot there: offers declined
        self._signed_from: dict[bytes, bytes] = {}  # segment -> the continuation we signed
        self._declined: set[bytes] = set()  # offers we said no to: never signed after
        self._back_from: dict[int, int] = {}  # seat -> the deal its player may ask again
        self._paused: dict[int, float] = {}  # seat -> its silence is a hand-back's until then
        self._put_off: dict[int, float] = {}  # seat -> a fresh bot declined: asked again then
        self._back_offers: dict[bytes, Cut] = {}  # hand-back offers heard: their cuts
        self._said_again: dict[bytes, float] = {}  # when our no to one was said again
        self._released: set[tuple[bytes, Cut]] = set()  # cuts we signed, then went on from
        self._cuts: dict[tuple[bytes, bytes], bytes] = {}  # (segment, cut) -> ours, signed
        self._restored: set[bytes] = set()
        """The continuations this seat agreed to before it stopped, waited on again."""
        self._tables_seen: list[bytes] = []
        self._refusals: dict[bytes, str] = {}  # why each of those was refused (logged once)
        self.closes: dict[bytes, ClosedOffer] = {}
        """Offers closed, by segment: ours (said again to a seat that signed one and
        still waits) and the proposers' words on those we signed.  The last few kept."""

    # -- the stage --------------------------------------------------------------------------

    @property
    def stage(self) -> Stage:
        return self.at.name

    @property
    def busy(self) -> int | None:
        """The seat the change under way is about."""
        return self.at.busy

    def _go(self, new: StageData) -> None:
        """The one way from a stage to another: refused if not declared."""
        before, after = self.at.name, new.name
        if after not in SUCCESSORS[before]:
            raise MachineError(f"the seat change went from {before.value} to {after.value}")
        self.at = new
        self.transitions[(before, after)] += 1
        if self.on_transition is not None:
            self.on_transition(before, after)

    def _update(self, data: StageData) -> None:
        """New data for the stage we are in (a timer moved, an answer noted): no
        transition."""
        assert data.name is self.at.name, (self.at.name, data.name)
        self.at = data

    def _gave_up(self, error: MachineError) -> None:
        """In the field, a ``MachineError``: the change under way fails as any failed
        change does (no bot for that seat: its give-up ends the game), whatever
        stage it was in."""
        log.error("%s (a bug): the change is given up", error)
        self.outcomes["machine error"] += 1
        seat = self.busy
        self.at = Idle()
        self._thaw()
        if seat is not None:
            self._failed.add(seat)
            self._out.append(Closed(seat, "the seat change failed here"))

    def _question(self) -> Question | None:
        at = self.at
        if isinstance(at, Asking | Awaiting | Considering | Handing):
            return at.question
        return None

    # -- shared steps -------------------------------------------------------------------------

    def _ask_player(
        self, seat: int, silent: float, now: float, back: str | None = None, later: bool = False
    ) -> Question:
        """Ask our player about ``seat`` (``back``: hand it back to that player;
        ``later``: a no only puts it off): the question, for the stage that waits on
        its answer."""
        table = self.table
        assert table is not None and table.state.setup is not None
        name = table.state.setup.seats[seat].name
        bot = back if back is not None else bot_name(name)
        self._asks += 1
        timeout = self.config.offer_timeout
        ask = AskPlayer(self._asks, seat, name, silent, bot, back is not None, timeout, later)
        self._out.append(ask)
        return Question(self._asks, seat, now + timeout, silent, later)

    def _decline(self, offer: Offer, why: str, retry: bool) -> None:
        if not retry:
            self._declined.add(offer.segment)
        self.outcomes["declined"] += 1
        self._out.append(Broadcast(encode_seat_change(Decline(offer.segment, why, retry))))

    def _keep_close(self, msg: ClosedOffer) -> None:
        self.closes[msg.segment] = msg
        while len(self.closes) > KEEP_CLOSES:
            del self.closes[next(iter(self.closes))]

    def _close(self, seat: int, why: str) -> None:
        """The change about ``seat`` failed: the driver ends the game the next time it
        gives up on that seat."""
        log.warning("no bot for seat %d: %s", seat, why)
        self._failed.add(seat)
        self.outcomes["closed"] += 1
        self._thaw()
        self._out.append(Closed(seat, why))
        self._idle()

    def _thaw(self) -> None:
        """Go on with the segment in play, unless we signed a continuation of it: a seat
        that signed processes nothing more of the old segment (the proposer, who alone
        can seal its offer, goes on when it fails)."""
        if self.table is not None and self.table.game_id not in self._signed_from:
            self._out.append(Thaw())

    def _idle(self) -> None:
        self._go(Idle())

    def _remember(self, segment: bytes) -> None:
        self.ids.seen_ids.add(segment)
        self._out.append(Remember(segment))

    def _switch(self, table: Table, bots: Bots) -> None:
        self._go(Switched())
        self._out.append(Switch(table, bots))

    def _name(self, seat: int) -> str:
        names = self.ids.names
        return names[seat] if seat < len(names) else f"seat {seat}"


def proposer_of(table: Table, lost: int) -> int:
    """The seat that proposes (and hosts) a change of ``lost``: the lowest other seat."""
    return next(s for s in range(table.state.n_seats) if s != lost)


def bot_name(name: str) -> str:
    return f"Bot for {name}"[: m.MAX_NAME]
