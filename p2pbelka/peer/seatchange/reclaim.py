"""A player takes its seat back from the bot that played it (``p2pbelka resume``).

The returning player resumes as after any crash, then asks the others whether its
seat changed hands (``ChainRequest``).  A peer whose current segment seats
another key there sends it the whole game, every segment, record by record; the
player checks it (an observer's replay, signatures and all), keeps its own
transcript where the two agree and sets the rest aside, and *watches* the game
as an observer while it asks for its seat (``Reclaim``).  The peer that runs the
bot lets the bot finish the deal in progress and stop before the next one; at
that cut nothing of the next deal is dealt to the seat, and the remaining seats
agree to hand it back exactly as they agreed to the bot (``machine.py``).
The continuation names the player's own key, so it goes on as itself.

The bot's side (letting the bot finish its deal, offering the seat back) is the
seat-change machine's (``machine.py``); this module is the returning player's
side and the game's records.  What it shares with the runner is ``SeatState``; it
starts no task: the runner starts its ``fetch_and_watch`` in its own nursery.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterator

import trio

from p2pbelka.peer.driver import PeerDriver
from p2pbelka.peer.seatchange.drivers import FETCH
from p2pbelka.peer.seatchange.machine import Stage
from p2pbelka.peer.seatchange.state import SeatState
from p2pbelka.peer.store import move_aside
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.protocol.messages import TableMsg
from p2pbelka.protocol.seatchange import (
    ChainEnd,
    ChainRecord,
    ChainRequest,
    Reclaim,
    encode_seat_change,
)
from p2pbelka.protocol.transcript import MAGIC, iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.errors import OrderError
from p2pbelka.table.segments import observe_segments
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

CHAIN_TIMEOUT = 60.0
"""How long a returning player waits for the game once a peer started sending it."""
TOP_UP_EVERY = 2.0
"""A watching player behind a continuation fetches the game again at most this often."""
QUIET_STAGES = (Stage.IDLE, Stage.ASKING, Stage.AWAITING)
"""The seat change's stages in which no continuation can have been sealed with us in it
(one needs our agreement, or is our own offer)."""
ASK_EVERY = 5.0
"""A watching player asks for its seat again this often (a request may be lost, or
come while the bot's peer is busy)."""
MAX_CHAIN_BYTES = 16 << 20
"""The most this player keeps from one peer while it fetches (a game of a thousand
records is under 1 MiB)."""
MAX_STRAYS = 64
"""Unknown segments noted (each asks once whether our seat changed hands): a game has
a few; a peer making them up gets no more answers past this."""
MAX_CHAIN_RECORDS = 20_000
"""The most records one answer carries and one fetch keeps from one peer."""
ANSWER_EVERY = 1.0
"""One answer to a ``seat_chain`` started per asker at most this often (a watching
player tops up at most every ``TOP_UP_EVERY``); one at a time, sent as its link drains."""


class Reclaimer:
    """Taking a seat back: ``heard`` gets (and answers for) the game's records;
    ``catch_up`` and ``fetch_and_watch`` are the returning player's."""

    def __init__(
        self,
        hub: SeatState,
        *,
        new_nonce: Callable[[], bytes],
        watch: Callable[[Table], None],
        retry: Callable[[], None],
        feed: Callable[[bytes], None],
    ) -> None:
        self.hub = hub
        self.new_nonce = new_nonce
        """A fresh nonce (16 bytes) for a seat this player asks back."""
        self.watch = watch
        """Follow the game as an observer, the table its current segment."""
        self.retry = retry
        """Try again the continuations heard so far."""
        self.feed = feed
        """Hand one envelope of the game to this peer's tables, as if the mesh brought it."""
        self.released = trio.Event()
        """Set when the mesh releases a resumed seat (``Mesh(hold=...)``)."""
        self._records: dict[int, list[bytes]] = {}
        self._chain: list[bytes] | None = None
        self._answered = trio.Event()  # a chain, or a peer saying we hold our seat
        self._started = trio.Event()  # a peer began to send the chain
        self._ours: set[int] = set()  # seats that said our seat is still ours
        self._fetching = False
        self.catching_up = False
        """A resumed seat is asking whether its seat changed hands (``catch_up``)."""
        self.nonce: bytes | None = None
        """What this player sends in its ``Reclaim`` (drawn fresh for each segment it
        asks in): the seat comes back to it only in a continuation carrying it."""
        self._nonce_for: bytes | None = None
        self._topped_at: float | None = None  # a top-up is under way, asked then
        self._strays: set[bytes] = set()  # unknown segments whose envelopes came (once)
        self._asked: set[int] = set()  # seats whose answer we wait for (a fetch)
        self._sizes: Counter[int] = Counter()  # bytes kept from each of them
        self._topping: int | None = None  # the seat a top-up asked, until it ends
        self._answered_at: dict[int, float] = {}  # when we last began an answer to a seat
        self.dropped: Counter[str] = Counter()
        """``seat_chain`` requests not answered and ``seat_record``s not kept, by why."""

    def heard(self, seat: int, msg: ChainRequest | ChainRecord | ChainEnd) -> None:
        """The game's records: asked for by ``seat``, or sent by it.  Records are kept
        only while we fetch, from a seat we asked, in order, up to the caps."""
        if isinstance(msg, ChainRequest):
            self._send_chain(seat, msg.start)
        elif self._topping == seat and isinstance(msg, ChainRecord):
            if self._keep(seat, msg.record):
                self.feed(msg.record)  # a copy we hold already is dropped by the table
        elif self._topping == seat and isinstance(msg, ChainEnd):
            self._topping = None
            self.retry()
        elif seat not in self._asked:
            self._drop("unasked", seat)
        elif isinstance(msg, ChainRecord):
            records = self._records.setdefault(seat, [])
            if msg.index != len(records):
                self._drop("out of order", seat)
            elif self._keep(seat, msg.record):
                records.append(msg.record)
                self._started.set()
        elif isinstance(msg, ChainEnd):
            self._asked.discard(seat)  # one answer a seat
            records = self._records.pop(seat, [])
            if msg.total == 0:
                self._ours.add(seat)
                self._answered.set()
            elif msg.total == len(records) and self._chain is None:
                self._chain = records
                self._answered.set()

    def _keep(self, seat: int, record: bytes) -> bool:
        """Count ``record`` against what one peer may make us hold; False: past it, and
        that peer's answer is given up (a game is never that long)."""
        self._sizes[seat] += len(record)
        count = len(self._records.get(seat, ())) + 1
        if self._sizes[seat] <= MAX_CHAIN_BYTES and count <= MAX_CHAIN_RECORDS:
            return True
        self._drop("past the caps", seat)
        self._asked.discard(seat)
        self._records.pop(seat, None)
        if self._topping == seat:
            self._topping = None
        return False

    def _drop(self, why: str, seat: int) -> None:
        self.dropped[why] += 1
        if self.dropped[why] == 1:
            log.warning(
                "seat %d: a game-record message dropped (%s); counted from now on", seat, why
            )

    def _open(self, seats: set[int]) -> None:
        """A fetch begins: answers from ``seats`` are kept (each seat's once)."""
        self._asked, self._records, self._sizes = set(seats), {}, Counter()

    def _close(self) -> None:
        """The fetch is over: what a late answer brings is dropped."""
        self._asked, self._records, self._sizes = set(), {}, Counter()

    # -- the peers that kept playing --------------------------------------------------

    def _send_chain(self, seat: int, start: int) -> None:
        """The game so far for ``seat``'s player, if its seat is in other hands: one
        answer at a time per asker, at most one begun per ``ANSWER_EVERY``, sent as its
        link drains (``Mesh.stream_to``), at most ``MAX_CHAIN_RECORDS`` records.  A request
        dropped is not answered: a watching player asks again (``top_up``), a fetch
        takes any seat's answer."""
        hub, table = self.hub, self.hub.table
        if table is None or table.state.setup is None or not 0 <= seat < table.state.n_seats:
            return
        if table.state.setup.seats[seat].key == hub.mesh.keys[seat] and not self._changed_hands(
            seat
        ):
            hub.mesh.send_to(seat, encode_seat_change(ChainEnd(0)))
            return
        now, last = trio.current_time(), self._answered_at.get(seat)
        if last is not None and now - last < ANSWER_EVERY:
            self._drop("asked too often", seat)
            return
        raws = [e.raw for e in hub.transcript[start : start + MAX_CHAIN_RECORDS]]
        if hub.mesh.stream_to(seat, _answer(start, raws, len(hub.transcript))):
            self._answered_at[seat] = now
        else:
            self._drop("asked during an answer", seat)

    def _changed_hands(self, seat: int) -> bool:
        """Whether a continuation gave ``seat`` to another key in this game: its player
        may be watching a segment our table has left (it asks to catch up), or resuming
        after it took the seat back (the game it has may end before the hand-back)."""
        return any(
            isinstance(e.msg, TableMsg) and e.msg.after is not None and e.msg.after.seat == seat
            for e in self.hub.transcript
        )

    # -- the returning player -------------------------------------------------------------

    async def catch_up(self, driver: PeerDriver, timeout: float) -> None:
        """A resumed peer: once the others answered its resend requests, ask whether its
        seat changed hands.  If not, let its table speak again; if so, watch the game
        and ask for the seat back."""
        hub = self.hub
        self.catching_up = True
        with trio.move_on_after(timeout):
            await self.released.wait()
        log.info("resumed: every seat answered: %s", self.released.is_set())
        start = 0
        self._open(set(range(len(hub.mesh.keys))) - {hub.mesh.me})
        await hub.mesh.broadcast(encode_seat_change(ChainRequest(start)))
        with trio.move_on_after(timeout):  # a first record, or "you hold your seat"
            while not (self._started.is_set() or self._answered.is_set()):
                await trio.sleep(0.05)
        with trio.move_on_after(CHAIN_TIMEOUT if self._started.is_set() else 0):
            await self._answered.wait()
        chain, self.catching_up = self._chain, False
        self._close()
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
        if hub.ending is None:
            await self._ask_for_the_seat()

    def stray(self, game: bytes, known: Callable[[bytes], bool]) -> bool:
        """An envelope of segment ``game``, which this peer never sat in nor agreed to
        (``known``: ids it kept): the others went on without it, so its seat was given
        away while its link was down.  Its table envelope may never come: a resend is
        answered from the answerer's own segment, from the asker's place in the old
        one, past that segment's first records.  True: ask for the game as a resumed
        seat does (``Replaced``); if the seat is still ours the table goes on.  (A
        continuation we signed, proposed or hand a seat back in may send before its
        table envelope is here: those stages are left alone.)"""
        hub = self.hub
        if hub.watching or hub.change.stage not in QUIET_STAGES or game in self._strays:
            return False
        if self.catching_up:
            return False  # a resumed seat's own question is out: a later envelope asks again
        if len(self._strays) >= MAX_STRAYS:
            return False  # made up by a peer: a real one would have come among the first
        self._strays.add(game)
        if any(e.game == game for e in hub.transcript) or known(game):
            return False  # a segment we left: a late envelope of it
        log.info(
            "envelopes of segment %s, unknown here: did our seat change hands?", game.hex()[:16]
        )
        return True

    def begin_fetch(self) -> bool:
        """A continuation gave our seat to another key while our table was still in the
        segment before (we came back during the offer).  True: the runner freezes our
        table and starts ``fetch_and_watch`` (False: it is under way already)."""
        if self._fetching or self.hub.driver is None:
            return False
        self._fetching = True
        return True

    async def fetch_and_watch(self) -> None:
        """Fetch the game and watch it, asking for our seat; our table goes on if the
        game a peer sends does not give our seat away."""
        hub = self.hub
        self._chain, self._ours, self._topped_at, self._topping = None, set(), None, None
        self._answered = trio.Event()
        self._open(set(range(len(hub.mesh.keys))) - {hub.mesh.me})
        await hub.mesh.broadcast(encode_seat_change(ChainRequest(0)))
        with trio.move_on_after(CHAIN_TIMEOUT):
            # until a chain comes, or every seat we reach says the seat is still ours
            while self._chain is None and not (self._ours and self._ours >= hub.mesh.connected()):
                await self._answered.wait()
                self._answered = trio.Event()
        self._close()
        if self._chain is not None and self._watch(self._chain):
            if hub.ending is not None:
                return  # the game ended without us: nothing to ask for
            await self._ask_for_the_seat()
            self._fetching = False  # the seat is ours again: a later outage may fetch anew
        elif hub.driver is not None:
            self._fetching = False
            hub.driver.thaw(FETCH)  # (the seat change's hold, if any, stays)

    async def _ask_for_the_seat(self) -> None:
        """Watching: ask for our seat until it is ours again (or the game ends)."""
        hub = self.hub
        while hub.watching and hub.table is not None and hub.table.state.me is not None:
            await trio.sleep(0.05)  # the watching table takes over
        while hub.watching:
            if self._nonce_for != hub.segment:  # fresh for every segment we ask in
                self.nonce, self._nonce_for = self.new_nonce(), hub.segment
            assert self.nonce is not None
            await hub.mesh.broadcast(encode_seat_change(Reclaim(hub.segment, self.nonce)))
            with trio.move_on_after(ASK_EVERY):
                while hub.watching:
                    self.retry()
                    await trio.sleep(0.5)

    def top_up(self, seat: int) -> None:
        """Watching, and a continuation handing our seat back (hosted by ``seat``) cut a
        chain further than our table holds: ask that peer for the game's records since
        the watched segment began (its transcript keeps every segment; a resend is
        answered from the segment its table is in).  At most once in ``TOP_UP_EVERY``
        seconds."""
        hub, now = self.hub, trio.current_time()
        if not hub.watching or (
            self._topped_at is not None and now - self._topped_at < TOP_UP_EVERY
        ):
            return
        self._topped_at, self._topping = now, seat
        self._sizes[seat] = 0
        start = next(
            (i for i, e in enumerate(hub.transcript) if e.game == hub.segment),
            len(hub.transcript),
        )
        log.info("watching: fetching the game from record %d from seat %d", start, seat)
        hub.mesh.send_to(seat, encode_seat_change(ChainRequest(start)))

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
        setup = watcher.state.setup
        if setup is None or (
            watcher.finished and not watcher.state.over and not watcher.state.aborted
        ):
            return False
        if setup.seats[hub.home_seat].key == hub.signer.public_key:
            return False
        if chain[0].game != hub.first_segment:
            log.warning("a peer sent another game")
            return False
        self._adopt(chain)
        watcher.take_accepted()
        events = watcher.take_events()
        if watcher.finished:
            # The game ended without us (a peer that finished it answered before it
            # left): our file is now the whole game, and the player learns how it ended.
            ends = [e for e in events if isinstance(e, ev.GameOver | ev.GameAborted)]
            hub.ending = ends[-1] if ends else ev.GameAborted(())
            log.info("the game ended without us: %s", hub.ending)
        self.watch(watcher)
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
            hub.writer.cut_back(same)  # the host's watchers set the same records aside
        for envelope in chain[same:]:
            hub.writer.append(envelope)
        hub.transcript[:] = chain


def _answer(start: int, raws: list[bytes], total: int) -> Iterator[bytes]:
    """A ``seat_chain`` answer, encoded one record at a time as its link takes it."""
    for index, raw in enumerate(raws, start):
        yield encode_seat_change(ChainRecord(index, raw))
    yield encode_seat_change(ChainEnd(total))
