"""A lost seat played by a bot: the peer's side of a seat changing hands.

When the table has waited for one seat past the reconnect window (the driver's
give-up time), the driver does not end the game at once: it asks ``Handover``.
The lowest remaining seat (the *proposer*, who will run the bot) asks its
player, then stops its table where it stands (the cut), draws a fresh bot
identity and a segment id, and offers the continuation to every other remaining
seat (``protocol/handover.py``).  Each asks its player, stops its table, checks
that its own cut is the same and signs.  With every signature the proposer
seals the continuation ``table`` and hosts the next segment; it runs the bot's
table beside its own, and every peer goes on in the new segment, appending it
to the same transcript file.  A player who says no, a cut that differs, or an
offer that is not answered in time ends the game as before (disputed).

The deal in progress at the cut is voided (``table/carry.py``).  Everything
here is waiting and wiring; what a continuation is and how it is checked is in
``table/``.
"""

from __future__ import annotations

import logging
import math
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVarTuple

import trio

from p2pbelka.bots import levels, make_bot
from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import (
    BotFrontEnd,
    FrontEnd,
    PeerDriver,
    Release,
    SignedJournal,
)
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.reclaim import Reclaimer
from p2pbelka.peer.seatdrivers import (
    BotSeatDriver,
    Collect,
    Decision,
    OfferClosed,
    SeatOffer,
    SegmentDriver,
    SharedMesh,
)
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.handover import (
    Agree,
    ChainEnd,
    ChainRecord,
    ChainRequest,
    Decline,
    HandoverMsg,
    Offer,
    Reclaim,
    agreement_holds,
    decode_handover,
    encode_handover,
    envelope_game,
    sign_agreement,
    with_agreements,
)
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.carry import Previous, check_change
from p2pbelka.table.segments import SeedSources, change_of, previous_of, propose
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)
Args = TypeVarTuple("Args")

DEFAULT_BOT = "heuristic" if "heuristic" in levels() else "random"
"""The level of a bot this peer runs for a lost seat, unless its own seat is a bot."""
MAX_PENDING = 4096
"""Envelopes of a segment this peer has not entered yet, kept until it does."""
RESEND_EVERY = 2.0
"""An offer or an agreement not yet answered is sent again this often."""


class KnownIds(Protocol):
    """The game and segment ids a peer has seen (``GameStore``: its machine's list)."""

    def knows(self, segment: bytes) -> bool: ...

    def remember(self, segment: bytes) -> None: ...


class MemoryIds:
    """``KnownIds`` kept in memory only (a peer without files: tests)."""

    def __init__(self) -> None:
        self.ids: set[bytes] = set()

    def knows(self, segment: bytes) -> bool:
        return segment in self.ids

    def remember(self, segment: bytes) -> None:
        self.ids.add(segment)


@dataclass
class _Agreement:
    """What this peer signed for an offer: from then on its old segment stays cut."""

    segment: bytes
    previous: Previous
    sig: bytes
    seat: int


class Handover:
    """Runs the local seat's table, segment after segment, and the bots this peer plays
    for lost seats.  ``start`` the first segment, then ``play`` until the game ends."""

    def __init__(
        self,
        identity: Identity,
        mesh: Mesh,
        front_end: FrontEnd,
        *,
        writer: TranscriptWriter,
        journal: SignedJournal | None,
        seed_sources: SeedSources,
        known: KnownIds | None = None,
        new_nonce: Callable[[], bytes] = lambda: os.urandom(m.NONCE_SIZE),
        entered: Callable[[bytes], None] | None = None,
        pause_after: float,
        give_up_after: float,
        resend_after: float,
        offer_timeout: float,
        seat_bots: bool = True,
        bot_level: str | None = None,
        home_seat: int = 0,
        names: list[str] | None = None,
        decide_limit: float = 900.0,
    ) -> None:
        self.identity = identity
        self.decide_limit = decide_limit
        self.signer = Signer(identity.private_key)
        self.mesh = mesh
        self.front_end = front_end
        self.writer = writer
        self.journal = journal
        self.seed_sources = seed_sources
        """Each new segment's secrets, from a source of its own (``SeedSources``)."""
        self.known = known if known is not None else MemoryIds()
        """Every game and segment id this peer has seen: it sits in none of them again."""
        self.new_nonce = new_nonce
        self.entered = entered
        """Told the id of every segment this peer enters (the chat binds its lines to it)."""
        self.timing = (pause_after, give_up_after, resend_after)
        self.offer_timeout = offer_timeout
        self.seat_bots = seat_bots
        self.bot_level = bot_level or DEFAULT_BOT
        self.home_seat = home_seat
        """The seat this player sat down in (it may take it back after a bot played it)."""
        self.names = list(names or [])
        """The players' names as they sat down, by seat."""
        self.watching = False
        """This player's seat is played by a bot: its table is an observer's, until the
        seat is handed back."""
        self.reclaim = Reclaimer(self)
        self.first_segment = mesh.game_id
        """The game's first segment id (the mesh's channels keep it as their context)."""
        self._tables_seen: list[bytes] = []
        self.shared = SharedMesh(mesh)
        """The current segment's tables on this peer, on the one mesh."""
        self.lost_seats: set[int] = set()
        """Seats whose player is gone for good (their peers never say done)."""
        self.transcript: list[Envelope] = []
        """Every segment's envelopes, in the order the transcript file has them."""
        self._bots: dict[int, Signer] = {}
        self._pending: dict[bytes, list[bytes]] = {}
        self._answers: dict[bytes, trio.MemorySendChannel[tuple[int, HandoverMsg]]] = {}
        self.busy: int | None = None
        """The seat an offer is about (one at a time)."""
        self.refused: Counter[str] = Counter()
        """Seat-change messages this peer could not act on, by type: one that needs
        the game's tasks while the game is not in play here (before ``play``, or after
        it ended), an answer to no offer of ours that is open."""
        self._failed: set[int] = set()
        self._agreement: _Agreement | None = None
        self._next: tuple[Table, list[tuple[Table, int]]] | None = None
        self._segment_scope: trio.CancelScope | None = None
        self._nursery: trio.Nursery | None = None  # while ``play`` runs: the game's tasks
        self.table: Table | None = None
        self.driver: SegmentDriver | None = None
        self._drivers: list[PeerDriver] = []
        mesh.on_control = self._on_control

    # -- the segments ----------------------------------------------------------------

    def start(self, table: Table) -> SegmentDriver:
        """Enter the first segment (a new game, or a resumed one): its driver."""
        self._enter(table, [])
        assert self.driver is not None
        return self.driver

    @property
    def segment(self) -> bytes:
        assert self.table is not None
        return self.table.game_id

    def _enter(self, table: Table, bots: list[tuple[Table, int]]) -> None:
        """Make ``table`` (and the bots' tables) the current segment; no checkpoint, so
        no envelope can slip between the old segment and the new."""
        self.table = table
        self.shared = SharedMesh(self.mesh)
        self._drivers = []
        pause, give_up, resend = self.timing
        mine = self.shared.endpoint()
        self.driver = SegmentDriver(
            table,
            mine,
            self.front_end,
            pause_after=pause,
            give_up_after=give_up,
            resend_after=resend,
            decide_limit=self.decide_limit,
            transcript=Collect(self.writer, self.transcript),
            journal=self.journal,
            seat_gone=self.seat_gone,
        )
        self._drivers.append(self.driver)
        for bot_table, seat in bots:
            endpoint = self.shared.endpoint()
            self.shared.bot_seats.add(seat)
            front = BotFrontEnd(make_bot(self.bot_level))
            self._drivers.append(
                BotSeatDriver(bot_table, endpoint, front, pause_after=pause, give_up_after=give_up)
            )
        self.mesh.follow(table.envelopes_from, table.wants)
        if self.entered is not None:
            self.entered(table.game_id)
        for raw in self._pending.pop(table.game_id, []):
            self.shared.deliver(raw)
        self._pending.clear()
        self.busy = None
        self._failed = set()
        self._agreement = None
        self.watching = table.me is None

    async def play(self) -> Table:
        """Play segment after segment until the local table's game ends; the last table."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
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
                self._nursery = None  # what comes from now on is refused (``_start``)
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

    def settled(self) -> bool:
        """The seat's table has taken everything that came (see ``Mesh.linger``)."""
        return self.driver is None or self.driver.idle()

    async def _run(self, driver: PeerDriver, scope: trio.CancelScope) -> None:
        await driver.run()
        if driver is self.driver:
            scope.cancel()  # the game is over: the bots' tables are too

    def watch(self, table: Table) -> None:
        """Follow the game as an observer (our seat is a bot's until handed back)."""
        self.watching = True
        self._switch(table, [])

    def retry_pending(self) -> None:
        """Try again the continuations heard so far (our table may have caught up)."""
        for raw in list(self._tables_seen):
            self._maybe_continuation(raw)

    def _switch(self, table: Table, bots: list[tuple[Table, int]]) -> None:
        self._next = (table, bots)
        if self._segment_scope is not None:
            self._segment_scope.cancel()

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

    def _route(self, raw: bytes | Release) -> None:
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
            self.shared.deliver(raw)
            return
        kept = self._pending.setdefault(game, [])
        if sum(len(v) for v in self._pending.values()) < MAX_PENDING:
            kept.append(raw)
        self._maybe_continuation(raw)

    def _maybe_continuation(self, raw: bytes) -> None:
        """The continuation we agreed to, sealed by the proposer (or, watching, the one
        that hands our seat back): go on in it."""
        agreed = self._agreement
        if self._next is not None or self.table is None:
            return
        try:
            envelope = open_envelope(raw)
        except ProtocolError:
            return
        msg = envelope.msg
        if not isinstance(msg, m.TableMsg) or msg.after is None:
            return
        if agreed is None and not self.watching:
            # Our own seat given to another while we were away (we came back during
            # the offer): stop, fetch the game and ask for the seat back.
            ours = msg.after.seat == self.home_seat and msg.after.segment == self.segment
            if ours and msg.seats[self.home_seat].key != self.signer.public_key:
                if self._nursery is None:  # the game is not in play here: nothing to fetch
                    log.warning("seat %d went to another key after our game ended", self.home_seat)
                else:
                    self.reclaim.replaced(self._nursery)
            return
        if raw not in self._tables_seen:
            self._tables_seen = [*self._tables_seen[-7:], raw]
        nonce: bytes | None = None
        if agreed is not None:
            if envelope.game != agreed.segment:
                return
            previous = agreed.previous
        else:
            back = msg.after.seat == self.home_seat and msg.after.segment == self.segment
            if not back or msg.seats[self.home_seat].key != self.signer.public_key:
                return
            assert self.table is not None
            previous = previous_of(self.table)
            # the seat comes back to us only under an id derived from our fresh nonce
            nonce = self.reclaim.nonce if msg.flow >= m.NONCES_FLOW else None
            if nonce is None and msg.flow >= m.NONCES_FLOW:
                return
        if self.known.knows(envelope.game):
            log.warning("refused a continuation under id %s, seen before", envelope.game.hex())
            return
        table = Table(
            envelope.game,
            signer=self.signer,
            seed_source=self.seed_sources(envelope.game),
            previous=previous,
            nonce=nonce,
        )
        table.receive_envelope(envelope)
        if table.setup is None:
            why = "; ".join(e.reason for e in table.take_events() if isinstance(e, ev.Rejected))
            log.warning("refused a continuation: %s", why)
            return
        self.known.remember(envelope.game)  # before we sign anything in it
        self._switch(table, [])

    # -- a seat is gone ---------------------------------------------------------------

    def seat_gone(self, driver: PeerDriver, seats: list[int], silent: float) -> bool:
        """The driver has waited past the window for ``seats``.  True: leave it to us
        (an offer is made or awaited); False: end the game as before."""
        table = self.table
        if self.watching:
            return True  # a bot plays our seat: the seated peers decide
        if driver is not self.driver or table is None or not self.seat_bots:
            return False
        if len(seats) != 1 or not table.started or table.finished or table.me is None:
            return False
        if table.closing:
            return False  # the game is won: there is no next deal to seat a bot for
        seat = seats[0]
        if seat in self._failed:
            return False
        if self.busy is not None:
            return True
        self.busy = seat
        remaining = [s for s in range(table.n_seats) if s != seat]
        assert self._nursery is not None
        if table.me == remaining[0]:
            self._nursery.start_soon(self._propose, seat, silent)
        else:
            self._nursery.start_soon(self._await_offer, seat)
        return True

    def _fail(self, seat: int, why: str) -> None:
        log.warning("no bot for seat %d: %s", seat, why)
        self._failed.add(seat)
        self.busy = None
        if self.driver is not None and self.driver.frozen and self._agreement is None:
            self.driver.thaw()

    async def ask_player(self, seat: int, silent: float, back: str | None = None) -> bool:
        """Ask our player about a bot for ``seat`` (or, with ``back``, about handing it
        back to its player of that name); a bot in our seat says yes."""
        table, driver = self.table, self.driver
        assert table is not None and table.setup is not None and driver is not None
        name = table.setup.seats[seat].name
        bot = back if back is not None else _bot_name(name)
        offer = SeatOffer(seat, name, silent, bot, Decision(), back is not None)
        if isinstance(self.front_end, BotFrontEnd):
            offer.decision.answer(True)  # a bot in our seat says yes to a bot in another
        await self.front_end.on_event(driver, offer)
        return await offer.decision.wait(self.offer_timeout)

    async def _propose(self, seat: int, silent: float) -> None:
        """The proposer's side of a bot for a lost seat: ask our player, then offer."""
        table = self.table
        assert table is not None and table.setup is not None
        if not await self.ask_player(seat, silent):
            await self._closed(seat, "this seat's player did not want a bot")
            return
        if self.table is not table or seat not in table.missing():
            self.busy = None  # the seat came back meanwhile
            return
        bot = Signer.generate()
        name = _bot_name(table.setup.seats[seat].name)
        why = await self.offer_change(seat, bot.public_key, name, bot)
        if why:
            await self._closed(seat, why)

    async def offer_change(
        self, seat: int, key: bytes, name: str, bot: Signer | None, nonce: bytes | None = None
    ) -> str:
        """Cut our table, offer ``key`` (``name``) for ``seat`` to every other remaining
        seat, gather their signatures, seal the continuation and go on in it; ``bot``:
        the new holder is a bot this peer runs (None: a player takes its seat back,
        with the ``nonce`` of its ``seat_reclaim``).  "" once the next segment is on
        its way, else why not (our table is cut still: the caller decides what
        follows)."""
        table, driver = self.table, self.driver
        assert table is not None and table.setup is not None and driver is not None
        driver.freeze()
        previous = previous_of(table)
        # The segment id is derived from the continuation (the cut, the new key and the
        # new holder's fresh nonce: a bot's is drawn here), never chosen.
        segment, proposal = propose(
            previous, seat, key, name, nonce or self.new_nonce(), self.signer
        )
        if segment in previous.used or self.known.knows(segment):
            return f"the continuation's id {segment.hex()[:16]} was used before"
        assert proposal.after is not None
        signed = dict(proposal.after.agreed)
        for local, signer in self._bots.items():
            if local != seat:  # the bots we run agree through us
                signed[local] = sign_agreement(signer, segment, proposal)
        due = {s for s in range(table.n_seats) if s != seat} - set(signed)
        send, answers = trio.open_memory_channel[tuple[int, HandoverMsg]](math.inf)
        self._answers[segment] = send
        offer = encode_handover(Offer(segment, proposal))
        why = ""
        try:
            with trio.move_on_after(self.offer_timeout) as waited:
                while due - set(signed) and not why:
                    await self.mesh.broadcast(offer)
                    with trio.move_on_after(RESEND_EVERY):
                        async for sender, msg in answers:
                            if isinstance(msg, Agree) and sender in due:
                                holder = previous.setup.seats[sender].key
                                if agreement_holds(holder, msg.sig, segment, proposal):
                                    signed[sender] = msg.sig
                            elif isinstance(msg, Decline) and sender in due and not msg.retry:
                                why = f"seat {sender} said no: {msg.why}"
                            if not due - set(signed) or why:
                                break
            if waited.cancelled_caught:
                why = f"seats {sorted(due - set(signed))} did not answer in time"
        finally:
            del self._answers[segment]
        if why:
            return why
        final = with_agreements(proposal, signed)
        if self.known.knows(segment):
            return f"the continuation's id {segment.hex()[:16]} was used before"
        self.known.remember(segment)  # before the table envelope is signed in it
        host = Table.host(
            self.signer, final, seed_source=self.seed_sources(segment), previous=previous
        )
        if host.setup is None:  # our own checks refuse it: a bug, not the others' fault
            return "the continuation did not pass its own checks"
        self._bots.pop(seat, None)
        if bot is not None:
            self._bots[seat] = bot
        bots = [
            (Table(segment, signer=signer, seed_source=new_seed, previous=previous), other)
            for other, signer in self._bots.items()
        ]
        self._switch(host, bots)
        return ""

    def bot_table(self, seat: int) -> Table | None:
        """The table of the bot this peer runs for ``seat`` in this segment, if any."""
        if seat not in self._bots:
            return None
        return next((d.table for d in self._drivers if d.table.me == seat), None)

    async def _closed(self, seat: int, why: str) -> None:
        self._fail(seat, why)
        if self.driver is not None:
            await self.front_end.on_event(self.driver, OfferClosed(seat, why))

    async def _await_offer(self, seat: int) -> None:
        """Not the proposer: wait for its offer; none in time ends the game."""
        await trio.sleep(self.offer_timeout)
        if self.busy == seat and self._agreement is None and not self._considering:
            await self._closed(seat, "no offer came from the proposing seat")

    _considering = False

    async def _consider(self, sender: int, offer: Offer) -> None:
        """An offer from the proposer: check it, ask the player, cut, sign."""
        table, driver = self.table, self.driver
        after = offer.table.after
        if table is None or driver is None or after is None or table.setup is None:
            return
        agreed = self._agreement
        if agreed is not None:
            if agreed.segment == offer.segment:  # our agreement was lost: the same again
                await self.mesh.broadcast(encode_handover(Agree(offer.segment, agreed.sig)))
            return
        if self._considering or table.me is None or table.me == after.seat:
            return
        remaining = [s for s in range(table.n_seats) if s != after.seat]
        if sender != remaining[0]:
            return
        self._considering = True
        try:
            await self._consider_now(sender, offer, table, driver)
        finally:
            self._considering = False

    async def _consider_now(
        self, sender: int, offer: Offer, table: Table, driver: SegmentDriver
    ) -> None:
        after = offer.table.after
        assert after is not None and table.setup is not None
        seat = after.seat

        async def decline(why: str, retry: bool) -> None:
            await self.mesh.broadcast(encode_handover(Decline(offer.segment, why, retry)))

        problem = self._offer_problem(sender, offer, table)
        if problem:
            returned = seat not in table.missing()
            await decline(f"seat {seat} is back" if returned else problem, not returned)
            return
        silent = self.timing[1]
        holder = offer.table.seats[seat]
        back = holder.name if holder.key == self.mesh.keys[seat] else None
        if not await self.ask_player(seat, silent, back):
            if back is not None:  # the bot plays on
                await decline("the player does not want to hand the seat back", False)
                return
            await decline("the player does not want a bot", False)
            await self._closed(seat, "this seat's player did not want a bot")
            return
        driver.freeze()
        problem = self._offer_problem(sender, offer, table)
        if problem or self.table is not table:
            driver.thaw()
            await decline(problem or "the table moved on", True)
            return
        sig = sign_agreement(self.signer, offer.segment, offer.table)
        self._agreement = _Agreement(offer.segment, previous_of(table), sig, seat)
        self.busy = seat
        message = encode_handover(Agree(offer.segment, sig))
        with trio.move_on_after(self.offer_timeout):
            while self.table is table and self._next is None:
                await self.mesh.broadcast(message)
                await trio.sleep(RESEND_EVERY)
        if self.table is table and self._next is None:
            # We signed: the old segment stays cut.  Nothing came, so the game ends.
            self._agreement = None
            self._failed.add(seat)
            self.busy = None
            driver.thaw()
            await self.front_end.on_event(driver, OfferClosed(seat, "the proposer never sealed it"))

    def _offer_problem(self, sender: int, offer: Offer, table: Table) -> str:
        after = offer.table.after
        assert after is not None and table.setup is not None
        previous = previous_of(table)
        problem = check_change(previous, sender, offer.segment, offer.table)
        if problem:
            return problem
        if self.known.knows(offer.segment):
            return f"segment {offer.segment.hex()[:16]}: this peer has seen that id before"
        if after.seat not in table.missing():
            return f"seat {after.seat} is not missing here"
        key = previous.setup.seats[sender].key
        theirs = dict(after.agreed).get(sender)
        if theirs is None or not agreement_holds(key, theirs, offer.segment, offer.table):
            return "the offer does not carry the proposer's own signature"
        return ""

    # -- control messages from the mesh ------------------------------------------------------

    def _on_control(self, seat: int, payload: bytes) -> bool:
        try:
            msg = decode_handover(payload)
        except ProtocolError as exc:
            if "unknown message type" in exc.reason:
                return False
            log.warning("ignored a seat-change message from seat %d: %s", seat, exc)
            return True
        if isinstance(msg, Offer):
            self._start(seat, "seat_offer", self._consider, seat, msg)
        elif isinstance(msg, Reclaim):
            self._start(seat, "seat_reclaim", self.reclaim.hand_back, seat, msg.segment, msg.nonce)
        elif isinstance(msg, ChainRequest | ChainRecord | ChainEnd):
            self.reclaim.heard(seat, msg)
        else:
            channel = self._answers.get(msg.segment)
            if channel is not None:
                channel.send_nowait((seat, msg))
            else:  # a resent answer after the offer closed, or one to another's offer
                kind = "seat_agree" if isinstance(msg, Agree) else "seat_decline"
                self.refused[kind] += 1
                log.debug("ignored a %s from seat %d: no offer of ours is open", kind, seat)
        return True

    def _start(
        self, seat: int, kind: str, task: Callable[[*Args], Awaitable[object]], *args: *Args
    ) -> None:
        """Answer ``seat``'s ``kind`` message in a task of the game's, or refuse it (counted
        and logged) while the game is not in play here: it may come before ``play``
        starts, or after it ended (the mesh lingers), and must never crash the peer."""
        if self._nursery is None:
            self.refused[kind] += 1
            log.warning("refused a %s from seat %d: the game is not in play here", kind, seat)
            return
        self._nursery.start_soon(task, *args)


def _bot_name(name: str) -> str:
    return f"Bot for {name}"[: m.MAX_NAME]
