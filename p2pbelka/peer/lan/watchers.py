"""The host's watchers: who may follow its game, and the feed each one gets.

A watcher dials the lobby and says ``watch`` instead of ``hello``
(protocol/SPEC.md section 7.5).  Once the host lets it in, it gets every record
of the host's transcript from the index it asked for, then each new record as
the host's seat writes it, the seats' chat lines the host sent or accepted, and
(before the start) each new ``lobby``; ``fed`` when the game is over.  Besides:
``alive`` every ``ALIVE_EVERY`` seconds (a watcher tells a dead link from a quiet
game), and ``rewind`` when the host's transcript is cut back (it took its seat
back: ``Feed.rewind``), to each watcher fed before.

Nothing here may hold up the game: the seat's tasks only *append* a payload to
each watcher's queue (``Feed.record``, ``Feed.chat_line``: no encryption, no
task switch, never a wait); each watcher has a task of its own that wakes at
most once every ``PACE`` seconds and sends what queued meanwhile in one write,
encrypted one frame a payload (the wire is the same as one send each).  So the
game pays a list append per watcher and record, and the feed's work comes in a
few lumps a second, not one task switch, encryption and system call per
watcher and record.  A watcher more than ``BEHIND`` bytes behind is dropped
(its link pays, not the game, and the host's memory stays bounded).  A watcher
may send only chat, only when the host allows it, within the chat receiving
limit; anything else cuts it off, counted at the door like a stranger's
refused handshake.
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import trio

from p2pbelka.net.connection import SecureChannel
from p2pbelka.net.door import Door
from p2pbelka.net.errors import DecryptError, FrameError, NetError
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import (
    HEAR_BURST,
    HEAR_EVERY,
    Chat,
    RateLimit,
    watching_line,
)
from p2pbelka.peer.lan.events import (
    LobbyEvent,
    WatchersCatchingUp,
    WatchersChanged,
    WatcherView,
)
from p2pbelka.protocol.chat import ChatMsg, is_chat, open_chat
from p2pbelka.protocol.codec import ProtocolError, decode
from p2pbelka.protocol.envelope import Envelope

log = logging.getLogger(__name__)

WATCHERS = 8
"""Watchers a host takes at once unless told otherwise (``host --watchers``)."""
MAX_WATCHERS = 16
"""Watchers a host takes at most (``host --watchers`` above it is refused): with this
many the players' time a deal stays within 1.2 times that without (docs/network.md,
``bench net --watchers``)."""
BEHIND = 1024 * 1024
"""Bytes of payloads waiting for one watcher at most (some thirty deals of a game);
past it, it is dropped.  With a write under way (``BATCH`` at most, or one payload
larger) that bounds what the host holds for a watcher."""
BATCH = 64 * 1024
"""Bytes of payloads one write to a watcher carries at most (one payload at least)."""
PACE = 0.05
"""Seconds a watcher's task waits, once a payload is queued, before it sends: the
records of the seat's burst go in one write, and the feed costs the game a few lumps
of work a second whatever the pace of the game."""
FED_GRACE = 5.0
"""Seconds the host waits, once its game is over, for a watcher that takes nothing:
the wait starts again with every payload a watcher takes, so a watcher whose screen
is behind (a busy machine) still gets the whole feed."""
FED_LIMIT = 120.0
"""Seconds after the end the host stays for its watchers at most, moving or not."""
ALIVE_EVERY = 5.0
"""Seconds between the ``alive`` each watcher gets, however quiet the game: a watcher
whose host sends nothing for a while knows the link is dead (a cable out), not the
game quiet (a player thinking), and goes to wait for the host (``peer/watch.py``)."""
ALIVE = lb.encode_control(lb.Alive())
SAY_AFTER = 1.0
"""Seconds after the end before the host's person is told its program waits for watchers
still catching up (``WatchersCatchingUp``): one that is up to date takes ``fed`` sooner."""


class CutOff(Exception):
    """What a watcher sent that it may not: the reason, for the log and the door."""


class WatcherChat:
    """The chat a watcher may send (mode "watchers"), sans-IO: lines signed by its own
    key, for the segment in play, with growing counters, within the receiving limit
    of a seat's line (protocol/SPEC.md section 7.4).  ``check`` gives the line to
    relay, None for one of another segment (a seat change crossed it: dropped
    quietly), or raises ``CutOff``."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.limit = RateLimit(HEAR_BURST, HEAR_EVERY)
        self.last = -1

    def check(self, raw: bytes, segment: bytes, now: float) -> ChatMsg | None:
        try:
            msg = open_chat(raw, check_signature=False)
        except ProtocolError as exc:
            raise CutOff(f"a malformed chat line ({exc})") from None
        if msg.sender != self.key:
            raise CutOff("a chat line signed by another key")
        if not self.limit.allow(now):
            raise CutOff("a chat flood")
        if msg.game != segment:
            return None
        if msg.counter <= self.last:
            raise CutOff("a replayed chat line")
        try:
            open_chat(raw)
        except ProtocolError:
            raise CutOff("a chat line whose signature does not verify") from None
        self.last = msg.counter
        return msg


def what_came(payload: bytes) -> str:
    """A payload a watcher may not send, in words (it is not decoded further)."""
    if is_chat(payload):
        return "a chat line while the host takes none from watchers"
    if lb.is_envelope(payload):
        return "an envelope"
    try:
        lb.decode_control(payload)
    except lb.LobbyError as exc:
        return f"a malformed payload ({exc})"
    return f"a {decode(payload, 'control')['t']!r} message"


@dataclass(eq=False)
class Watcher:
    """One admitted watcher: its channel, its queue, the scope its tasks run in."""

    view: WatcherView
    channel: SecureChannel
    chat: WatcherChat | None
    queue: deque[bytes] = field(default_factory=deque)
    queued: int = 0
    """Bytes in ``queue``."""
    closed: bool = False
    """Nothing more is queued: the game is over, or the watcher is gone."""
    wake: trio.Event = field(default_factory=trio.Event)
    """Set when a payload is queued or the queue is closed."""
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    why: str = ""
    """Why the host closed it ("" while it watches, or if it left by itself)."""


class Feed:
    """The host's watchers and what they are fed.  ``limit`` watchers at once (0: the
    host takes none); ``chat``: who their lines reach (``lb.CHAT_MODES``); ``tell``
    hands the host's front end a ``WatchersChanged`` without waiting; ``door``
    counts the watchers cut off with the refused strangers."""

    def __init__(
        self,
        limit: int = WATCHERS,
        chat: str = "off",
        *,
        tell: Callable[[LobbyEvent], None] = lambda event: None,
        door: Door | None = None,
    ) -> None:
        if chat not in lb.CHAT_MODES:
            raise ValueError(f"watcher chat must be one of {', '.join(lb.CHAT_MODES)}")
        self.limit = min(MAX_WATCHERS, max(0, limit))
        self.chat_mode = chat
        self.tell = tell
        self.door = door
        self.records: list[bytes] = []
        """Every record of the host's transcript so far, as written."""
        self.watchers: list[Watcher] = []
        self.admitted: list[bytes] = []
        """Every key let in to watch, once each (kept with the game: ``rehost.py``)."""
        self.on_admit: Callable[[bytes], None] | None = None
        """Told each key let in for the first time."""
        self.rewound: dict[bytes, int] = {}
        """Keys fed before the transcript was cut back (``rewind``), and the records of
        it they may hold yet: one that asks from further gets ``rewind`` first."""
        self.ended = False
        self.stats: Counter[str] = Counter()
        self._chat: Chat | None = None
        self._told: tuple[str, ...] | None = ()  # the watchers the seats were told of
        # (None: not known, a resumed host's: the next list is said, nobody included)
        self._done = trio.Event()
        self._taken_at = 0.0
        """When a watcher last took a payload (``trio.current_time``)."""

    # -- what the host's lobby asks ---------------------------------------------------

    @property
    def taking(self) -> bool:
        return self.limit > 0 and not self.ended

    @property
    def places(self) -> int:
        """Watchers the host takes yet (what the beacons say)."""
        return max(0, self.limit - len(self.watchers)) if self.taking else 0

    def refusal(self, key: bytes, start: int) -> str:
        """Why a watcher with ``key`` asking from record ``start`` may not watch, or ""."""
        if self.limit == 0:
            return "this table takes no watchers"
        if self.ended:
            return "the game is over"
        if any(w.view.key == key for w in self.watchers):
            return "this key is already watching"
        if not self.places:
            return f"this table takes no more watchers: it has {self.limit}, as many as it takes"
        if start > len(self.records) and key not in self.rewound:
            return f"you hold {start} records; this host's transcript has {len(self.records)}"
        return ""

    # -- the taps: called by the seat's tasks, never waiting -------------------------

    def record(self, envelope: Envelope) -> None:
        self.records.append(envelope.raw)
        self._push(envelope.raw)

    def rewind(self, records: int) -> None:
        """The host's transcript was cut back to its first ``records`` records (it took
        its seat back, SPEC section 9.5): every watcher fed before drops the rest too,
        told now (``rewind``, in its place in the feed) or when it asks again."""
        if records >= len(self.records):
            return
        del self.records[records:]
        for key in self.admitted:
            self.rewound[key] = min(records, self.rewound.get(key, records))
        self._push(lb.encode_control(lb.Rewind(records)))

    def follow(self, chat: Chat, *, resumed: bool = False) -> None:
        """The game's chat is open: its lines go to the watchers, and the seats are told
        who watches.  ``resumed``: our program stopped and came back, and the seats may
        show a list a program of ours said before (its watchers gone with it, or back):
        the list as it is now is said, nobody watching included."""
        self._chat = chat
        chat.taps.append(self.chat_line)
        if resumed:
            self._told = None  # what the seats were told is not known here
        self._tell_seats()

    def _tell_seats(self) -> None:
        """The host's seat names its watchers to the other seats (``/watching``, a
        chat line of its own, SPEC 7.5), once the chat is open and at each change.  The
        line is standing: every link of the mesh gets it again as it opens (a seat
        whose link was down, or not up yet, or re-dialled), with no new signature and
        so no use of the sending limit.  A line the limit refuses (the host's player
        chatting fast) is said as soon as the limit allows, the latest list then
        (``Chat.say_standing``)."""
        names = tuple(w.view.name for w in self.watchers if not w.closed)
        if self._chat is None or names == self._told:
            return
        self._chat.say_standing(watching_line(names))
        self._told = names

    def chat_line(self, msg: ChatMsg) -> None:
        self._push(msg.raw)

    def lobby(self, payload: bytes) -> None:
        """A new ``lobby`` before the start."""
        self._push(payload)

    def _push(self, payload: bytes, skip: Watcher | None = None) -> None:
        for watcher in self.watchers:  # ``_close`` does not change the list
            if watcher is skip or watcher.closed:
                continue
            watcher.queue.append(payload)
            watcher.queued += len(payload)
            if watcher.queued > BEHIND:
                self._close(watcher, f"fell {watcher.queued // 1024} KiB behind", cut=False)
            else:
                watcher.wake.set()

    # -- one watcher ------------------------------------------------------------------

    async def serve(
        self, channel: SecureChannel, view: WatcherView, start: int, early: Sequence[bytes] = ()
    ) -> None:
        """Feed an admitted watcher until the game is over, it leaves, falls behind or
        is cut off.  The catch-up and its place in the live feed are taken together,
        with no checkpoint between, so no record is missed or sent twice.  ``early``:
        what it sent while the host decided, heard first."""
        chat = WatcherChat(view.key) if self.chat_mode == "watchers" else None
        watcher = Watcher(view, channel, chat)
        first = self.opening(view.key, start)
        self.watchers.append(watcher)
        if view.key not in self.admitted:
            self.admitted.append(view.key)
            if self.on_admit is not None:
                self.on_admit(view.key)
        self._changed()
        log.info("watchers: %s (%s) watches from record %d", view.name, view.fingerprint, start)
        try:
            with watcher.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._listen, watcher, early)
                    nursery.start_soon(self._keep_alive, watcher)
                    await self._send(watcher, first)
                    nursery.cancel_scope.cancel()
        finally:
            self.watchers.remove(watcher)
            self._shut(watcher)
            self._changed()
            if not self.watchers and self.ended:
                self._done.set()

    def opening(self, key: bytes, start: int) -> list[bytes]:
        """What an admitted watcher asking from ``start`` gets first (SPEC 7.5):
        ``watching``, an ``alive`` at once (a watcher knows this host keeps its link
        alive from the start, and times out a cable pulled before the first 5 s are
        up), then the records from ``start``, or, when it was fed before the
        transcript was cut back below that, ``rewind`` and the records from the cut
        (it may hold the ones set aside)."""
        head = [lb.encode_control(lb.Watching(self.chat_mode)), ALIVE]
        cut = self.rewound.pop(key, None)
        if cut is None or start <= cut:
            return head + self.records[start:]
        return [*head, lb.encode_control(lb.Rewind(cut)), *self.records[cut:]]

    async def _keep_alive(self, watcher: Watcher) -> None:
        try:
            while True:
                await trio.sleep(ALIVE_EVERY)
                await watcher.channel.send(ALIVE)
        except NetError as exc:
            self._left(watcher, exc)

    async def _send(self, watcher: Watcher, first: list[bytes]) -> None:
        try:
            for batch in batches(first):
                await self._give(watcher, batch)
            while watcher.queue or not watcher.closed:  # closed and empty: the end
                if not watcher.queue:
                    await watcher.wake.wait()
                    await trio.sleep(PACE)  # what else the seat writes meanwhile goes too
                await self._give(watcher, self._next_batch(watcher))
        except NetError as exc:
            self._left(watcher, exc)

    def _next_batch(self, watcher: Watcher) -> list[bytes]:
        """The next write's payloads off the queue (``BATCH`` bytes, one at least).  Once
        the game is over, one payload a write: the game no longer pays for the writes,
        and the end's wait (``end``) sees each payload a slow watcher takes, where a
        batch (some two deals) could take it longer than ``FED_GRACE`` while it moves."""
        queue = watcher.queue
        batch = [queue.popleft()] if queue else []
        size = sum(map(len, batch))
        most = 0 if self.ended else BATCH
        while queue and size + len(queue[0]) <= most:
            batch.append(queue.popleft())
            size += len(batch[-1])
        watcher.queued -= size
        if not queue:
            watcher.wake = trio.Event()
        return batch

    async def _give(self, watcher: Watcher, batch: list[bytes]) -> None:
        await watcher.channel.send_many(batch)
        self._taken_at = trio.current_time()  # it moves: the end waits on (``end``)

    async def _listen(self, watcher: Watcher, early: Sequence[bytes]) -> None:
        if not all(self._take(watcher, payload) for payload in early):
            return
        try:
            async for payload in watcher.channel:
                if not self._take(watcher, payload):
                    return
        except (FrameError, DecryptError) as exc:  # the channel refused a frame, and closed
            self._close(watcher, f"sent a frame the channel refused ({exc})", cut=True)
            return
        except NetError as exc:
            self._left(watcher, exc)
        watcher.scope.cancel()  # it closed its side: it left

    def _take(self, watcher: Watcher, payload: bytes) -> bool:
        """Hear one message of the watcher's; False if it cut the watcher off."""
        try:
            self._heard(watcher, payload)
        except CutOff as exc:
            self._close(watcher, str(exc), cut=True)
            return False
        return True

    def _left(self, watcher: Watcher, exc: NetError) -> None:
        view = watcher.view
        log.info("watchers: %s (%s) left: %s", view.name, view.fingerprint, exc)
        watcher.scope.cancel()

    def _heard(self, watcher: Watcher, payload: bytes) -> None:
        if watcher.chat is None or not is_chat(payload):
            raise CutOff(f"sent {what_came(payload)}")
        segment = self._chat.gate.segment if self._chat is not None else b""
        msg = watcher.chat.check(payload, segment, trio.current_time())
        if msg is not None:
            self._push(msg.raw, skip=watcher)

    def _close(self, watcher: Watcher, why: str, *, cut: bool) -> None:
        """Close ``watcher`` from any task, at once: its scope ends its tasks."""
        if watcher.why:
            return
        watcher.why = why
        view = watcher.view
        self.stats["cut off" if cut else "dropped"] += 1
        log.warning(
            "watchers: %s %s at %s (%s): %s",
            "cut off" if cut else "dropped",
            view.name,
            view.address,
            view.fingerprint,
            why,
        )
        if cut and self.door is not None:
            self.door.cut_off(view.address, trio.current_time(), f"watcher cut off: {why}")
        self._shut(watcher)
        watcher.scope.cancel()

    @staticmethod
    def _shut(watcher: Watcher) -> None:
        """Nothing more for ``watcher``; what waited for it is let go at once."""
        watcher.closed = True
        watcher.queue.clear()
        watcher.queued = 0
        watcher.wake.set()

    def _changed(self) -> None:
        self.tell(WatchersChanged(tuple(w.view for w in self.watchers), self.places))
        self._tell_seats()

    # -- the end ----------------------------------------------------------------------

    def over(self) -> None:
        """The host's game is over and its transcript whole: queue ``fed`` for every
        watcher and close the queues at once (the host's seat calls it once its linger
        is over, before the results' exchange, which the watchers need not wait for)."""
        if self.ended:
            return
        self.ended = True
        self._push(lb.encode_control(lb.Fed(len(self.records))))
        for watcher in self.watchers:
            watcher.closed = True  # its task sends what is queued, then ends
            watcher.wake.set()

    async def end(self, grace: float | None = None, limit: float | None = None) -> None:
        """The host's game is over: queue ``fed`` for every watcher, close the queues
        (``over``, if the seat did not yet), and wait for them to take the rest while
        one takes something at least every ``grace`` seconds (``FED_GRACE``), ``limit``
        (``FED_LIMIT``) at most."""
        grace = FED_GRACE if grace is None else grace
        limit = FED_LIMIT if limit is None else limit
        self.over()
        if not self.watchers:
            return
        self._taken_at = trio.current_time()
        idle = False
        with trio.move_on_after(limit):
            with trio.move_on_after(SAY_AFTER):  # most are fed at once: nothing to say
                await self._done.wait()
            if not self._done.is_set():  # the host's program waits for them: said so
                self.tell(WatchersCatchingUp(tuple(w.view for w in self.watchers), grace, limit))
            while not self._done.is_set():
                # one deadline, compared as the cancel scope compares it
                deadline = self._taken_at + grace
                if trio.current_time() >= deadline:
                    idle = True
                    break
                with trio.move_on_at(deadline):
                    await self._done.wait()
        why = (
            f"took nothing for {grace:.0f} s after the end"
            if idle
            else f"still taking the feed {limit:.0f} s after the end"
        )
        for watcher in list(self.watchers):
            self._close(watcher, why, cut=False)


def batches(payloads: list[bytes]) -> Iterator[list[bytes]]:
    """``payloads`` in order, in lists of ``BATCH`` bytes at most (one payload at least)."""
    batch: list[bytes] = []
    size = 0
    for payload in payloads:
        if batch and size + len(payload) > BATCH:
            yield batch
            batch, size = [], 0
        batch.append(payload)
        size += len(payload)
    if batch:
        yield batch
