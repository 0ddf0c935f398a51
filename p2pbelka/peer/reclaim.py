"""A player takes its seat back from the bot that played it (``p2pbelka resume``).

The returning player resumes as after any crash, then asks the others whether its
seat changed hands (``ChainRequest``).  A peer whose current segment seats
another key there sends it the whole game, every segment, record by record; the
player checks it (an observer's replay, signatures and all), keeps its own
transcript where the two agree and sets the rest aside, and *watches* the game
as an observer while it asks for its seat (``Reclaim``).  The peer that runs the
bot lets the bot finish the deal in progress and stop before the next one; at
that cut nothing of the next deal is dealt to the seat, and the remaining seats
agree to hand it back exactly as they agreed to the bot (``handover.py``).
The continuation names the player's own key, so it goes on as itself.

What this needs of the game's segments is ``Segments``, which ``handover.Handover``
provides; a task it starts, it starts in the nursery it is handed.
"""

from __future__ import annotations

import logging
from typing import Protocol

import trio

from p2pbelka.peer.driver import PeerDriver
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatdrivers import SegmentDriver
from p2pbelka.peer.store import move_aside
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.handover import (
    ChainEnd,
    ChainRecord,
    ChainRequest,
    Reclaim,
    encode_handover,
)
from p2pbelka.protocol.transcript import MAGIC, TranscriptWriter, iter_records
from p2pbelka.table.errors import OrderError
from p2pbelka.table.segments import observe_segments
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

CHAIN_TIMEOUT = 60.0
"""How long a returning player waits for the game once a peer started sending it."""
ASK_EVERY = 5.0
"""A watching player asks for its seat again this often (a request may be lost, or
come while the bot's peer is busy)."""


class Segments(Protocol):
    """What taking a seat back needs of the game's segments (``handover.Handover``
    provides it).  Every member here is one the reclaimer uses."""

    # -- the game, and this peer's seat in it ------------------------------------------

    @property
    def mesh(self) -> Mesh: ...

    @property
    def signer(self) -> Signer:
        """This player's own key."""
        ...

    @property
    def home_seat(self) -> int:
        """The seat this player sat down in."""
        ...

    @property
    def names(self) -> list[str]:
        """The players' names as they sat down, by seat."""
        ...

    @property
    def first_segment(self) -> bytes: ...

    @property
    def writer(self) -> TranscriptWriter: ...

    @property
    def transcript(self) -> list[Envelope]:
        """Every segment's envelopes, as the transcript file has them (kept in step)."""
        ...

    # -- the segment in play ----------------------------------------------------------

    @property
    def table(self) -> Table | None: ...

    @property
    def segment(self) -> bytes: ...

    @property
    def driver(self) -> SegmentDriver | None: ...

    @property
    def watching(self) -> bool:
        """A bot plays our seat: our table is an observer's."""
        ...

    busy: int | None
    """The seat an offer is about (one at a time); set while we hand a seat back."""

    def bot_table(self, seat: int) -> Table | None:
        """The table of the bot this peer runs for ``seat`` now; None if it runs none."""
        ...

    # -- the steps of a seat change ---------------------------------------------------

    async def ask_player(self, seat: int, silent: float, back: str | None = None) -> bool:
        """Our player's yes or no to a bot for ``seat`` (``back``: to its player back)."""
        ...

    async def offer_change(
        self, seat: int, key: bytes, name: str, bot: Signer | None, nonce: bytes | None = None
    ) -> str:
        """Offer ``seat`` to ``key`` (with the new holder's ``nonce``: a bot's is drawn)
        and go on in the continuation: "", else why not."""
        ...

    def new_nonce(self) -> bytes:
        """A fresh nonce (16 bytes) for a seat this player asks back."""
        ...

    def watch(self, table: Table) -> None:
        """Follow the game as an observer, ``table`` its current segment."""
        ...

    def retry_pending(self) -> None:
        """Try again the continuations heard so far."""
        ...


class Reclaimer:
    """Both sides of taking a seat back: ``heard`` gets the game's records, ``hand_back``
    answers a ``Reclaim``, ``catch_up`` and ``replaced`` are the returning player's."""

    def __init__(self, hub: Segments) -> None:
        self.hub = hub
        self.released = trio.Event()
        """Set when the mesh releases a resumed seat (``Mesh(hold=...)``)."""
        self._records: dict[int, list[bytes]] = {}
        self._chain: list[bytes] | None = None
        self._answered = trio.Event()  # a chain, or a peer saying we hold our seat
        self._started = trio.Event()  # a peer began to send the chain
        self._handing: set[int] = set()
        self._fetching = False
        self._refused: set[tuple[bytes, int]] = set()
        self.nonce: bytes | None = None
        """What this player sends in its ``Reclaim`` (drawn fresh for each segment it
        asks in): the seat comes back to it only in a continuation carrying it."""
        self._nonce_for: bytes | None = None

    def heard(self, seat: int, msg: ChainRequest | ChainRecord | ChainEnd) -> None:
        """The game's records: asked for by ``seat``, or sent by it."""
        if isinstance(msg, ChainRequest):
            self._send_chain(seat, msg.start)
        elif isinstance(msg, ChainRecord):
            records = self._records.setdefault(seat, [])
            if msg.index == len(records):
                records.append(msg.record)
                self._started.set()
        elif isinstance(msg, ChainEnd):
            records = self._records.get(seat, [])
            if msg.total == 0:
                self._answered.set()
            elif msg.total == len(records) and self._chain is None:
                self._chain = records
                self._answered.set()

    # -- the peers that kept playing --------------------------------------------------

    def _send_chain(self, seat: int, start: int) -> None:
        """The game so far for ``seat``'s player, if its seat is in other hands."""
        hub, table = self.hub, self.hub.table
        if table is None or table.setup is None or not 0 <= seat < table.n_seats:
            return
        if table.setup.seats[seat].key == hub.mesh.keys[seat]:
            hub.mesh.send_to(seat, encode_handover(ChainEnd(0)))
            return
        for index in range(start, len(hub.transcript)):
            record = ChainRecord(index, hub.transcript[index].raw)
            hub.mesh.send_to(seat, encode_handover(record))
        hub.mesh.send_to(seat, encode_handover(ChainEnd(len(hub.transcript))))

    async def hand_back(self, seat: int, segment: bytes, nonce: bytes) -> None:
        """``seat``'s player asks for its seat (``Reclaim``), which a bot of ours plays:
        let the bot finish this deal and stop, then offer the seat back to the
        player's key, with the player's fresh ``nonce`` at its seat (the continuation's
        id is derived from it)."""
        hub, table = self.hub, self.hub.table
        bot_table = hub.bot_table(seat)
        if table is None or bot_table is None:
            return  # no bot of ours plays that seat
        if segment != hub.segment:
            log.info("seat %d asks for its seat back in a segment not in play here", seat)
            return
        if seat in self._handing or hub.busy is not None or (segment, seat) in self._refused:
            log.info("seat %d asks for its seat back: busy (%s)", seat, hub.busy)
            return
        if table.finished:
            return
        self._handing.add(seat)
        hub.busy = seat
        try:
            name = hub.names[seat] if seat < len(hub.names) else f"seat {seat}"
            if not await hub.ask_player(seat, 0.0, back=name):
                self._refused.add((segment, seat))
                return
            stop = bot_table.deal_id + 1
            bot_table.stop_at_deal(stop)
            while hub.table is table and not table.finished:
                if table.deal_id >= stop and table.missing() == [seat]:
                    break
                await trio.sleep(0.1)
            if hub.table is not table or table.finished:
                return
            why = await hub.offer_change(seat, hub.mesh.keys[seat], name, None, nonce)
            if why:
                log.warning("seat %d not handed back: %s", seat, why)
                bot_table.stop_at_deal(None)
                if hub.driver is not None:
                    hub.driver.thaw()
        finally:
            self._handing.discard(seat)
            if hub.table is table:
                hub.busy = None

    # -- the returning player -------------------------------------------------------------

    async def catch_up(self, driver: PeerDriver, timeout: float) -> None:
        """A resumed peer: once the others answered its resend requests, ask whether its
        seat changed hands.  If not, let its table speak again; if so, watch the game
        and ask for the seat back."""
        hub = self.hub
        with trio.move_on_after(timeout):
            await self.released.wait()
        log.info("resumed: every seat answered: %s", self.released.is_set())
        start = 0
        await hub.mesh.broadcast(encode_handover(ChainRequest(start)))
        with trio.move_on_after(timeout):  # a first record, or "you hold your seat"
            while not (self._started.is_set() or self._answered.is_set()):
                await trio.sleep(0.05)
        with trio.move_on_after(CHAIN_TIMEOUT if self._started.is_set() else 0):
            await self._answered.wait()
        chain = self._chain
        if chain is None or not self._watch(chain):
            # Never before every other seat gave back what we signed (durability):
            # the release follows their envelopes in the seat's own stream.
            await self.released.wait()
            in_order = getattr(driver.transport, "release_in_order", None)
            if in_order is not None:  # the segment's endpoint: after what it holds
                in_order()
            else:
                await driver.release()
            return
        await self._ask_for_the_seat()

    def replaced(self, nursery: trio.Nursery) -> None:
        """A continuation gave our seat to another key while our table was still in the
        segment before (we came back during the offer): fetch the game and watch, in a
        task of ``nursery``."""
        hub = self.hub
        if self._fetching or hub.driver is None:
            return
        self._fetching = True
        hub.driver.freeze()  # nothing more of ours in a segment the others have left
        nursery.start_soon(self._fetch_and_watch)

    async def _fetch_and_watch(self) -> None:
        hub = self.hub
        self._chain, self._records = None, {}
        self._answered = trio.Event()
        await hub.mesh.broadcast(encode_handover(ChainRequest(0)))
        with trio.move_on_after(CHAIN_TIMEOUT):
            while self._chain is None:
                await self._answered.wait()
                self._answered = trio.Event()
        if self._chain is not None and self._watch(self._chain):
            await self._ask_for_the_seat()
        elif hub.driver is not None:
            self._fetching = False
            hub.driver.thaw()

    async def _ask_for_the_seat(self) -> None:
        """Watching: ask for our seat until it is ours again (or the game ends)."""
        hub = self.hub
        while hub.watching and hub.table is not None and hub.table.me is not None:
            await trio.sleep(0.05)  # the watching table takes over
        while hub.watching:
            if self._nonce_for != hub.segment:  # fresh for every segment we ask in
                self.nonce, self._nonce_for = hub.new_nonce(), hub.segment
            assert self.nonce is not None
            await hub.mesh.broadcast(encode_handover(Reclaim(hub.segment, self.nonce)))
            with trio.move_on_after(ASK_EVERY):
                while hub.watching:
                    hub.retry_pending()
                    await trio.sleep(0.5)

    def _watch(self, raws: list[bytes]) -> bool:
        """The game as a peer sent it: if it checks out and another key holds our seat,
        make it ours (transcript and all) and watch it.  False: go on as a seat."""
        hub = self.hub
        try:
            chain = [open_envelope(raw) for raw in raws]
            watcher = observe_segments(chain)
        except (ProtocolError, OrderError) as exc:
            log.warning("the game a peer sent does not check out: %s", exc)
            return False
        setup = watcher.setup
        if setup is None or watcher.finished:
            return False
        if setup.seats[hub.home_seat].key == hub.signer.public_key:
            return False
        if chain[0].game != hub.first_segment:
            log.warning("a peer sent another game")
            return False
        self._adopt(chain)
        watcher.take_accepted()
        watcher.take_events()
        hub.watch(watcher)
        log.info(
            "seat %d is played by %s: watching", hub.home_seat, setup.seats[hub.home_seat].name
        )
        return True

    def _adopt(self, chain: list[Envelope]) -> None:
        """Our transcript becomes the game's: what agrees with it stays, anything after
        the first difference (an envelope of ours nobody else accepted) is set aside."""
        hub = self.hub
        path = hub.writer.path
        data = path.read_bytes() if path.exists() else MAGIC
        ours = list(iter_records(data))
        same = 0
        while (
            same < min(len(ours), len(chain)) and ours[same].envelope.digest == chain[same].digest
        ):
            same += 1
        if same < len(ours):
            move_aside(path, data, ours[same].offset)
        for envelope in chain[same:]:
            hub.writer.append(envelope)
        hub.transcript[:] = chain
