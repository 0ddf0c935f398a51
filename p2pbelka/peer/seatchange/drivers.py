"""The drivers and transports of a game played in segments (``runner.py``).

A peer's seat, and any bot it runs for a lost seat, each have a table and a
``PeerDriver``; they share the peer's one mesh (``SharedMesh``) through an
``Endpoint`` each, so what one of them sends reaches the others on this machine
too.  The seat's driver can be stopped where it stands (``freeze``) while the
players decide on a change; its give-up goes through the seat change first
(``SeatGone``).  ``SeatOffer`` is what a front end is asked, answered through its
``Decision``.  Nothing here knows the seat change: it hands in what these need.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from p2pbelka.peer.driver import CutOff, FrontEnd, Inbox, PeerDriver, Release, Transport
from p2pbelka.peer.mesh import MAX_INBOX, Mesh
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)


class Decision:
    """A player's yes or no, given from any task (a screen, a text prompt, a bot); or
    the question withdrawn (it no longer applies: an answer then counts for nothing)."""

    def __init__(self) -> None:
        self._given = trio.Event()
        self.value: bool | None = None
        self.withdrawn = False

    def answer(self, yes: bool) -> None:
        if self.value is None and not self.withdrawn:
            self.value = yes
            self._given.set()

    def withdraw(self) -> None:
        if self.value is None:
            self.withdrawn = True
            self._given.set()

    async def wait(self, timeout: float) -> bool:
        """The answer; no answer by ``timeout`` seconds (or the question withdrawn) is no."""
        with trio.move_on_after(timeout):
            await self._given.wait()
        return bool(self.value)


@dataclass(frozen=True, slots=True)
class SeatOffer(ev.Event):
    """Seat ``seat`` (``name``) has been gone ``seconds``: seat ``bot`` in its place from
    the next deal?  (With ``back``: its player ``bot`` is back; hand the seat back from
    the next deal?)  The front end answers through ``decision``; no answer is no."""

    seat: int
    name: str
    seconds: float
    bot: str
    decision: Decision = field(compare=False)
    back: bool = False
    """Not a bot: ``bot`` is the seat's own player, back to take it again."""
    later: bool = False
    """A no only puts it off: a fresh bot for one this peer lost with its restart,
    asked again later (SPEC 9.5, "A bot lost with its peer")."""


@dataclass(frozen=True, slots=True)
class OfferWithdrawn(ev.Event):
    """The question ``offer`` no longer applies (unanswered in time, or the change it
    was about is over): the front end takes it off the screen."""

    offer: SeatOffer


@dataclass(frozen=True, slots=True)
class SeatKept(ev.Event):
    """Watching: the seat we asked back stays with the bot in this deal (``why``); it
    is asked back again from the next deal."""

    seat: int
    why: str


@dataclass(frozen=True, slots=True)
class OfferClosed(ev.Event):
    """The offer about ``seat`` came to nothing: ``why``."""

    seat: int
    why: str


class SharedMesh:
    """The peer's one mesh, shared by the tables it runs in one segment: its seat's,
    and a bot's for each seat it plays for a lost player (``bot_seats``)."""

    def __init__(self, mesh: Mesh) -> None:
        self.mesh = mesh
        self.endpoints: list[Endpoint] = []
        self.bot_seats: set[int] = set()
        """Seats played here: connected, though the mesh has no link to them."""
        self.dropped = 0  # envelopes from links past ``MAX_INBOX``

    def endpoint(self) -> Endpoint:
        """The transport of one more table of this segment."""
        endpoint = Endpoint(self)
        self.endpoints.append(endpoint)
        return endpoint

    def deliver(self, item: bytes | Release) -> None:
        """What came from the mesh, to every table of the segment, in order."""
        for endpoint in self.endpoints:
            endpoint.deliver(item)

    def from_link(self, raw: bytes) -> None:
        """An envelope a link just brought: dropped and counted if a table is
        ``MAX_INBOX`` behind (it asks again for what it lacks: a peer sending faster
        than the tables take it makes this one hold no more).  What this peer hands
        its tables itself (held for a segment, fetched) is never dropped, nor anything
        while a resumed seat is held (our own last envelopes may be among it)."""
        if not self.mesh.holding and any(endpoint.behind() for endpoint in self.endpoints):
            self.dropped += 1
            if self.dropped == 1:
                log.warning("a table is behind: envelopes past %d dropped", MAX_INBOX)
            return
        self.deliver(raw)


class Endpoint:
    """One local table's transport: the mesh, and the other tables this peer runs
    (a bot's), which hear everything it sends."""

    def __init__(self, shared: SharedMesh) -> None:
        self.shared = shared
        self.send_channel: trio.MemorySendChannel[bytes | Release]
        self.send_channel, self.inbox = trio.open_memory_channel[bytes | Release](math.inf)

    def attach(self, inbox: trio.MemorySendChannel[Inbox]) -> None:
        """The driver's own inbox takes what arrives from now on (``Pushing``), after
        what was queued here: no task in between."""
        while True:
            try:
                item = self.inbox.receive_nowait()
            except trio.WouldBlock:
                break
            inbox.send_nowait(item)
        self.send_channel = inbox

    def deliver(self, item: bytes | Release) -> None:
        """Hand one envelope (or ``Release``) to this endpoint's table, in order."""
        self.send_channel.send_nowait(item)

    def behind(self) -> bool:
        """``MAX_INBOX`` items wait for this table: what a link brings more is dropped
        (``SharedMesh.from_link``)."""
        return self.send_channel.statistics().current_buffer_used >= MAX_INBOX

    @property
    def mesh(self) -> Mesh:
        return self.shared.mesh

    async def broadcast(self, raw: bytes) -> None:
        await self.mesh.broadcast(raw)
        for other in self.shared.endpoints:
            if other is not self:
                other.deliver(raw)

    async def receive(self) -> bytes | Release:
        return await self.inbox.receive()

    def release_in_order(self) -> None:
        """Let the resumed table speak, after every envelope already handed to it."""
        self.deliver(Release())

    async def ask_resend(self, wants: list[int]) -> None:
        await self.mesh.ask_resend(wants)

    def connected(self) -> set[int]:
        return self.mesh.connected() | self.shared.bot_seats

    async def flushed(self) -> None:
        await self.mesh.flushed()


class SeatGone(Protocol):
    """Asked when a segment's driver has waited past the window for ``seats``
    (``SeatChangeRunner.seat_gone``): True if the seat change takes it from there (an offer is
    made or awaited), False to end the game as before."""

    def __call__(self, driver: PeerDriver, seats: list[int], silent: float) -> bool: ...


CHANGE = "change"
"""The seat change holds the table: an offer made or signed cuts it where it stands."""
FETCH = "fetch"
"""A fetch holds it: asking the others whether our seat changed hands."""


class SegmentDriver(PeerDriver):
    """A driver whose give-up goes through ``seat_gone`` first, and whose table can be
    stopped where it stands (``freeze``) while the seats decide on a change."""

    def __init__(
        self,
        table: Table,
        transport: Transport,
        front_end: FrontEnd,
        *,
        seat_gone: SeatGone,
        cut_off: Callable[[], bool] = lambda: False,
        home_seat: int = 0,
        unplayed: Callable[[int], bool] = lambda seat: False,
        unplayed_after: float = math.inf,
        **kwargs: Any,
    ) -> None:
        super().__init__(table, transport, front_end, **kwargs)
        self.seat_gone = seat_gone
        self.home_seat = home_seat
        self.unplayed = unplayed
        """Whether nobody can play a seat: a bot this peer ran before it restarted (its
        key and secrets were never kept).  Given up on after ``unplayed_after``."""
        self.unplayed_after = unplayed_after
        self.stopped_alone: float | None = None
        """The silence after which this peer stopped, reaching nobody (``CutOff``)."""
        self.stopped_split = False
        """It stopped so reaching some seats, but at most half the table (``split``)."""
        self.cut_off = cut_off
        """Whether this peer waited past the window reaching no other seat and has not
        asked since whether its seat changed hands (``SeatChangeRunner.seat_gone``)."""
        self._holds: set[str] = set()
        """Who holds the table where it stands (``CHANGE``, ``FETCH``): each lets go
        of its own hold only."""
        self._held: list[Inbox] = []

    async def give_up(self, seats: list[int], silent: float) -> None:
        stranded = self.alone() or self.split()
        if (stranded or self.table.state.me is None) and silent >= self.cut_off_limit:
            # (An observer's table: our seat is a bot's and we watch, asking for it
            # back.  Only the seated peers can end the game; if one the game waits for
            # stays out of reach, nothing else would bound our wait.)
            await self._stop_alone(silent)
        elif not self.seat_gone(self, seats, silent):
            await super().give_up(seats, silent)

    async def _stop_alone(self, silent: float) -> None:
        """Nobody reached for the whole ``cut_off_limit`` (or, watching our seat
        played by a bot, not a seat the game waits for): the others went on without
        us (a bot has our seat, and they may have finished and left; at a table of two
        the other seat waits as we do), and nobody may ever answer again.  Stop,
        signing nothing and naming nobody: the game is kept unfinished, for
        ``resume``."""
        self.stopped_alone = silent
        split = self.stopped_split = not self.alone() and self.split()
        await self.front_end.on_event(self, CutOff(silent, self.table.state.n_seats == 2, split))
        if self.alone():
            why = f"this machine reached no other seat for {silent:.0f} s: it stopped waiting"
        elif split:
            why = (
                f"this machine reached no more than half the table for {silent:.0f} s:"
                " it stopped waiting"
            )
        else:
            why = (
                f"this machine could not reach the seats that play on for {silent:.0f} s:"
                " it stopped waiting"
            )
        me = self.table.state.me  # (an observer's table, our seat a bot's: our home seat)
        self.table.stop_unsigned(self.home_seat if me is None else me, why)

    async def _apply(self, item: Inbox) -> None:
        if not self.frozen:
            await super()._apply(item)
        elif isinstance(item, Move):
            why = "the table is deciding about a lost seat; wait a moment"
            await self.front_end.on_event(self, ev.MoveRejected(item, why))
        else:
            self._held.append(item)

    def _may_be_deciding(self, seat: int, silent: float) -> bool:
        # Back from an outage past the window, no seat is waited for as if deciding:
        # the others may have left this segment (a bot in our seat), so the seat due
        # here never moves in it.  The give-up that follows asks whether our seat
        # changed hands; if it did not, the table goes on and waits as before.
        if self.cut_off() or not self._its_player_may_move(seat):
            return False
        return super()._may_be_deciding(seat, silent)

    def _its_player_may_move(self, seat: int) -> bool:
        """Whether what moves ``seat`` may be thinking on a live link: not a bot our
        restart lost (nobody plays it), nor one whose peer (the lowest other seat) is out
        of reach.  The link to that seat's own player, back and watching, is up, but it
        does not play the seat while a bot holds it."""
        if self.unplayed(seat):
            return False
        transport, setup, me = self.transport, self.table.state.setup, self.table.state.me
        if not isinstance(transport, Endpoint) or setup is None:
            return True
        if setup.seats[seat].key == transport.mesh.keys[seat]:
            return True  # its own player's
        runner = next(s for s in range(len(setup.seats)) if s != seat)
        return runner == me or runner in transport.mesh.connected()

    def gives_up_after(self, gone: list[int]) -> float:
        # A seat nobody can play waits for nothing the window could bring: it is given
        # up on as soon as its player had time to ask for it back (once this seat may
        # sign again: a held table waits for its own chain first).
        table = self.table
        if (
            gone
            and all(self.unplayed(s) for s in gone)
            and not (table.state.held or table.view.short_of_own)
        ):
            return min(self.give_up_after, self.unplayed_after)
        return self.give_up_after

    def alone(self) -> bool:
        """Every link this peer had is down.  At a table of three or more the others are
        most likely all there, and this machine is the one cut off.  At a table of two
        either side would think so and neither can tell which it is: both wait alike,
        up to the same bound, and stop naming nobody (a link that keeps failing counts
        as down there: a one-way cut lets dials through and nothing after)."""
        transport = self.transport
        if not isinstance(transport, Endpoint):
            return False
        if self.table.state.n_seats == 2:
            return transport.mesh.unreached()
        return transport.mesh.cut_off()

    def split(self) -> bool:
        """At a table of four or more players: this peer reaches at most half of them,
        itself counted (``Mesh.split``; the seats a bot holds do not count, the peer
        that runs it speaks for it).  No seat can change hands then, and the other
        half may be waiting as we do: like a peer cut off, this one waits for its
        links and stops naming nobody, never blaming a seat of the half out of reach
        (which may have stopped the game and left, as we would have)."""
        transport, setup, me = self.transport, self.table.state.setup, self.table.state.me
        if not isinstance(transport, Endpoint) or setup is None or me is None:
            return False
        keys = transport.mesh.keys
        players = {s for s, seat in enumerate(setup.seats) if seat.key == keys[s]}
        return transport.mesh.split(players)

    @property
    def frozen(self) -> bool:
        return bool(self._holds)

    def freeze(self, by: str = CHANGE) -> None:
        self._holds.add(by)

    def thaw(self, by: str = CHANGE) -> None:
        """``by`` lets go of the table: once nobody holds it, it goes on with the old
        segment, and what arrived meanwhile is processed now.  A fetch that finds our
        seat still ours never lets go of a table the seat change holds: a proposer or a
        seat that signed a cut never signs past it (its continuation would not verify)."""
        self._holds.discard(by)
        if self._holds:
            return
        held, self._held = self._held, []
        for item in held:
            self._inbox_send.send_nowait(item)


class BotSeatDriver(PeerDriver):
    """The bot this peer runs for a seat: the peer's own driver decides when to give up."""

    async def give_up(self, seats: list[int], silent: float) -> None:
        return None


class Collect:
    """The transcript sink of every segment: the file, and the game's list in memory."""

    def __init__(self, writer: TranscriptWriter, into: list[Envelope]) -> None:
        self.writer, self.into = writer, into

    def append(self, envelope: Envelope) -> None:
        self.writer.append(envelope)
        self.into.append(envelope)
