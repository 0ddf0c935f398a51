"""Watching a game: ask a host's lobby for its feed, follow it live, keep the file.

A watcher dials the host's lobby as a joiner does (same handshake, context and
invite code), answers the ``lobby`` with ``watch`` instead of ``hello``, and
once admitted (``watching``) gets every record of the host's transcript from
the index it asked for, then each new one as the host records it, with the
seats' chat, until ``fed``.  It holds no seat and signs nothing in the game:
each record goes to an ``Observer`` (``verify``'s table, fed one record at a
time), to the disk (``watchsave.py``) and to the front end, in that order.

When the feed breaks before ``fed`` (the host's program stopped, a cable), the
watcher says so and waits for the host to come back (``Away``: ``AWAY_FOR``
seconds unless told), dialling the same address and key again, asking from the
count it holds: a host resumed after a crash reopens its lobby (``lan/rehost.py``).
A host that sends nothing (not even ``alive``) for ``SILENT_FOR`` seconds is taken
for away too: a pulled cable leaves the connection hanging, with no byte and no
reset.  A host that took its seat back cut its transcript back (``rewind``): the
records past the cut are kept while the host feeds the same again, and set aside
beside the file from the first that differs, so the file stays the host's.
A host that feeds what does not verify is named and left, never dialled again;
what came before stays on the disk and says the same in ``verify``.  A host of
the first segment must have signed the ``table`` the feed opens with.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import trio

from p2pbelka.net.connection import SecureChannel, format_host_port
from p2pbelka.net.errors import ChannelClosed, NetError
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.net.pake import normal_code
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import FORGED, ChatDropped, ChatGate, watchers_named
from p2pbelka.peer.lan.events import (
    HostReached,
    HostUnreachable,
    LobbyEvent,
    LobbyRefused,
    StillTrying,
)
from p2pbelka.peer.lan.finding import Find
from p2pbelka.peer.lan.join import reach_lobby
from p2pbelka.peer.lan.watchers import ALIVE, ALIVE_EVERY, BEHIND
from p2pbelka.peer.results import keep_result
from p2pbelka.peer.seat import NetOptions, signer_of
from p2pbelka.peer.store import games_dir
from p2pbelka.peer.watchaway import AWAY_FOR, Away, look
from p2pbelka.peer.watchchat import WatchChat
from p2pbelka.peer.watchinbox import Inbox
from p2pbelka.peer.watchsave import WatchSave, new_meta
from p2pbelka.protocol.chat import is_chat, open_chat
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.observer import Observer
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

OUTBOX = 16
SILENT_FOR = 4 * ALIVE_EVERY
"""Seconds with nothing from a host that keeps the link alive (it sent ``alive`` on this
connection) after which the link is taken for dead: the host is away."""
INBOX = BEHIND
"""Bytes read from the host and not yet shown and written, at most (``watchinbox.py``):
as much again as the host holds for a watcher."""


Say = Callable[[str], None]
"""Sign and send a watcher's chat line (``ChatDropped``: empty, too long, slow down)."""


@dataclass(frozen=True, slots=True)
class WatchNote:
    """What the watch tells its watcher of itself, as data: its ``kind`` and the numbers
    and texts it names (``fields``).  The screens' layer words it (``ui/words/
    watchnotes.py``); this layer knows no language.

    Kinds: ``waiting`` (to be let in), ``no_answer`` (why, error, where), ``reached``
    (address, key), ``following`` (n: from record n again), ``lost`` (why, held, wait,
    delay: the host away, the first time), ``not_back`` (why, delay, left), ``gone``
    (wait, why, held: the watch stops), ``moved`` (where: announced there now), ``left``
    (why: the host lied), ``set_aside`` (n, path), ``forged_chat``, ``refused`` (why:
    the program's own refusal, worded as a host's), ``watchers`` (names: who watches)."""

    kind: str
    fields: Mapping[str, object] = field(default_factory=dict)


class WatchFront(Protocol):
    """What a watcher's front end (the text lines, the screen) is told.  ``admitted``
    gets ``send`` where the host lets watchers write ("off": None); call it in trio."""

    async def lobby(self, state: lb.LobbyState) -> None: ...  # the table before the start
    async def admitted(self, chat: str, send: Say | None = None) -> None: ...
    async def fed(self, table: Table, events: list[ev.Event]) -> None: ...  # each envelope
    async def chat(self, sender_name: str, text: str, watcher: bool) -> None: ...
    async def note(self, note: WatchNote) -> None: ...  # lost, trying again, refused, cut off
    async def ended(self, report: VerifyReport, path: Path | None) -> None: ...


class WatchRefused(Exception):
    """The host will not feed us (or is not there): why, in words."""


class HostLied(Exception):
    """The host's feed cannot be followed: what it sent, in words."""


class FeedBroken(Exception):
    """The connection ended before ``fed``."""


@dataclass
class WatchResult:
    report: VerifyReport
    path: Path | None  # the transcript (None: no record came)
    fed: bool  # the host said the game was over, and every record came
    why: str = ""  # why the watch ended otherwise


async def watch_game(
    identity: Identity,
    host: str,
    port: int,
    front: WatchFront,
    *,
    host_key: bytes | None = None,
    host_pin: str | None = None,
    invite: str | None = None,
    net: NetOptions | None = None,
    games: Path | None = None,
    away_for: float = AWAY_FOR,
    find: Find | None = None,
) -> WatchResult:
    """Watch the game whose lobby listens at ``host:port`` until its end, or until the
    host, its feed lost, has not come back for ``away_for`` seconds (``find``: where
    its table is announced meanwhile, if it came back on another port); ``games``:
    where the file goes (the games directory).  ``WatchRefused`` if the first dial
    finds no host, or the host says no; later failures end the watch with what was
    fed, said to ``front``."""
    net = net or NetOptions()
    try:
        code = normal_code(invite) if invite else None
    except ValueError as exc:
        raise WatchRefused(str(exc)) from None
    feed = Feed(identity, front, games if games is not None else games_dir(net.home))
    where = format_host_port(host, port)
    away = Away(away_for)
    why = ""
    while True:
        patience = net.reach_for if feed.host_key is None else 0.0
        try:
            channel = await reach_lobby(
                identity,
                (host, port),
                feed.host_key or host_key,
                host_pin,
                code,
                feed.on_dial,
                patience,
            )
        except LobbyRefused as exc:
            if feed.host_key is None:
                raise WatchRefused(str(exc)) from None
            # one dial: what it met, not "no answer for 0 s: given up"
            why = exc.why if isinstance(exc, HostUnreachable) else str(exc)
        else:
            feed.host_key = channel.peer_key
            try:
                async with channel:
                    await feed.follow(channel, where, away)
                return await feed.finish(fed=True)
            except FeedBroken as exc:
                why = str(exc)
            except HostLied as exc:
                # never dialled again: what it fed so far is kept, and said to be so
                await front.note(WatchNote("left", {"why": str(exc)}))
                return await feed.finish(fed=False, why=str(exc))
        first = away.since is None
        now = trio.current_time()
        delay = away.lost(now)
        if delay is None:
            await front.note(WatchNote("gone", {"wait": away.wait, "why": why, "held": feed.held}))
            return await feed.finish(fed=False, why=why)
        if first:
            lost = {"why": why, "held": feed.held, "wait": away.wait, "delay": delay}
            await front.note(WatchNote("lost", lost))
        else:
            left = {"why": why, "delay": delay, "left": away.left(now)}
            await front.note(WatchNote("not_back", left))
        found = await look(find, feed.host_key, feed.table_id, delay)
        if found is not None and found != (host, port):
            host, port = found
            where = format_host_port(host, port)
            await front.note(WatchNote("moved", {"where": where}))


class Feed:
    """The watch across its connections: the observer, the file, the chat."""

    def __init__(self, identity: Identity, front: WatchFront, games: Path) -> None:
        self.identity = identity
        self.front = front
        self.games = games
        self.observer = Observer()
        self.save: WatchSave | None = None
        self.chat = WatchChat()
        self.host_key: bytes | None = None
        self.table_name = ""
        self.table_id: bytes | None = None  # the lobby's, as its beacons name the table
        self.where = ""
        self.admitted = False
        self._away: Away | None = None
        self._say: trio.MemorySendChannel[bytes] | None = None
        self._mine: ChatGate | None = None  # our own lines' counter and sending limit
        self._warned: set[str] = set()
        self._alive = False  # the host sends ``alive`` on this connection
        self._tail: list[Envelope] = []
        """Records past the host's last ``rewind`` we hold yet: each dropped from the list
        as the host feeds it again, the rest set aside at the first that differs."""

    @property
    def held(self) -> int:
        """Records fed and kept: where the feed goes on from."""
        return len(self.observer.envelopes) - len(self._tail)

    async def on_dial(self, event: LobbyEvent) -> None:
        if isinstance(event, StillTrying):
            # the error itself too: the screen words it in the watcher's language
            why = {"why": event.why, "error": event.error, "where": event.where}
            await self.front.note(WatchNote("no_answer", why))
        elif isinstance(event, HostReached) and not self.admitted:
            reached = {"address": event.address, "key": event.fingerprint}
            await self.front.note(WatchNote("reached", reached))

    async def follow(self, channel: SecureChannel, where: str, away: Away | None = None) -> None:
        """One connection: the lobby, ``watch``, then the feed until ``fed`` (returns) or
        the end of the connection (``FeedBroken``); each record fed tells ``away``."""
        self.where, self._away = where, away
        self._alive = False
        first = await self._control(channel)
        if isinstance(first, lb.Refuse):
            raise (WatchRefused if not self.admitted else FeedBroken)(first.why)
        if not isinstance(first, lb.LobbyState):
            raise FeedBroken(f"expected the lobby, got {type(first).__name__}")
        self.table_name, self.table_id = first.name, first.game
        if not self.admitted:
            await self.front.lobby(first)
        self._say, lines = trio.open_memory_channel[bytes](OUTBOX)
        failed: list[Exception] = []  # raised out of the nursery, not in a group
        try:
            await channel.send(lb.encode_control(lb.Watch(self.identity.name, self.held)))
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._send_chat, channel, lines)
                inbox = Inbox(INBOX)
                nursery.start_soon(self._read, channel, inbox)
                try:
                    await self._feed(inbox)
                except (FeedBroken, HostLied, WatchRefused) as exc:
                    failed.append(exc)
                except NetError as exc:
                    failed.append(FeedBroken(str(exc)))
                nursery.cancel_scope.cancel()
        except NetError as exc:
            raise FeedBroken(str(exc)) from None
        finally:
            self._say.close()
            self._say = None
        if failed:
            raise failed[0]

    async def _control(self, channel: SecureChannel) -> lb.Control | None:
        try:
            with trio.fail_after(30):
                return lb.decode_control(await channel.receive())
        except (lb.LobbyError, NetError, trio.TooSlowError) as exc:
            raise FeedBroken(f"no lobby: {exc}") from None

    async def _feed(self, inbox: Inbox) -> None:
        while True:
            if inbox.empty and self.save is not None:
                await self.save.sync()  # all that came is shown: on the disk too
            payload = await inbox.take()  # the reader's end once all is taken: raised
            if is_chat(payload):
                await self._chat(payload)
                continue
            if lb.is_envelope(payload):
                if not self.admitted:
                    raise HostLied("a record came before the host said we may watch")
                await self._record(payload)
                continue
            try:
                msg = lb.decode_control(payload)
            except lb.LobbyError as exc:
                log.warning("watch: ignored a message from the host: %s", exc)
                continue
            if await self._on_control(msg):
                return

    async def _read(self, channel: SecureChannel, inbox: Inbox) -> None:
        """The host's payloads into ``inbox`` as they come, whatever the screen and the
        disk are doing (``watchinbox.py``); ``alive`` ends here.  Then why the reading
        ended: the connection closed, went silent or broke."""
        try:
            while (payload := await self._next(channel)) is not None:
                if payload == ALIVE:
                    self._alive = True
                else:
                    await inbox.put(payload)
            end = FeedBroken("the host closed the connection before the game's end")
        except FeedBroken as exc:
            end = exc
        except NetError as exc:
            end = FeedBroken(str(exc))
        inbox.close(end)

    async def _next(self, channel: SecureChannel) -> bytes | None:
        """The host's next payload; None once it closed the connection."""
        wait = SILENT_FOR if self._alive else math.inf  # an older host sends no ``alive``
        with trio.move_on_after(wait):
            try:
                return await channel.receive()
            except ChannelClosed:
                return None
        raise FeedBroken(f"nothing came for {wait:g} s")

    async def _on_control(self, msg: lb.Control) -> bool:
        """True at ``fed`` with every record held."""
        if isinstance(msg, lb.LobbyState):
            await self.front.lobby(msg)
        elif isinstance(msg, lb.Wait):
            await self.front.note(WatchNote("waiting"))
        elif isinstance(msg, lb.Refuse):
            raise (WatchRefused if not self.admitted else FeedBroken)(msg.why)
        elif isinstance(msg, lb.Watching):
            await self._admitted(msg.chat)
        elif isinstance(msg, lb.Alive):
            self._alive = True
        elif isinstance(msg, lb.Rewind):
            if msg.records < self.held:
                self._tail = self.observer.envelopes[msg.records :]
        elif isinstance(msg, lb.Fed):
            await self._set_aside()
            if msg.records == self.held:
                return True
            if msg.records < self.held:
                raise HostLied(
                    f"the host says its transcript holds {msg.records} records, but fed {self.held}"
                )
            raise FeedBroken(f"the host's transcript holds {msg.records} records, {self.held} came")
        return False

    async def _admitted(self, chat: str) -> None:
        self.chat.watchers_write = chat != "off"
        if self.admitted:
            await self.front.note(WatchNote("following", {"n": self.held}))
            return
        self.admitted = True
        await self.front.admitted(chat, self._say_line if chat != "off" else None)

    async def _record(self, payload: bytes) -> None:
        try:
            envelope = open_envelope(payload)
        except ProtocolError as exc:
            aside = self.save.refused(payload) if self.save is not None else None
            kept = f" (kept in {aside})" if aside else ""
            raise HostLied(f"record {self.held} does not decode: {exc}{kept}") from None
        if self._tail:
            if self._tail[0].raw == payload:  # one we hold: the host's again
                self._tail.pop(0)
                if self._away is not None:
                    self._away.fed()
                return
            await self._set_aside()
        if self.held == 0 and envelope.sender != self.host_key:
            raise HostLied("the feed does not open with a table the host signed")
        before = self.held
        events = self.observer.feed(envelope)
        if self._away is not None:
            self._away.fed()
        if self.save is None and self.observer.envelopes:
            first = self.observer.envelopes[0]
            meta = new_meta(first.game, self.where, self.host_key or b"", self.table_name)
            self.save = WatchSave.create(self.games, first.game, meta)
        if self.save is not None:
            self.save.write(self.observer.envelopes[before:])
        table = self.observer.table
        if table is not None and table.state.setup is not None:
            self.chat.seat(table.game_id, [s.key for s in table.state.setup.seats])
        if table is not None:
            await self.front.fed(table, events)
        if self.observer.stopped:
            raise HostLied(f"the feed does not verify: {self.observer.report().error}")

    async def _set_aside(self) -> None:
        """Drop the records the host's transcript no longer holds (after a ``rewind``):
        moved to a file beside ours, the observer replays the rest again."""
        if not self._tail:
            return
        kept, self._tail = self.observer.envelopes[: self.held], []
        aside = self.save.set_aside(len(kept)) if self.save is not None else None
        self.observer = Observer()
        for envelope in kept:
            self.observer.feed(envelope)
        await self.front.note(WatchNote("set_aside", {"n": len(kept), "path": aside}))

    async def _chat(self, raw: bytes) -> None:
        try:
            heard = self.chat.hear(raw, trio.current_time())
        except ChatDropped as exc:
            if exc.reason == FORGED:
                await self.front.note(WatchNote("forged_chat"))
            elif exc.reason not in self._warned:
                self._warned.add(exc.reason)
                log.warning("watch: dropped chat: %s (further ones counted)", exc)
            return
        if self.save is not None:
            self.save.chat_log.append(heard.msg)
        table = self.observer.table
        names = [s.name for s in table.state.setup.seats] if table and table.state.setup else []
        named = watchers_named(heard.seat, heard.msg.text) if heard.seat is not None else None
        if named is not None:  # the host's word on who watches: a note, not a line
            await self.front.note(WatchNote("watchers", {"names": named}))
        elif heard.seat is not None and heard.seat < len(names):
            await self.front.chat(names[heard.seat], heard.msg.text, False)
        else:
            await self.front.chat(f"[{fingerprint(heard.msg.sender)}]", heard.msg.text, True)

    def _say_line(self, text: str) -> None:
        """Sign a line of ours for the segment in play and queue it for the host."""
        gate = self.chat.gate
        if gate is None or self._say is None:
            raise ChatDropped("not now", "no table yet")
        if self._mine is None:
            self._mine = ChatGate(gate.segment, -1, gate.keys)
        mine = self._mine
        if mine.segment != gate.segment:
            mine.enter(gate.segment)
        msg = mine.compose(self.identity, text, trio.current_time())
        try:
            self._say.send_nowait(msg.raw)
        except trio.WouldBlock:
            raise ChatDropped("slow down", "the host is slow to take them") from None

    async def _send_chat(
        self, channel: SecureChannel, lines: trio.MemoryReceiveChannel[bytes]
    ) -> None:
        try:
            async for raw in lines:
                await channel.send(raw)
                await self.front.chat(self.identity.name, open_chat(raw).text, True)
        except NetError:
            pass  # the feed's own receive sees the connection end and says so

    async def finish(self, *, fed: bool, why: str = "") -> WatchResult:
        await self._set_aside()
        report = self.observer.report()
        path = self.save.transcript_path if self.save is not None else None
        if self.save is not None:
            await self.save.sync()
            self.save.end(finished=fed, why=why)
            table = self.observer.table
            if fed and table is not None and (report.finished or report.proven):
                keep_result(table, signer_of(self.identity), self.save.transcript_path, "watched")
        await self.front.ended(report, path)
        return WatchResult(report, path, fed, why)
