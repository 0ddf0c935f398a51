"""A lost seat played by a bot: the trio runner of a game played in segments.

When the table has waited for one seat past the reconnect window (the driver's
give-up time), the driver does not end the game at once: it asks ``SeatChangeRunner``.
The lowest remaining seat (the *proposer*, who will run the bot) asks its
player, then stops its table where it stands (the cut), draws a fresh bot
identity, and offers the continuation to every other remaining seat
(``protocol/seatchange.py``).  Each asks its player, stops its table, checks that
its own cut is the same and signs.  With every signature the proposer seals the
continuation ``table`` and hosts the next segment; it runs the bot's table beside
its own, and every peer goes on in the new segment, appending it to the same
transcript file.  A player who says no, a cut that differs, or an offer that is
not answered in time ends the game as before (disputed).

Every decision of that is the sans-IO machine's (``machine.SeatChange``).  This
runner feeds it (the control messages, the driver's give-up, the continuation
envelopes, the player's answers, the time) and does what it says
(``effects.py``).  It runs the segments, routes envelopes to them, and owns
the game's one nursery: its own task does the machine's sending and asking, and
starts the reclaimer's fetch there; no other object starts a task in it.
"""

from __future__ import annotations

import logging
import math
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import trio

from p2pbelka.bots import default_level, make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd, PeerDriver, Release, SignedJournal
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.drivers import (
    CHANGE,
    FETCH,
    BotSeatDriver,
    Collect,
    Decision,
    OfferClosed,
    OfferWithdrawn,
    SeatKept,
    SeatOffer,
    SegmentDriver,
    SharedMesh,
)
from p2pbelka.peer.seatchange.effects import (
    Agreed,
    AskPlayer,
    BotGoesOn,
    Broadcast,
    CatchUp,
    Closed,
    Config,
    Effect,
    Freeze,
    Identities,
    Kept,
    Remember,
    Replaced,
    SendTo,
    Switch,
    Thaw,
)
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.peer.seatchange.reclaim import ASK_EVERY, Reclaimer
from p2pbelka.peer.seatchange.state import SeatState
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.seatchange import (
    Agree,
    ChainEnd,
    ChainRecord,
    ChainRequest,
    ClosedOffer,
    Decline,
    Offer,
    Reclaim,
    decode_seat_change,
    envelope_game,
)
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.segments import SeedSources, change_of
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

MAX_PENDING = 4096
"""Envelopes of a segment this peer has not entered yet, kept until it does."""
MAX_PENDING_BYTES = 8 << 20
"""And their bytes (what one seat can make this peer hold with envelopes of made-up
segments; a continuation's first deal is a few hundred KiB)."""
LOST_BOT_AFTER = 2 * ASK_EVERY
"""Seconds this peer's table waits for a seat held by a bot it ran before it restarted
(lost with it), once it may sign again, before it seats a fresh bot there: time for the
seat's player, if back, to ask for it (``seat_reclaim``, every ``ASK_EVERY``)."""
TOP_UP_SILENT = 15.0
"""Watching, with a seat the game waits for out of reach: fetch the game from a seat we
reach this often."""


class KnownIds(Protocol):
    """The game and segment ids a peer has seen (``GameStore``: its machine's list)."""

    def knows(self, segment: bytes) -> bool: ...

    def remember(self, segment: bytes) -> None: ...


class Agreements(Protocol):
    """Where a seat keeps the continuations it signed (``GameStore``: a file beside its
    journal), each on the disk before its signature leaves."""

    def keep_agreement(self, agreed: Agreed) -> None: ...

    def saved_agreements(self) -> list[Agreed]: ...


class MemoryIds:
    """``KnownIds`` and ``Agreements`` kept in memory only (a peer without files: tests)."""

    def __init__(self) -> None:
        self.ids: set[bytes] = set()
        self.agreements: list[Agreed] = []

    def keep_agreement(self, agreed: Agreed) -> None:
        self.agreements.append(agreed)

    def saved_agreements(self) -> list[Agreed]:
        return list(self.agreements)

    def knows(self, segment: bytes) -> bool:
        return segment in self.ids

    def remember(self, segment: bytes) -> None:
        self.ids.add(segment)


def _fresh_nonce() -> bytes:
    return os.urandom(m.NONCE_SIZE)


@dataclass(frozen=True)
class RunnerOptions:
    """How a seat's game goes on when a seat is lost: its times (the peer's
    ``NetOptions``; tests shrink them) and the bots it seats."""

    pause_after: float
    give_up_after: float
    resend_after: float
    offer_timeout: float
    seat_bots: bool = True
    bot_level: str | None = None
    """The level of the bots this peer seats (None: the bots' ``default_level``)."""
    decide_limit: float = 900.0
    new_nonce: Callable[[], bytes] = _fresh_nonce
    fresh_bots: Callable[[], bytes] | None = None
    """32-byte values for the bots this peer seats (their keys, secrets and play):
    reproducible runs only (a simulator's); fresh randomness by default."""


@dataclass(frozen=True)
class SeatRecords:
    """Where a seat keeps what it must not lose: its transcript file, the journal of
    what it signed, the ids it has seen and the continuations it agreed to (the
    ``GameStore``; in memory when None)."""

    writer: TranscriptWriter
    journal: SignedJournal | None
    known: KnownIds | None = None
    agreements: Agreements | None = None


def _machine(ids: Identities, options: RunnerOptions) -> SeatChange:
    """The seat change's machine, its bots drawn from ``fresh_bots`` when given."""
    fresh_bots = options.fresh_bots
    if fresh_bots is not None:
        ids.new_bot = lambda: Signer.from_seed(fresh_bots())
        ids.bot_seeds = fresh_bots
    config = Config(options.offer_timeout, options.give_up_after, seat_bots=options.seat_bots)
    return SeatChange(ids, config)


Job = Broadcast | AskPlayer | Closed | Replaced | CatchUp | Kept
"""An effect that waits (or starts a task): done in order by the runner's own task."""


class SeatChangeRunner:
    """Runs the local seat's table, segment after segment, and the bots this peer plays
    for lost seats.  ``start`` the first segment, then ``play`` until the game ends."""

    def __init__(
        self,
        identity: Identity,
        mesh: Mesh,
        front_end: FrontEnd,
        records: SeatRecords,
        options: RunnerOptions,
        *,
        seed_sources: SeedSources,
        home_seat: int = 0,
        names: list[str] | None = None,
        entered: Callable[[bytes], None] | None = None,
    ) -> None:
        self.identity = identity
        self.options = options
        self.signer = Signer(identity.private_key)
        self.mesh = mesh
        self.front_end = front_end
        self.writer = records.writer
        self.journal = records.journal
        self.known = records.known if records.known is not None else MemoryIds()
        """Every game and segment id this peer has seen: it sits in none of them again."""
        self.agreements = records.agreements if records.agreements is not None else MemoryIds()
        """Every continuation this seat signed, kept before it was sent."""
        self.entered = entered
        """Told the id of every segment this peer enters (the chat binds its lines to it)."""
        self.bot_level = options.bot_level or default_level()
        self.transcript: list[Envelope] = []
        """Every segment's envelopes, in the order the transcript file has them."""
        ids = Identities(
            self.signer,
            list(mesh.keys),
            home_seat,
            list(names or []),
            seed_sources,
            self.known.knows,
            options.new_nonce,
        )
        self.change = _machine(ids, options)
        """Every decision of the seat change (sans-IO): this runner feeds it and acts."""
        self.state = SeatState(
            mesh, self.signer, home_seat, mesh.game_id, self.writer, self.transcript, self.change
        )
        """What this runner shares with the reclaimer."""
        self.reclaim = Reclaimer(
            self.state,
            new_nonce=options.new_nonce,
            watch=self.watch,
            retry=self.retry_pending,
            feed=self._feed,
        )
        self.shared = SharedMesh(mesh)
        """The current segment's tables on this peer, on the one mesh."""
        self.lost_seats: set[int] = set()
        """Seats whose player is gone for good (their peers never say done)."""
        self.driver: SegmentDriver | None = None
        self._drivers: list[PeerDriver] = []
        self._bot_drivers: dict[int, PeerDriver] = {}  # by seat, this segment's
        self._questions: dict[int, Decision] = {}  # on our player's screen, by ask
        self._pending: dict[bytes, list[bytes]] = {}
        self._next: tuple[Table, list[tuple[Table, int]]] | None = None
        self._segment_scope: trio.CancelScope | None = None
        self._jobs_in, self._jobs = trio.open_memory_channel[Job | None](math.inf)
        self._serving = False  # while ``play`` runs: its task does the machine's jobs
        self._cut_off = False  # our driver waited past the window reaching no other seat
        self._back_at: float | None = None  # a table of two: when the link came back
        self._topped_at, self._top_ups = -math.inf, 0  # watching: fetches from a seat
        mesh.on_control = self._on_control

    @property
    def table(self) -> Table | None:
        return self.change.table

    @property
    def watching(self) -> bool:
        return self.change.watching

    @property
    def refused(self) -> Counter[str]:
        """Seat-change messages this peer could not act on, by type: one that needs the
        game's tasks while the game is not in play here (before ``play``, or after it
        ended), an answer to no offer of ours that is open."""
        return self.change.refused

    # -- the segments ----------------------------------------------------------------

    def start(self, table: Table) -> SegmentDriver:
        """Enter the first segment (a new game, or a resumed one): its driver."""
        self._enter(table, [])
        assert self.driver is not None
        # what this seat agreed to before it stopped binds it still (a resumed seat)
        self.change.restore(self.agreements.saved_agreements(), trio.current_time())
        self._pump(wake=False)
        return self.driver

    @property
    def segment(self) -> bytes:
        return self.change.segment

    def _enter(self, table: Table, bots: list[tuple[Table, int]]) -> None:
        """Make ``table`` (and the bots' tables) the current segment; no checkpoint, so
        no envelope can slip between the old segment and the new."""
        self.shared = SharedMesh(self.mesh)
        self._drivers, self._bot_drivers = [], {}
        options = self.options
        self.driver = SegmentDriver(
            table,
            self.shared.endpoint(),
            self.front_end,
            pause_after=options.pause_after,
            give_up_after=options.give_up_after,
            resend_after=options.resend_after,
            decide_limit=options.decide_limit,
            transcript=Collect(self.writer, self.transcript),
            journal=self.journal,
            seat_gone=self.seat_gone,
            cut_off=lambda: self._cut_off,
            home_seat=self.state.home_seat,
            unplayed=self.change.bot_lost,
            unplayed_after=LOST_BOT_AFTER,
        )
        self._drivers.append(self.driver)
        for bot_table, seat in bots:
            endpoint = self.shared.endpoint()
            self.shared.bot_seats.add(seat)
            fresh_bots = options.fresh_bots
            seed = int.from_bytes(fresh_bots()[:8]) if fresh_bots else None
            front = BotFrontEnd(make_bot(self.bot_level, seed))
            bot_driver = BotSeatDriver(
                bot_table,
                endpoint,
                front,
                pause_after=options.pause_after,
                give_up_after=options.give_up_after,
            )
            self._drivers.append(bot_driver)
            self._bot_drivers[seat] = bot_driver
        self.change.enter(table, {seat: bot_table for bot_table, seat in bots})
        self.state.driver = self.driver
        self.mesh.follow(table.view.envelopes_from, table.view.wants)
        if self.entered is not None:
            self.entered(table.game_id)
        for raw in self._pending.pop(table.game_id, []):
            self.shared.deliver(raw)
        self._pending.clear()

    async def play(self) -> Table:
        """Play segment after segment until the local table's game ends; the last table."""
        async with trio.open_nursery() as nursery:
            self._serving = True
            nursery.start_soon(self._serve, nursery)
            try:
                while True:
                    self._next = None
                    # From here the mesh hands us each envelope as it comes (again, for
                    # a later segment: nothing is queued then), after what it queued.
                    self.mesh.push_to(self._route)
                    async with trio.open_nursery() as segment:
                        self._segment_scope = segment.cancel_scope
                        for driver in self._drivers:
                            segment.start_soon(self._run, driver, segment.cancel_scope)
                    if self._next is None:
                        break
                    table, bots = self._next
                    self._enter(table, bots)
                    await self._announce()
            finally:
                self.mesh.push_to(None)
                self._serving = False  # what comes from now on is refused (``_on_control``)
            nursery.cancel_scope.cancel()
        assert self.table is not None
        return self.table

    async def after_end(self) -> None:
        """The game ended here: the seat's table goes on taking what the mesh hands it
        while the peer stays (a proof may still come: ``PeerDriver.after_end``), until
        cancelled."""
        driver = self.driver
        if driver is None:
            return
        self.mesh.push_to(self._route)
        try:
            await driver.after_end()
        finally:
            self.mesh.push_to(None)

    @property
    def stopped_alone(self) -> bool:
        """The game stopped here because no other seat could be reached (``CutOff``)."""
        return isinstance(self.driver, SegmentDriver) and self.driver.stopped_alone is not None

    @property
    def stopped_split(self) -> bool:
        """It stopped so with half the table or more out of reach (``CutOff.split``)."""
        return isinstance(self.driver, SegmentDriver) and self.driver.stopped_split

    def settled(self) -> bool:
        """The seat's table has taken everything that came (see ``Mesh.linger``)."""
        return self.driver is None or self.driver.idle()

    async def _run(self, driver: PeerDriver, scope: trio.CancelScope) -> None:
        await driver.run()
        if driver is self.driver:
            scope.cancel()  # the game is over: the bots' tables are too

    def watch(self, table: Table) -> None:
        """Follow the game as an observer (our seat is a bot's until handed back)."""
        self.change.watch(table)
        self._pump()

    def retry_pending(self) -> None:
        """Try again the continuations heard so far (our table may have caught up)."""
        self.change.retry(self.reclaim.nonce)
        self._pump(wake=False)

    async def _announce(self) -> None:
        """Tell our player who took a seat (or got theirs back) in the new segment."""
        table, driver = self.table, self.driver
        assert table is not None and driver is not None
        change = change_of(table, self.mesh.keys)  # the players' own keys: a seat back
        if change is not None:
            if change.back:
                self.lost_seats.discard(change.seat)
            else:
                self.lost_seats.add(change.seat)
            await self.front_end.on_event(driver, change)
        if table.finished and self.state.ending is not None:
            await self.front_end.on_event(driver, self.state.ending)  # learned from a peer

    def _feed(self, raw: bytes) -> None:
        """An envelope this peer fetched itself (``Reclaimer``): routed, never dropped."""
        self._route(raw, fetched=True)

    def _route(self, raw: bytes | Release, fetched: bool = False) -> None:
        """Every envelope from the mesh goes to the current segment's tables, or waits
        for the segment it belongs to (a continuation may open it).  The mesh calls
        this as each arrives (``push_to``), in order, while ``play`` runs."""
        if isinstance(raw, Release):
            # every other seat gave back what this resumed seat signed: whether the
            # table speaks again is the reclaimer's call (the seat may be a bot's)
            self.reclaim.released.set()
            return
        game = envelope_game(raw)
        if game is None or (self.table is not None and game == self.segment):
            if fetched:
                self.shared.deliver(raw)
            else:
                self.shared.from_link(raw)  # dropped if a table is far behind
            return
        held = self._pending.values()
        if (
            sum(len(v) for v in held) < MAX_PENDING
            and sum(len(r) for v in held for r in v) + len(raw) <= MAX_PENDING_BYTES
        ):
            self._pending.setdefault(game, []).append(raw)
        if self._next is None:
            self.change.seen(raw, self.reclaim.nonce)
            self._pump(wake=False)
            if self.reclaim.stray(game, self.known.knows):
                self._carry_out(Replaced())

    # -- the machine's inputs and effects ----------------------------------------------

    def seat_gone(self, driver: PeerDriver, seats: list[int], silent: float) -> bool:
        """The driver has waited past the window for ``seats``.  True: leave it to the
        seat change (an offer is made or awaited); False: end the game as before."""
        if driver is not self.driver and not self.watching:
            return False
        if driver.alone() and silent < driver.cut_off_limit:
            # Cut off from everyone: it is our link that is down, not theirs.  Wait for
            # it (the others may give our seat to a bot meanwhile), never blame a seat;
            # past the limit the driver stops on its own (``SegmentDriver._stop_alone``).
            self._cut_off = True
            return True
        now = trio.current_time()
        if self._cut_off:
            self._cut_off = False
            if len(self.mesh.keys) < 3:
                # A table of two: no seat changes hands there (``SeatChange.lost``).  The
                # link is back: the other seat gets a fresh window to send what it has.
                self._back_at = now
                return True
            # Back after an outage past the window: ask whether our seat changed hands
            # (as a resumed seat does); our table goes on if it did not.  (Asked with
            # one link back too: the others may have gone on, finished and left.)
            self._carry_out(Replaced())
            return True
        if isinstance(driver, SegmentDriver) and driver.split():
            # Half the table out of reach: no seat can change hands, and that half may
            # be waiting for us alike, or have stopped and left.  Wait as one cut off,
            # never blaming a seat; past the limit the driver stops on its own.
            return True
        if self._back_at is not None and now - self._back_at < driver.give_up_after:
            return True
        if self.watching:
            self._top_up(now)
        taken = self.change.lost(seats, silent, now)
        self._pump()
        return taken

    def _top_up(self, now: float) -> None:
        """Watching, and a seat the game waits for is out of reach: fetch the game from
        a seat we reach, in turn, now and then (it holds what we miss, maybe the end;
        ``SegmentDriver`` stops us if nothing comes by ``cut_off_limit``)."""
        reached = sorted(self.mesh.connected())
        if not reached or now - self._topped_at < TOP_UP_SILENT:
            return
        self._topped_at = now
        self._top_ups += 1
        self.reclaim.top_up(reached[self._top_ups % len(reached)])

    def _on_control(self, seat: int, payload: bytes) -> bool:
        try:
            msg = decode_seat_change(payload)
        except ProtocolError as exc:
            if "unknown message type" in exc.reason:
                return False
            log.warning("ignored a seat-change message from seat %d: %s", seat, exc)
            return True
        if isinstance(msg, ChainRequest | ChainRecord | ChainEnd):
            self.reclaim.heard(seat, msg)
            return True
        if isinstance(msg, Offer | Reclaim) and not self._serving:
            # it may come before ``play`` starts, or after it ended (the mesh lingers):
            # nothing here would answer it, and it must never crash the peer
            kind = "seat_offer" if isinstance(msg, Offer) else "seat_reclaim"
            self.change.refused[kind] += 1
            log.warning("refused a %s from seat %d: the game is not in play here", kind, seat)
            return True
        now = trio.current_time()
        if isinstance(msg, Reclaim):
            self.change.hand_back(seat, msg.segment, msg.nonce, now)
        else:
            assert isinstance(msg, Offer | Agree | Decline | ClosedOffer)
            self.change.heard(seat, msg, now)
        self._pump()
        return True

    def _pump(self, wake: bool = True) -> None:
        """Carry out the machine's effects: the quick ones now, the rest by ``_serve``, in order;
        ``wake``: the input may have moved the machine's deadline (``_serve`` looks)."""
        effects = self.change.take()
        for effect in effects:
            self._carry_out(effect)
        if self._serving and (
            effects or (wake and not self._jobs_in.statistics().current_buffer_used)
        ):
            self._jobs_in.send_nowait(None)  # a wake-up: one queued is enough
        self._withdraw()

    def _withdraw(self) -> None:
        """Take off our player's screen every question the machine no longer waits on
        (timed out as no, or the change it was about is over)."""
        asking = self.change.asking()
        for ask in [a for a in self._questions if a != asking]:
            self._questions.pop(ask).withdraw()

    def _carry_out(self, effect: Effect) -> None:
        driver = self.driver
        if isinstance(effect, Switch):
            self._next = (effect.table, list(effect.bots))
            if self._segment_scope is not None:
                self._segment_scope.cancel()
        elif isinstance(effect, Freeze):
            if driver is not None:
                driver.freeze(CHANGE)
        elif isinstance(effect, Thaw):
            if driver is not None:
                driver.thaw(CHANGE)
        elif isinstance(effect, BotGoesOn):
            bot_driver = self._bot_drivers.get(effect.seat)
            if bot_driver is not None:
                bot_driver.nudge()  # its table may send now, though nothing arrives
        elif isinstance(effect, SendTo):
            self.mesh.send_to(effect.seat, effect.payload)
        elif isinstance(effect, Remember):
            self.known.remember(effect.segment)
        elif isinstance(effect, Agreed):
            self.agreements.keep_agreement(effect)  # on the disk before the Broadcast after it
        elif isinstance(effect, Replaced):
            if not self._serving:  # the game is not in play here: nothing to fetch
                home = self.state.home_seat
                log.warning("seat %d went to another key after our game ended", home)
            elif driver is not None and self.reclaim.begin_fetch():
                driver.freeze(FETCH)  # nothing more of ours in a segment the others have left
                self._jobs_in.send_nowait(effect)
        elif self._serving:
            self._jobs_in.send_nowait(effect)

    async def _serve(self, nursery: trio.Nursery) -> None:
        """The runner's own task: the machine's jobs in order, and its clock."""
        while True:
            deadline = self.change.deadline()
            job: Job | None = None
            with trio.move_on_at(math.inf if deadline is None else deadline):
                job = await self._jobs.receive()
            if job is not None:
                await self._do(job, nursery)
            self.change.tick(trio.current_time())
            for effect in self.change.take():
                self._carry_out(effect)
            self._withdraw()

    async def _do(self, job: Job, nursery: trio.Nursery) -> None:
        if isinstance(job, Broadcast):
            await self.mesh.broadcast(job.payload)
        elif isinstance(job, AskPlayer):
            nursery.start_soon(self._ask, job)
        elif isinstance(job, Replaced):
            nursery.start_soon(self.reclaim.fetch_and_watch)
        elif isinstance(job, CatchUp):
            self.reclaim.top_up(job.seat)
        elif isinstance(job, Kept):
            if self.driver is not None:
                home = self.state.home_seat
                await self.front_end.on_event(self.driver, SeatKept(home, job.why))
        elif job.back:
            log.warning("seat %d not handed back: %s", job.seat, job.why)
        elif self.driver is not None:
            await self.front_end.on_event(self.driver, OfferClosed(job.seat, job.why))

    async def _ask(self, ask: AskPlayer) -> None:
        """Ask our player (a bot in our seat says yes) and hand the machine the answer."""
        driver = self.driver
        assert driver is not None
        if self.change.asking() != ask.ask:
            return  # the machine moved on before the question was put: it applies no more
        offer = SeatOffer(ask.seat, ask.name, ask.silent, ask.bot, Decision(), ask.back, ask.later)
        if isinstance(self.front_end, BotFrontEnd):
            # a bot in our seat says yes to a bot in another (and, unless its front end
            # says otherwise, to a seat handed back)
            offer.decision.answer(self.front_end.hands_back or not ask.back)
        self._questions[ask.ask] = offer.decision
        await self.front_end.on_event(driver, offer)
        yes = await offer.decision.wait(ask.timeout)
        self.change.answered(ask.ask, yes, trio.current_time())
        self._pump()
        if offer.decision.value is None:  # not answered: it goes off the screen
            self._questions.pop(ask.ask, None)
            # (told with the segment in play now: the question may have outlived its own)
            await self.front_end.on_event(self.driver or driver, OfferWithdrawn(offer))
