"""The full mesh during play: one secure channel to every other seat, kept up.

A ``Mesh`` is the ``Transport`` of a LAN peer's driver.  Seat ``i`` dials every
seat below it and accepts the seats above it, so two peers never race to
connect to each other; a dropped link is re-dialled by the higher seat.  Every
(re)connection starts with a ``Resend`` request carrying what the table already
holds, so whatever was lost while the link was down comes back, relayed by any
peer that holds it (envelopes are signed by their authors, so relaying is safe).

Everything a peer sends is checked before it reaches the table: a payload
that is neither an envelope nor a valid control message is logged and
dropped, and the link stays up; a frame that fails the channel's own checks
(too large, not authentic) closes that link, and it is re-dialled.

Chat payloads (``p2pbelka.protocol.chat``) go to ``on_chat`` with the seat of
the link they came on, never to the table; ``send_chat`` puts ours on every
link.  Chat is not relayed nor resent: a line said while a link is down is lost
for that seat.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

import trio

from p2pbelka.ladder.share import is_wrapped
from p2pbelka.net.connection import SecureChannel, dial
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import Release
from p2pbelka.protocol.chat import is_chat
from p2pbelka.protocol.codec import MAX_FRAME

log = logging.getLogger(__name__)

MAX_MESH_FRAME = MAX_FRAME + 1024
"""Channel frame limit during play: one envelope (64 KiB) plus the AEAD tag, with room."""
FRAME_OVERHEAD = 4 + 16  # length prefix + AEAD tag
FLAPS = 3
"""Links to one seat that may fail within ``FLAP_WINDOW`` seconds before the seat no
longer counts as connected (a peer that keeps reconnecting and failing is not one
deciding at its leisure: it can be given up on)."""
FLAP_WINDOW = 60.0
LINK_SILENCE = 10.0
"""Seconds a link may stay silent while our resend request on it is unanswered: then
it is taken for dead (its cable is out; TCP would wait minutes) and closed, and the
higher seat dials again, so the game goes on as soon as the network is back."""
MAX_ANSWER_BACKLOG = 1024
"""Frames queued on a link beyond which a resend request gets no envelopes (only
``resent``): the asker will ask again once the backlog has drained."""
MAX_OUTBOX_BYTES = 16 << 20
"""Bytes queued on one link (not yet taken by the kernel) beyond which the link is
closed: its peer does not read.  Nothing queued is dropped silently: the peer dials
again (or is dialled) and asks for what it lacks (``Resend``), as after any outage."""
STREAM_ROOM = 256 << 10
"""A long answer (``stream_to``) is queued only while its link holds less than this:
the next part goes when the kernel took the last, so it never fills the outbox."""
MAX_LINKS = 3
"""Links one seat may hold at once (a resumed peer that dials the higher seats too
holds two); a newer one closes the oldest (a reconnecting peer's old link is dead)."""
MAX_INBOX = 512
"""Envelopes waiting for the table (before ``push_to``) beyond which one more is
dropped and counted: the table asks again for what it lacks (``Resend``).  At most
512 x 64 KiB = 32 MiB; a resend answer is at most 64 envelopes a seat."""


class _Flush:
    """Queued on a link whose channel holds the tail of a frame sent in part (or that
    failed): its send task sends that tail (or finds the channel closed)."""


_FLUSH = _Flush()


@dataclass
class _Link:
    seat: int
    channel: SecureChannel
    outbox: trio.MemorySendChannel[bytes | _Flush]
    resent: trio.Event = field(default_factory=trio.Event)
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)  # closes the link
    queued: int = 0  # frames given to this link and not yet handed to the kernel
    queued_bytes: int = 0  # their size (a flush: what the channel holds of a frame)
    sizes: deque[int] = field(default_factory=deque)  # each queued item's share of it
    stream: Iterator[bytes] | None = None  # a long answer, queued as the link drains
    asked_at: float | None = None  # our resend request not answered yet, sent then
    asking: trio.Event = field(default_factory=trio.Event)  # set when ``asked_at`` is
    heard_at: float = field(default_factory=trio.current_time)  # the last frame in


class Source(Protocol):
    """The table's ``envelopes_from``: what to answer a resend request with."""

    def __call__(self, seat: int, seq: int, *, newest: bool = False) -> list[bytes]: ...


class Mesh:
    """Channels to the other seats of one game; see the module docstring.

    ``source(seat, seq)`` and ``wants()`` read the table (the driver's task owns
    it; trio never switches tasks inside them, so reading here is safe).
    """

    def __init__(
        self,
        identity: Identity,
        game_id: bytes,
        me: int,
        keys: list[bytes],
        peers: list[tuple[str, int]],
        *,
        source: Source,
        wants: Callable[[], list[int]],
        redial_backoff: float = 1.0,
        dial_all: bool = False,
        hold: float | None = None,
        link_silence: float = LINK_SILENCE,
    ) -> None:
        self.identity = identity
        self.link_silence = link_silence
        """How long a link may stay silent while a request on it waits (``LINK_SILENCE``)."""
        self.game_id = game_id
        self.me = me
        self.keys = keys
        self.peers = list(peers)
        self._source = source
        self._wants = wants
        self.redial_backoff = redial_backoff
        # A resumed peer that lost its old port dials the higher seats too; two links
        # to one seat are harmless (duplicates are dropped by the table).
        self.dial_all = dial_all
        # The next seats first: after our card (or pass) one of them acts next, and the
        # first link written to is the first peer woken.
        n = len(keys)
        ahead = sorted((s for s in range(n) if s != me), key=lambda s: (s - me) % n)
        self._links: dict[int, list[_Link]] = {s: [] for s in ahead}
        self._inbox_send, self._inbox = trio.open_memory_channel[bytes | Release](math.inf)
        self._deliver: Callable[[bytes | Release], None] | None = None
        # A resumed table signs nothing until every other seat has answered a resend
        # (any of them may hold the last envelopes it sent before it stopped), or,
        # after ``hold`` seconds, every seat that can be reached at all.
        self._hold = hold
        self._holding = hold is not None
        self._done: set[int] = set()
        self._failed: dict[int, deque[float]] = {s: deque(maxlen=FLAPS) for s in self._links}
        self._finished = False
        self._changed = trio.Event()
        self.bytes_sent = 0
        self.frames_sent = 0
        self.dropped_payloads = 0
        self.dropped_envelopes = 0  # past ``MAX_INBOX``
        self.closed_full = 0  # links closed past ``MAX_OUTBOX_BYTES``
        self.on_chat: Callable[[int, bytes], None] | None = None
        """Takes every chat payload with the seat of its link (``Chat.heard``)."""
        self.on_control: Callable[[int, bytes], bool] | None = None
        """Control payloads the lobby codec does not know go here (a seat changing
        hands, ``seatchange/runner.py``), with the sender's seat: True if it took them."""
        self.standing_chat: Callable[[], bytes | None] = lambda: None
        """Our standing chat line (``Chat.standing``), put on every link as it opens."""
        self.on_ladder: Callable[[int, bytes], None] | None = None
        """Takes every wrapped message of the results' exchange (``ladder`` control
        messages, ``peer/tableshare.py``) with the seat of its link; None: sharing is
        off here, and they are ignored."""

    def follow(self, source: Source, wants: Callable[[], list[int]]) -> None:
        """Answer resend requests from another table, and ask for what it lacks: the
        next segment of the game, once a seat changed hands."""
        self._source, self._wants = source, wants

    # -- the Transport protocol of the driver --------------------------------------

    async def broadcast(self, raw: bytes) -> None:
        for links in self._links.values():
            for link in links:
                self._queue(link, raw)

    def send_chat(self, raw: bytes) -> None:
        """Put one signed chat payload on every link (queued behind what is there)."""
        for links in self._links.values():
            for link in links:
                self._queue(link, raw)

    async def receive(self) -> bytes | Release:
        """The next envelope from any peer, or (once, with ``hold``) ``Release``: every
        other seat has answered, and what they sent is before it in this stream."""
        return await self._inbox.receive()

    def push_to(self, deliver: Callable[[bytes | Release], None] | None) -> None:
        """Hand what ``receive`` would return to ``deliver`` instead, at once, in the
        link's receiving task: no task in between, one switch less per envelope (a
        deal is CPU-bound on a small machine).  What is queued already goes first, so
        the order is the same.  ``deliver`` must not block.  None: queue again."""
        self._deliver = deliver
        while deliver is not None:
            try:
                item = self._inbox.receive_nowait()
            except trio.WouldBlock:
                return
            deliver(item)

    def _put(self, item: bytes | Release) -> None:
        if self._deliver is not None:
            self._deliver(item)
        elif (
            isinstance(item, bytes)
            and not self._holding  # our own last envelopes may be among what comes then
            and self._inbox.statistics().current_buffer_used >= MAX_INBOX
        ):
            self.dropped_envelopes += 1  # asked for again by the table if it needs it
            if self.dropped_envelopes == 1:
                log.warning("the table is behind: envelopes past %d dropped", MAX_INBOX)
        else:
            self._inbox_send.send_nowait(item)

    @property
    def holding(self) -> bool:
        """A resumed table has not been released yet (``hold``): nothing that comes may
        be dropped then, as our own last envelopes may be among it."""
        return self._holding

    def send_to(self, seat: int, payload: bytes) -> None:
        """Queue ``payload`` for one seat's links only (a short answer meant for it)."""
        for link in self._links.get(seat, []):
            self._queue(link, payload)

    def send_newest(self, seat: int, payload: bytes) -> bool:
        """Queue ``payload`` on one seat's newest link only (an exchange that must not
        come twice); False if no link to it is up."""
        links = self._links.get(seat, [])
        if links:
            self._queue(links[-1], payload)
        return bool(links)

    def links_to(self, seat: int) -> int:
        """How many links to ``seat`` are up now."""
        return len(self._links.get(seat, []))

    async def changed(self) -> None:
        """Return at the next change of the links (one up, one down, a queue drained)."""
        await self._changed.wait()

    def stream_to(self, seat: int, payloads: Iterable[bytes]) -> bool:
        """Send ``payloads`` to one seat on its newest link, each queued only when the
        link holds less than ``STREAM_ROOM`` (a long answer never fills an outbox nor
        waits on another link).  False: no link, or one answer is under way on it."""
        links = self._links.get(seat, [])
        if not links or links[-1].stream is not None:
            return False
        links[-1].stream = iter(payloads)
        self._refill(links[-1])
        return True

    def _refill(self, link: _Link) -> None:
        while link.stream is not None and link.queued_bytes < STREAM_ROOM:
            if link.scope.cancel_called:
                link.stream = None
                return
            payload = next(link.stream, None)
            if payload is None:
                link.stream = None
                return
            self._queue(link, payload)

    async def flushed(self, timeout: float = 0.05) -> None:
        """Return once every queued frame was handed to the kernel (or ``timeout``
        passed: a stalled link must not hold the table up)."""
        with trio.move_on_after(timeout):
            while any(link.queued for link in self._all()):
                await self._changed.wait()

    async def ask_resend(self, wants: list[int]) -> None:
        """Ask every connected peer for what the table still lacks (the driver calls
        this when the table has waited a while: a relay may hold it)."""
        for links in self._links.values():
            for link in links:
                self._ask(link, wants)

    def _ask(self, link: _Link, wants: list[int]) -> None:
        """One request at a time on a link: while one is unanswered, later ones are
        merged into it (after an outage a pile of stale requests would each bring
        the same envelopes back, and more)."""
        if link.asked_at is not None:
            return
        link.asked_at = trio.current_time()
        link.asking.set()
        self._queue(link, lb.encode_control(lb.Resend(tuple(wants))))

    # -- state ---------------------------------------------------------------------

    def seat_of(self, key: bytes) -> int | None:
        if key == self.identity.public_key or key not in self.keys:
            return None
        return self.keys.index(key)

    def connected(self) -> set[int]:
        """Seats with a live link, but for those whose links keep failing."""
        return {seat for seat, links in self._links.items() if links and not self._flapping(seat)}

    def cut_off(self) -> bool:
        """No link to any other seat is up, some link was up before and failed, and not
        every seat whose link failed said its game is over (then they left: nobody is
        coming back).  One ``done`` is not enough: it is an unsigned word on a link, so
        a seat that says it falsely and drops its link must not turn an honest peer,
        cut off from the rest, into one that names the seat it waits for."""
        lost = not any(self._links.values()) and any(self._failed.values())
        return lost and not self._all_left()

    def unreached(self) -> bool:
        """``cut_off``, where a link that keeps failing counts as down (``connected``),
        and a resumed peer played with the others before though no link of its own
        run came up yet: at a table of two, a seat back from a crash that reaches
        nobody cannot tell whether the other seat is gone or down as it was (it may
        be coming back from a power cut itself), and waits as one cut off."""
        played = self._hold is not None or any(self._failed.values())
        return not self.connected() and played and not self._all_left()

    def _all_left(self) -> bool:
        """Every seat whose link was up and failed said ``done`` before it went."""
        failed = {seat for seat, times in self._failed.items() if times}
        return bool(self._done) and failed <= self._done

    def split(self, players: set[int]) -> bool:
        """Of ``players`` (the seats their own players hold, four or more), this peer
        reaches at most half, itself counted (a link that keeps failing counts as
        down), though it played with them (a link failed, or it resumed the game, as
        ``cut_off`` asks).  Then no seat can change hands (a change needs every other
        seat's signature), and the half out of reach may be there, as unable to reach
        us: neither half can tell which is cut off.  (A seat that said ``done`` changes
        nothing here: it may have stopped so itself, unsigned; had it the game's end,
        its answer to our resend would end our table too.)"""
        if len(players) < 4 or (self._hold is None and not any(self._failed.values())):
            return False
        reached = (self.connected() | {self.me}) & players
        return 2 * len(reached) <= len(players)

    def _flapping(self, seat: int) -> bool:
        failed = self._failed[seat]
        return len(failed) == FLAPS and trio.current_time() - failed[0] < FLAP_WINDOW

    def authorize(self, key: bytes) -> bool:
        """For the listener: only the other seated players may connect."""
        return self.seat_of(key) is not None

    def _answered(self) -> set[int]:
        return {s for s, links in self._links.items() if any(lk.resent.is_set() for lk in links)}

    # -- running -----------------------------------------------------------------------

    async def run(self, *, adopt: dict[int, SecureChannel] | None = None) -> None:
        """Keep links to every other seat until cancelled.  ``adopt``: channels that
        are already open (a joiner's lobby channel to the host)."""
        async with trio.open_nursery() as nursery:
            if self._hold is not None:
                nursery.start_soon(self._hold_at_most, self._hold)
            for seat in self._links:
                if seat < self.me or self.dial_all:
                    channel = (adopt or {}).get(seat)
                    nursery.start_soon(self._keep_dialling, seat, channel)
                elif adopt and seat in adopt:
                    nursery.start_soon(self.serve_channel, seat, adopt[seat])

    async def accept(self, channel: SecureChannel) -> None:
        """An inbound channel from the listener; runs until it closes."""
        seat = self.seat_of(channel.peer_key)
        if seat is None:
            log.warning("refused a channel from %s: not seated here", channel.peer_fingerprint)
            return
        await self.serve_channel(seat, channel)

    async def _keep_dialling(self, seat: int, channel: SecureChannel | None) -> None:
        host, port = self.peers[seat]
        while True:
            if channel is None:
                try:
                    channel = await dial(
                        host,
                        port,
                        self.identity,
                        expected_peer_key=self.keys[seat],
                        context=self.game_id,
                        attempts=None,
                        max_backoff=self.redial_backoff,
                        max_frame_size=MAX_MESH_FRAME,
                    )
                except NetError as exc:
                    log.warning("cannot reach seat %d at %s:%d: %s", seat, host, port, exc)
                    await trio.sleep(self.redial_backoff)
                    continue
            await self.serve_channel(seat, channel)
            channel = None
            await trio.sleep(0.05)

    async def serve_channel(self, seat: int, channel: SecureChannel) -> None:
        """Carry one link until it closes: a sender task, this receive loop."""
        outbox, queue = trio.open_memory_channel[bytes | _Flush](math.inf)
        link = _Link(seat, channel, outbox)
        self._links[seat].append(link)
        if len(self._links[seat]) > MAX_LINKS:
            log.warning("seat %d holds %d links: the oldest is closed", seat, MAX_LINKS + 1)
            self._links[seat][0].scope.cancel()
        self._notify()
        log.info("link to seat %d up (%s)", seat, channel.peer_address)
        try:
            with link.scope:
                await self._serve(link, queue)
        finally:
            self._links[seat].remove(link)
            self._failed[seat].append(trio.current_time())
            self._notify()
            with trio.CancelScope(shield=True):
                await channel.aclose()
            log.info("link to seat %d down: %s", seat, channel.close_reason)

    async def _serve(self, link: _Link, queue: trio.MemoryReceiveChannel[bytes | _Flush]) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._send_loop, link, queue, nursery.cancel_scope)
            nursery.start_soon(self._watch, link, nursery.cancel_scope)
            wants = self._wants()
            if wants:
                self._ask(link, wants)
            standing = self.standing_chat()
            if standing is not None:  # said while this link was down, or before it
                self._queue(link, standing)
            if self._finished:
                self._queue(link, lb.encode_control(lb.Done()))
            await self._receive_loop(link)
            nursery.cancel_scope.cancel()

    async def _watch(self, link: _Link, scope: trio.CancelScope) -> None:
        """Close the link once it is silent while a request on it waits for an answer.

        It wakes only when it must: when a request is sent, and at the moment the link
        would have been silent long enough (a frame heard meanwhile moves that on; the
        next wake sees it).  Every link of every peer ticking each second was a sixth
        of the simulator's scheduling, and needless wake-ups on a real machine."""
        while True:
            asked = link.asked_at
            if asked is None:
                link.asking = trio.Event()
                await link.asking.wait()
                continue
            deadline = max(asked, link.heard_at) + self.link_silence
            now = trio.current_time()
            if now >= deadline:
                log.warning(
                    "seat %d: no answer for %.0f s, the link is dead", link.seat, now - asked
                )
                scope.cancel()
                return
            await trio.sleep_until(deadline)

    async def _send_loop(
        self, link: _Link, queue: trio.MemoryReceiveChannel[bytes | _Flush], scope: trio.CancelScope
    ) -> None:
        try:
            async for payload in queue:
                if isinstance(payload, _Flush):
                    await link.channel.flush()
                else:
                    await link.channel.send(payload)
                    self.bytes_sent += len(payload) + FRAME_OVERHEAD
                    self.frames_sent += 1
                link.queued -= 1
                link.queued_bytes -= link.sizes.popleft()
                if link.stream is not None:
                    self._refill(link)
                if not link.queued:
                    self._notify()
        except NetError as exc:
            log.info("sending to seat %d failed: %s", link.seat, exc)
        scope.cancel()

    async def _receive_loop(self, link: _Link) -> None:
        try:
            async for payload in link.channel:
                self._take(link, payload)
        except NetError as exc:
            log.warning("link to seat %d dropped: %s: %s", link.seat, type(exc).__name__, exc)

    def _take(self, link: _Link, payload: bytes) -> None:
        link.heard_at = trio.current_time()
        if lb.is_envelope(payload):
            if len(payload) > MAX_FRAME:
                self._drop(link, f"an envelope of {len(payload)} bytes")
                return
            self._put(payload)
            return
        if is_chat(payload):
            if self.on_chat is not None:
                self.on_chat(link.seat, payload)  # checks, counts and drops on its own
            return
        if is_wrapped(payload):
            if self.on_ladder is not None:
                self.on_ladder(link.seat, payload)  # checks and drops on its own
            else:
                log.info("seat %d offers results: sharing is off here", link.seat)
            return
        try:
            msg = lb.decode_control(payload)
        except lb.LobbyError as exc:
            if self.on_control is not None and self.on_control(link.seat, payload):
                return
            self._drop(link, str(exc))
            return
        if isinstance(msg, lb.Resend):
            if link.queued > MAX_ANSWER_BACKLOG:
                self._queue(link, lb.encode_control(lb.Resent()))
                return
            for seat, seq in enumerate(msg.start):
                # The asker's own chain ends with the newest we hold, even when the
                # answer is cut: a resumed seat must learn how long its chain is.
                for raw in self._source(seat, seq, newest=seat == link.seat):
                    self._queue(link, raw)
            self._queue(link, lb.encode_control(lb.Resent()))
        elif isinstance(msg, lb.Resent):
            link.asked_at = None
            link.resent.set()
            self._notify()
            if self._holding and self._answered() == set(self._links):
                self._release("every seat has answered")
        elif isinstance(msg, lb.Done):
            self._done.add(link.seat)
            wants = self._wants()
            if wants and not self._finished:
                # It holds the game to its end and lingers only a moment: what our
                # table lacks (a player watching its seat played by a bot may be cut
                # from the bot's peer), ask it now.
                self._ask(link, wants)
            self._notify()
        else:
            self._drop(link, f"a lobby message ({type(msg).__name__}) during play")

    async def _hold_at_most(self, patience: float) -> None:
        """After ``patience`` s a seat with no link at all is taken for gone (its player
        left for good; a bot may play it now, and never answers for it): the seats
        that can be reached are enough, once every one of them has answered."""
        await trio.sleep(patience)
        while self._holding:
            answered = self._answered()
            if answered and {s for s, links in self._links.items() if links} <= answered:
                gone = sorted(set(self._links) - answered)
                self._release(f"every seat that can be reached has answered (not {gone})")
                return
            await self._changed.wait()

    def _release(self, why: str) -> None:
        """Everything the answers brought is in the stream: say so, behind it."""
        self._holding = False
        log.info("%s: this seat may sign again", why)
        self._put(Release())

    def _drop(self, link: _Link, why: str) -> None:
        self.dropped_payloads += 1
        log.warning("ignored a payload from seat %d: %s", link.seat, why)

    def _queue(self, link: _Link, payload: bytes) -> None:
        if not link.queued and link.channel.send_now(payload):
            # Handed to the kernel here, with nothing queued before it: the send task
            # need not wake (what the kernel did not take, or a failure, is its job).
            self.bytes_sent += len(payload) + FRAME_OVERHEAD
            self.frames_sent += 1
            if not (link.channel.pending or link.channel.closed):
                return
            item: bytes | _Flush = _FLUSH
        else:
            item = payload
        size = len(payload)
        if link.queued_bytes + size > MAX_OUTBOX_BYTES:
            # Its peer does not read: close the link rather than hold more, or drop
            # one of our envelopes unseen; the next link's resend brings it all back.
            if not link.scope.cancel_called:
                self.closed_full += 1
                log.warning(
                    "seat %d does not read (%d bytes queued): closing its link",
                    link.seat,
                    link.queued_bytes,
                )
                link.scope.cancel()
            return
        try:
            link.outbox.send_nowait(item)
            link.queued += 1
            link.queued_bytes += size
            link.sizes.append(size)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # the link is going down; a resend on the next one covers it

    def _notify(self) -> None:
        # Waiters hold the old event; a fresh one is ready for the next change.
        self._changed.set()
        self._changed = trio.Event()

    # -- the end -----------------------------------------------------------------------

    async def linger(
        self,
        timeout: float,
        skip: set[int] | None = None,
        settled: Callable[[], bool] | None = None,
    ) -> None:
        """Say we are done, then stay up (answering resends) until every other seat
        is done too, except ``skip`` (seats given up on), and (``settled``) our table
        has taken everything that came before their ``done`` (a proof may be among
        it, and what the table sends about it must leave too), or ``timeout`` passes."""
        self._finished = True
        done = lb.encode_control(lb.Done())
        for links in self._links.values():
            for link in links:
                self._queue(link, done)
        waiting_for = set(self._links) - (skip or set())
        with trio.move_on_after(timeout):
            while not waiting_for <= self._done:
                await self._changed.wait()
            while settled is not None and not settled():
                await trio.sleep(0.01)
        # Let the last frames leave before the channels close.
        with trio.move_on_after(1.0):
            while any(link.queued for link in self._all()):
                await trio.sleep(0.01)

    def _all(self) -> list[_Link]:
        return [link for links in self._links.values() for link in links]
