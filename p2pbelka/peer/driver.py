"""The trio driver of one peer: a table, a transport and a front end, wired together.

The table is sans-IO; this is the edge where bytes arrive, time passes and a
player (a bot or a screen) acts.  Everything that touches the table happens in
one task, so the table needs no locks: envelopes from the transport and moves
from the front end (plain data, ``table.moves``) are queued into one inbox and
applied in turn.  The driver is the only writer of the transcript: it appends
what the table accepted (``take_accepted``) before anything else is done.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol, cast, runtime_checkable

import trio

from p2pbelka.bots.common.seat import Bot
from p2pbelka.peer import disk
from p2pbelka.peer.sync import answer
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.moves import Move
from p2pbelka.table.session import Table

MAX_RESEND_INTERVAL = 8.0
"""Seconds between resend requests at most, while asking brings nothing back."""
INLINE_SYNC_LIMIT = 0.01
"""Seconds a sync of the signed journal may block the driver's task before later
syncs go to a worker thread."""
CUT_OFF_GRACE = 300.0
"""Seconds past the reconnect window a peer that reaches no other seat waits for its
links to come back (never past the decide limit): then it stops, signing nothing,
its game saved unfinished for ``resume`` (the others have long given its seat to a
bot, and may have finished and left: nobody would answer it again)."""
MAX_QUIET_TICKS = 600
"""Checks a driver sleeps through at most while none may act (then it looks anyway)."""
QUICK_SYNCS = 8
"""Syncs in a row under ``INLINE_SYNC_LIMIT`` (in a worker thread) after which they
are waited for in the driver's task again: one slow sync (the game's first, which
creates the file, or a moment the disk was busy) must not cost a thread's round
trip on every envelope for the rest of the game."""


@dataclass(frozen=True, slots=True)
class Release:
    """The driver's own instruction: let a resumed table speak again."""


@dataclass(frozen=True, slots=True)
class Nudge:
    """The driver's own instruction: look at the table again.  Its table was told
    something outside the driver's task that may let it send (``Table.stop_at_deal``:
    a bot told to play on), and no envelope may ever come to make the driver look."""


Inbox = bytes | Move | Release | Nudge


class TranscriptSink(Protocol):
    def append(self, envelope: Envelope) -> None: ...


class SignedJournal(Protocol):
    """Where a peer keeps what it signed before sending it: ``keep`` writes (at once),
    ``sync`` waits until the disk holds those envelopes and everything they were
    computed from (the transcript the driver wrote so far, the secrets), when
    ``syncs``; the driver may run it in a worker thread."""

    syncs: bool

    def keep(self, envelopes: list[Envelope]) -> None: ...

    def sync(self) -> None: ...


class Transport(Protocol):
    """How envelopes reach the other seats (memory channels, or the LAN mesh)."""

    async def broadcast(self, raw: bytes) -> None: ...

    async def receive(self) -> bytes | Release:
        """The next envelope from any peer (or ``Release``, from a transport that
        fetched what a resumed table needed); trio.EndOfChannel when none can come."""
        ...


class FrontEnd(Protocol):
    """Who decides for the local seat and watches the game: a bot, a screen, a text log.

    ``run`` runs beside the driver for the whole game (a screen forwards key
    presses from it); ``on_event`` hears every event in the driver's task;
    ``transcript``, if set, receives every accepted envelope too.
    """

    transcript: TranscriptSink | None

    async def run(self, driver: PeerDriver) -> None: ...

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None: ...


@dataclass(frozen=True, slots=True)
class Waiting(ev.Event):
    """Nothing arrived for a while: the table is waiting for these seats.  ``alone``:
    no other seat can be reached at all (likely this machine's network is down).
    ``thinking``: those of ``seats`` a person may be deciding for, over a live link
    (slow, not gone: the driver does not give up on them); said again, with the rest
    unchanged, when one of them stops being so (its link died)."""

    seats: tuple[int, ...]
    seconds: float
    alone: bool = False
    limit: float = 0.0
    """``alone``: the silence at which this peer stops waiting (``cut_off_limit``)."""
    thinking: tuple[int, ...] = ()
    """Of ``seats``, those a person may be deciding for over a live link (not missing)."""


@dataclass(frozen=True, slots=True)
class CutOff(ev.Event):
    """No other seat could be reached for ``seconds``, past ``cut_off_limit``: the game
    went on without this peer, which stops here, unfinished, signing nothing.
    ``two_seats``: a table of two, where the other seat waits and stops as this one
    does (no bot is seated there): the game did not go on.  ``split``: a table of four
    or more, half of it (or more) out of reach of this peer, which reached the rest:
    no seat could change hands, and the game did not go on here either."""

    seconds: float
    two_seats: bool = False
    split: bool = False


@dataclass(frozen=True, slots=True)
class Resumed(ev.Event):
    """The game moves again after a ``Waiting``."""


@runtime_checkable
class Recovering(Protocol):
    """A transport that can ask its peers again for envelopes the table lacks."""

    async def ask_resend(self, wants: list[int]) -> None: ...


@runtime_checkable
class Connected(Protocol):
    """A transport that knows which seats it has a live connection to."""

    def connected(self) -> set[int]: ...


@runtime_checkable
class Pushing(Protocol):
    """A transport that puts what arrives straight into the driver's inbox (``attach``)
    instead of being asked (``receive``): a task and a switch less per envelope."""

    def attach(self, inbox: trio.MemorySendChannel[Inbox]) -> None: ...


@runtime_checkable
class Flushing(Protocol):
    """A transport that can say when what was broadcast has left (or a moment passed)."""

    async def flushed(self) -> None: ...


class BotFrontEnd:
    """A bot in the seat: answers every choice at once (``bot`` builds the seat bot of
    the table's game when the table asks its first question)."""

    transcript: TranscriptSink | None = None
    hands_back = True
    """Its answer when asked to hand a seat back to its returning player (a bot says
    yes to every other question about a seat)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.events: list[ev.Event] = []

    async def run(self, driver: PeerDriver) -> None:
        return None

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)
        if isinstance(event, ev.ChoiceNeeded):
            await driver.submit(self.move(driver.table, event))

    def move(self, table: Table, question: ev.ChoiceNeeded) -> Move:
        """The bot's answer to ``table``'s question."""
        return answer(self.bot, table, question)


class PeerDriver:
    def __init__(
        self,
        table: Table,
        transport: Transport,
        front_end: FrontEnd,
        *,
        pause_after: float = 10.0,
        give_up_after: float = 60.0,
        resend_after: float = 1.0,
        decide_limit: float = 900.0,
        transcript: TranscriptSink | None = None,
        journal: SignedJournal | None = None,
    ) -> None:
        self.table = table
        self.transport = transport
        self.front_end = front_end
        self.pause_after = pause_after
        self.give_up_after = give_up_after
        self.resend_after = resend_after
        self._sinks = [s for s in (transcript, front_end.transcript) if s is not None]
        self._journal = journal
        self._sync_inline = True
        self._quick_syncs = 0  # in a row, while syncs run in a worker thread
        self.decide_limit = decide_limit
        self._refused: set[int] = set()  # seats that sent refused envelopes since progress
        refused = len(table.view.transcript) - table.view.progress
        self._refused_kept = refused  # refused records on disk
        self._inbox_send, self._inbox = trio.open_memory_channel[Inbox](math.inf)
        # Asked once: isinstance on a runtime-checkable protocol walks its members
        # (tens of microseconds), and ``_let_out`` runs for every envelope we send.
        self._flushing = isinstance(transport, Flushing)
        # and the same for the seats it reaches, asked at every silence check of a wait
        self._connected = transport if isinstance(transport, Connected) else None

    async def submit(self, move: Move) -> None:
        """Make the local player's ``move`` in the driver's task (from a screen or a bot)."""
        await self._inbox_send.send(move)

    def nudge(self) -> None:
        """Send (and show) what the table has to, now, though nothing arrived: its
        table was told to go on (``Nudge``)."""
        self._inbox_send.send_nowait(Nudge())

    async def release(self) -> None:
        """Let a resumed table speak for its seat again (see ``Table.resume``)."""
        await self._inbox_send.send(Release())

    async def run(self) -> None:
        """Play until the table is finished (over or aborted)."""
        async with trio.open_nursery() as nursery:
            if isinstance(self.transport, Pushing):
                self.transport.attach(self._inbox_send)
            else:
                nursery.start_soon(self._pump_transport)
            nursery.start_soon(self.front_end.run, self)
            await self._flush()
            await self._main_loop()
            nursery.cancel_scope.cancel()

    async def after_end(self) -> None:
        """The game has ended: go on taking what arrives, until cancelled, while the
        peer stays to answer the others (protocol/SPEC.md section 7.3).  The table
        takes it for one purpose: another envelope for a place it holds still proves
        its sender, and then the table records the proof and sends its evidence.
        (A transport that pushes keeps pushing into the inbox; one that is asked is
        asked here.)"""
        async with trio.open_nursery() as nursery:
            if not isinstance(self.transport, Pushing):
                nursery.start_soon(self._pump_transport)
            while True:
                await self._apply(await self._inbox.receive())
                await self._flush()

    def idle(self) -> bool:
        """Nothing is waiting to be taken: whatever arrived has been processed."""
        return not self._inbox.statistics().current_buffer_used

    async def _pump_transport(self) -> None:
        try:
            while True:
                await self._inbox_send.send(await self.transport.receive())
        except trio.EndOfChannel:
            return

    def _progress(self) -> tuple[int, tuple[int, ...]]:
        return self.table.view.progress, tuple(self.table.view.missing())

    async def _main_loop(self) -> None:
        # Silence is measured from the last *progress* of the table, not from the last
        # frame: a peer that sends junk or duplicates must not keep the table waiting.
        progress = self._progress()
        quiet_since = asked_at = trio.current_time()
        ask_every = self.resend_after  # doubles while asking brings nothing
        paused = said_alone = False
        thinking: tuple[int, ...] = ()  # as the last ``Waiting`` said
        tick = min(self.pause_after, self.resend_after, 1.0)
        next_check = quiet_since + tick
        recovering = isinstance(self.transport, Recovering)
        first_limit = min(self.pause_after, self.give_up_after)

        def acts(at: float) -> bool:
            """Whether the check at ``at`` may do something: ask again, give up, pause,
            or, paused, tell of a change; or stop checking (only our own player is waited
            for).  A check that cannot is not woken for (every peer woke every second
            while another seat's player thought); what arrives meanwhile is judged anew."""
            if paused or (at - quiet_since >= first_limit):
                return True
            if recovering and at - asked_at >= ask_every:
                return True
            me = self.table.state.me
            waited = any(s != me for s in progress[1])
            return not waited and not (self.table.state.held or self.table.view.short_of_own)

        while not self.table.finished:
            # The checks a wake-up would find nothing to do at are slept through; the
            # wait ends at the first that may act (``next_check`` stays on the same
            # ticks as if each was woken for).
            wake = next_check
            for _ in range(MAX_QUIET_TICKS):
                if wake == math.inf or acts(wake):
                    break
                wake += tick
            item: Inbox | None = None
            # Nothing to do yet: work the table will need later (the next deal's
            # secrets), a short piece at a time, looking at the inbox in between.
            while not self._inbox.statistics().current_buffer_used and self.table.prepare():
                await trio.lowlevel.checkpoint()
            # Only the wait is cancellable: a flush cut short would lose envelopes.
            # What is queued already is taken as ``receive`` would, without a cancel
            # scope (a few microseconds each, for every envelope of the game).
            await trio.lowlevel.checkpoint_if_cancelled()
            try:
                item = self._inbox.receive_nowait()
            except trio.WouldBlock:
                with trio.move_on_at(wake):
                    item = await self._inbox.receive()
            else:
                await trio.lowlevel.cancel_shielded_checkpoint()
            now = trio.current_time()
            while next_check < wake and next_check <= now:
                next_check += tick  # a check slept through: it would have found nothing
            if item is not None:
                await self._apply(item)
                await self._flush()
            now = trio.current_time()
            if next_check == math.inf:
                # It waited for nothing but what arrives (below): silence counts from
                # now, as the once-a-second check would have said, and the checks resume.
                quiet_since, next_check = now, now + tick
            current = self._progress()  # (the missing seats are worked out: once)
            if current != progress:
                progress, quiet_since, asked_at = current, now, now
                ask_every = self.resend_after
                self._refused.clear()
                if paused:
                    paused = said_alone = False
                    await self.front_end.on_event(self, Resumed())
            if now < next_check or self.table.finished:
                continue
            next_check = now + tick
            # Only other seats can be given up on; our own player may take its time.
            silent = now - quiet_since
            missing = tuple(s for s in self.table.view.missing() if s != self.table.state.me)
            # A resumed seat waiting for its own envelopes to come back asks for them too.
            own = self.table.state.held or self.table.view.short_of_own
            if not missing and not own:
                # Nothing is waited for but our own player, who may take its time: no
                # check is due until something arrives (a move is an item too).
                quiet_since, next_check = now, math.inf
                continue
            if recovering and now - asked_at >= ask_every:
                # Backing off: after an outage the answers to one request are enough.
                asked_at, ask_every = now, min(ask_every * 2, MAX_RESEND_INTERVAL)
                await cast(Recovering, self.transport).ask_resend(self.table.view.wants())
            gone = [s for s in missing if not self._may_be_deciding(s, silent)]
            deciding = tuple(s for s in missing if s not in gone)
            if paused and not said_alone and self.alone():
                said_alone = True  # the links died after the pause was shown: say why
                thinking = deciding
                alone = Waiting(missing, silent, True, self.cut_off_limit, deciding)
                await self.front_end.on_event(self, alone)
            elif paused and deciding != thinking:
                thinking = deciding  # a thinking seat's link died (or came back): say so
                limit = self.cut_off_limit if said_alone else 0.0
                again = Waiting(missing, silent, said_alone, limit, deciding)
                await self.front_end.on_event(self, again)
            if (gone or not missing) and silent >= self.gives_up_after(gone):
                await self.give_up(gone, silent)
            elif not paused and silent >= self.pause_after:
                paused, thinking = True, deciding
                said_alone = self.alone()
                limit = self.cut_off_limit if said_alone else 0.0
                waiting = Waiting(missing, silent, said_alone, limit, deciding)
                await self.front_end.on_event(self, waiting)
            await self._flush()

    async def give_up(self, seats: list[int], silent: float) -> None:
        """The table cannot go on: ``seats`` stayed silent past the timeout (or, with
        none named, this held seat never got its own chain back).  End the game,
        naming why.  (Asked again at every tick while the table waits: a subclass may
        offer to seat a bot in their place instead, ``seatchange/runner.py``, and end the game
        only if that fails.)"""
        self._give_up(seats, silent)

    def gives_up_after(self, gone: list[int]) -> float:
        """The silence after which the table gives up on ``gone`` (the reconnect window;
        sooner for a seat nobody can play, ``SegmentDriver``)."""
        return self.give_up_after

    def alone(self) -> bool:
        """This peer reaches none of the others, though it did: likely its own network
        is down, not theirs (a transport that can tell says so, ``SegmentDriver``)."""
        return False

    @property
    def cut_off_limit(self) -> float:
        """The silence after which a peer that reaches nobody (``alone``) stops."""
        return min(self.decide_limit, self.give_up_after + CUT_OFF_GRACE)

    def _may_be_deciding(self, seat: int, silent: float) -> bool:
        """A person choosing a card (or a re-deal, or the eggs) may take minutes: a seat
        that owes such a choice is not given up on while its connection is alive, it
        sent nothing that was refused, and ``decide_limit`` has not passed."""
        if not self.table.view.awaiting_player() or seat in self._refused:
            return False
        if silent >= self.decide_limit:
            return False
        if self._connected is not None:
            return seat in self._connected.connected()
        return True

    def _give_up(self, gone: list[int], silent: float) -> None:
        """End a game that cannot go on, naming why: every game ends."""
        me = self.table.state.me
        if not gone and me is not None:
            # Held, or short of its own chain: the others never sent back what this
            # seat signed before it stopped, and it will not risk signing twice.
            reachable = self._connected.connected() if self._connected is not None else set()
            others = [s for s in range(self.table.state.n_seats) if s != me and s not in reachable]
            self.table.abandon(
                [me, *others],
                f"could not get back from the others, in {silent:.0f} s, what this seat"
                " signed before it stopped (it signs nothing rather than risk signing twice)",
            )
        elif any(s in self._refused for s in gone):
            self.table.abandon(gone, f"sent only envelopes that were refused for {silent:.0f} s")
        else:
            self.table.abandon(gone, f"went silent for {silent:.0f} s")

    async def _apply(self, item: Inbox) -> None:
        if isinstance(item, bytes):
            self.table.receive(item)
        elif isinstance(item, Release):
            self.table.release()
        elif isinstance(item, Nudge):
            return  # what the table has to send goes in the flush that follows
        else:
            try:
                self.table.apply(item)
            except MoveRefused as exc:  # the player hears why, and may choose again
                await self.front_end.on_event(self, ev.MoveRejected(item, str(exc)))

    async def _flush(self) -> None:
        """Send what the table produced and show what happened, until it is quiet."""
        while True:
            for envelope in self.table.take_accepted():
                for sink in self._sinks:
                    sink.append(envelope)
            signed = self.table.take_signed()
            refused = len(self.table.view.transcript) - self.table.view.progress
            if refused > self._refused_kept and self._journal is not None:
                # A refused envelope closes its sender's place: kept only if it is on
                # the disk, or a power cut would let that seat hand us its other
                # version afterwards, taken without proof.  Rare (only a cheater's).
                self._refused_kept = refused
                if not signed and self._journal.syncs:
                    await self._sync(self._journal)
            if signed and self._journal is not None:
                # Durable before it leaves, with all it was computed from: one group
                # commit for all this step signed.  A power cut must never make us
                # sign another envelope for the same place in our chain, and an
                # input lost would let the seat that sent it hand us another version
                # to sign on: only with the inputs on the disk is that version a
                # second envelope for a place of *its* chain, its proof.
                self._journal.keep(signed)
                if self._journal.syncs:
                    await self._sync(self._journal)
            outgoing = self.table.take_outgoing()
            events = self.table.take_events()
            if not outgoing and not events:
                if not self.table.deferred:
                    return
                self.table.proceed()
                continue
            for raw in outgoing:
                await self.transport.broadcast(raw)
            if outgoing and self.table.deferred:
                await self._let_out()
            for event in events:
                if isinstance(event, ev.Rejected) and event.seat is not None:
                    self._refused.add(event.seat)
                await self.front_end.on_event(self, event)

    async def _sync(self, journal: SignedJournal) -> None:
        """Wait for the disk.  In this task while syncs are quick (a worker thread's
        round trip cost more than the sync itself: a fifth of the LAN deal time);
        in a worker thread from the first slow one on, so a slow disk never freezes
        the screen or the links, until ``QUICK_SYNCS`` in a row were quick again."""
        if self._sync_inline:
            took = _timed(journal.sync)
            self._sync_inline = took < INLINE_SYNC_LIMIT
            return
        took = await disk.current().blocking(partial(_timed, journal.sync))
        self._quick_syncs = self._quick_syncs + 1 if took < INLINE_SYNC_LIMIT else 0
        if self._quick_syncs >= QUICK_SYNCS:
            self._sync_inline, self._quick_syncs = True, 0

    async def _let_out(self) -> None:
        """Let the transport put the envelopes on the wire before the table works on."""
        if self._flushing:
            await cast(Flushing, self.transport).flushed()
        else:
            await trio.lowlevel.checkpoint()


def _timed(work: Callable[[], None]) -> float:
    """Seconds ``work`` took (where it ran: a worker thread's round trip not counted)."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started
