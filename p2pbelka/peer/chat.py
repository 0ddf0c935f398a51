"""Chat at the table: what a seat may say, how often, and where it goes.

The wire format is ``p2pbelka.protocol.chat``.  Here is the policy around it:

- ``RateLimit``, a token bucket; ``ChatGate``, the sans-IO state of one seat's
  chat (its counter, the sending limit, and per other seat the last counter
  heard and a receiving limit).  ``ChatGate.hear`` drops what is not genuine,
  fresh and in measure, and says why (``ChatDropped``); nothing a peer sends
  makes it raise anything else.
- ``Chat``, the seat's chat during a game: ``say`` signs and broadcasts through
  the mesh, ``heard`` takes what the mesh received, ``deliver`` hands every
  line (ours included) to the front end in its own task, so a slow screen never
  holds up the mesh, nor the mesh the table.
- ``ChatLog``: the signed chat of a game, kept beside its transcript
  (``chat.log`` in the game's directory), read back on resume: earlier lines
  are shown again and their counters stay used.

Chat never reaches the table: it is not an envelope, has no place in a chain,
and a bad chat message blames nobody; it is dropped and counted.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import trio

from p2pbelka.peer import wallclock
from p2pbelka.protocol.chat import (
    MAX_CHAT_TEXT,
    MAX_COUNTER,
    ChatMsg,
    ChatSigner,
    clean_chat,
    open_chat,
    seal_chat,
)
from p2pbelka.protocol.codec import ProtocolError

log = logging.getLogger(__name__)

_opened: ContextVar[Callable[[Chat], None] | None] = ContextVar("chat_opened", default=None)


@contextlib.contextmanager
def opened(hook: Callable[[Chat], None]) -> Iterator[None]:
    """Tell ``hook`` every game chat the block (and every task it starts) opens: a
    simulation's seam, to read what each seat's screen would show (``Chat.shown``)
    without a front end of its own in the chat."""
    reset = _opened.set(hook)
    try:
        yield
    finally:
        _opened.reset(reset)


SEND_BURST, SEND_EVERY = 5, 2.0
"""A seat may send 5 messages in a row, then one every 2 s."""
HEAR_BURST, HEAR_EVERY = 10, 1.0
"""What a receiver lets through from one seat: twice the sender's measure, so a
well-behaved sender is never cut off by jitter; anything beyond is a flood."""
CHAT_LOG = "chat.log"
LINES_QUEUE = 64
"""Lines waiting for the front end; more are dropped (the limits keep it far below)."""


WATCHING = "/watching"
"""A chat line of the host's seat (seat 0) that opens with this word lists who watches
the table (protocol/SPEC.md, section 7.5): a screen shows the names beside the seats,
not as a line; an older peer shows the line, which still reads right."""


def watching_line(names: Sequence[str]) -> str:
    """The host's line naming who watches (``/watching`` alone: nobody now), within a
    chat line's length: names past it are counted (``+2``), not cut."""
    shown = list(names)
    while shown:
        rest = len(names) - len(shown)
        text = clean_chat(f"{WATCHING} {', '.join(shown)}" + (f" +{rest}" if rest else ""))
        if len(text) <= MAX_CHAT_TEXT:
            return text
        shown.pop()
    return WATCHING + (f" +{len(names)}" if names else "")


def watchers_named(seat: int, text: str) -> tuple[str, ...] | None:
    """The names a host's watching line gives (None: not such a line, or not the host's)."""
    if seat != 0 or not (text == WATCHING or text.startswith(WATCHING + " ")):
        return None
    rest = text[len(WATCHING) :].strip()
    return tuple(name for name in rest.split(", ") if name) if rest else ()


class RateLimit:
    """A token bucket: ``burst`` at once, then one more every ``every`` seconds."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = burst
        self.every = every
        self._tokens = float(burst)
        self._at: float | None = None

    def _fill(self, now: float) -> None:
        if self._at is not None and now > self._at:
            self._tokens = min(float(self.burst), self._tokens + (now - self._at) / self.every)
        if self._at is None or now > self._at:
            self._at = now

    def allow(self, now: float) -> bool:
        """Take one token if there is one."""
        self._fill(now)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0 if one is)."""
        self._fill(now)
        return max(0.0, (1.0 - self._tokens) * self.every)


class ChatDropped(Exception):
    """A chat message not said (``reason`` for the sender's front end) or not heard
    (``reason`` is the count's key: see ``ChatGate.hear``)."""

    def __init__(self, reason: str, detail: str = "", wait: float = 0.0) -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail
        self.wait = wait


# Why a message is not said.
EMPTY, TOO_LONG, SLOW_DOWN = "empty", "too long", "slow down"
# Why a message is not heard: the keys of ``ChatGate.dropped``.
MALFORMED, NOT_SEATED, NOT_ITS_LINK, OTHER_TABLE = (
    "malformed",
    "not seated",
    "not from its author",
    "another table or segment",
)
FLOOD, REPLAYED, FORGED = "flood", "replayed", "bad signature"


class ChatGate:
    """One seat's chat state, sans-IO: ``compose`` what we say, ``hear`` what comes.

    ``keys[s]`` is seat ``s``'s key (ours is ``keys[me]``).  Counters only grow:
    ours is the wall clock in milliseconds, or one more than the last if the clock
    stepped back, so a restarted peer that forgot it still goes on upwards.
    """

    def __init__(
        self,
        segment: bytes,
        me: int,
        keys: Sequence[bytes],
        *,
        earlier: Sequence[bytes] = (),
        wall_ms: Callable[[], int] = lambda: int(wallclock.now() * 1000),
    ) -> None:
        self.segment = segment
        """The segment in play here (the game id in the first): lines are signed for it,
        and a line heard for any other is dropped (protocol/SPEC.md section 7.4)."""
        self.segments = {*earlier, segment}
        """Every segment of this game so far: a saved line of any of them is read back."""
        self.me = me
        self.keys = list(keys)
        self.wall_ms = wall_ms
        self.counter = 0  # the last counter we signed
        self.last: dict[int, int] = {}  # per seat: the highest counter heard
        self.send_limit = RateLimit(SEND_BURST, SEND_EVERY)
        self.hear_limits = {s: RateLimit(HEAR_BURST, HEAR_EVERY) for s in range(len(keys))}
        self.dropped: Counter[str] = Counter()
        self.ahead: dict[int, bytes] = {}
        """Per seat, its latest line for a segment this game never was in here: it may be
        the next one, which its author entered first (``enter`` hands it back)."""

    def compose(self, signer: ChatSigner, text: str, now: float) -> ChatMsg:
        """Clean and sign ``text``; ``ChatDropped`` (empty, too long, slow down) if not."""
        clean = clean_chat(text)
        if not clean:
            raise ChatDropped(EMPTY)
        if len(clean) > MAX_CHAT_TEXT:
            raise ChatDropped(TOO_LONG, f"{len(clean)} characters, at most {MAX_CHAT_TEXT}")
        if not self.send_limit.allow(now):
            wait = self.send_limit.wait(now)
            raise ChatDropped(SLOW_DOWN, f"wait {wait:.0f} s", wait)
        self.counter = min(MAX_COUNTER - 1, max(self.counter + 1, self.wall_ms()))
        return seal_chat(signer, self.segment, self.counter, clean)

    def enter(self, segment: bytes) -> list[tuple[int, bytes]]:
        """The game goes on in another segment (a seat changed hands): from now on lines
        are said and heard for it alone (one said for the segment before is dropped,
        like a line lost while a link was down).  The lines of it that came before we
        entered it, to be heard now (the latest of each seat, ``ahead``): a seat that
        entered first says its standing line at once (SPEC 7.5)."""
        self.segment = segment
        self.segments.add(segment)
        ahead, self.ahead = self.ahead, {}
        return [(seat, raw) for seat, raw in sorted(ahead.items()) if _segment(raw) == segment]

    def hear(self, seat: int, raw: bytes, now: float) -> ChatMsg:
        """Check a payload that came on seat ``seat``'s link; the message, or
        ``ChatDropped`` (counted in ``dropped``).  The cheap checks come first, and
        the flood limit before the signature: a flood costs a decode per message."""
        try:
            return self._check(seat, raw, now)
        except ChatDropped as exc:
            self.dropped[exc.reason] += 1
            raise

    def _check(self, seat: int, raw: bytes, now: float) -> ChatMsg:
        if not 0 <= seat < len(self.keys) or seat == self.me:
            raise ChatDropped(NOT_SEATED, f"seat {seat}")
        try:
            msg = open_chat(raw, check_signature=False)
        except ProtocolError as exc:
            raise ChatDropped(MALFORMED, str(exc)) from None
        if msg.sender != self.keys[seat]:
            # Chat is not relayed: each author sends to every seat itself.
            why = NOT_SEATED if msg.sender not in self.keys else NOT_ITS_LINK
            raise ChatDropped(why, f"signed by another key than seat {seat}'s")
        if msg.game != self.segment:
            if msg.game not in self.segments:
                self.ahead[seat] = raw  # (one a seat: a seat sending made-up ones holds one)
            raise ChatDropped(OTHER_TABLE, f"segment {msg.game.hex()}")
        if not self.hear_limits[seat].allow(now):
            raise ChatDropped(FLOOD, f"seat {seat}")
        if msg.counter <= self.last.get(seat, -1):
            raise ChatDropped(REPLAYED, f"counter {msg.counter}")
        try:
            open_chat(raw)
        except ProtocolError as exc:
            raise ChatDropped(FORGED, str(exc)) from None
        self.last[seat] = msg.counter
        return msg

    def remember(self, msg: ChatMsg) -> int | None:
        """A message from the saved log: its counter stays used.  The seat, or None if
        the key is not seated here or the message is of another game (of no segment of
        this one)."""
        if msg.game not in self.segments or msg.sender not in self.keys:
            return None
        seat = self.keys.index(msg.sender)
        if seat == self.me:
            self.counter = max(self.counter, msg.counter)
        else:
            self.last[seat] = max(self.last.get(seat, -1), msg.counter)
        return seat


def _segment(raw: bytes) -> bytes | None:
    """The segment a line kept in ``ChatGate.ahead`` was said for (it decoded once)."""
    try:
        return open_chat(raw, check_signature=False).game
    except ProtocolError:
        return None


# --- the chat of a game ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line for the front end: ``seat`` said ``text``.  ``mine``: our own line;
    ``earlier``: read back from the saved log of a resumed game."""

    seat: int
    name: str
    text: str
    mine: bool = False
    earlier: bool = False


@runtime_checkable
class Chatting(Protocol):
    """A front end that takes part in the chat (a screen, the text lines).  A front
    end without these (a bot) is left out: the chat still runs, nobody reads it."""

    def join_chat(self, chat: Chat) -> None:
        """The game's chat, before any line arrives: call ``chat.say`` to talk."""
        ...

    async def on_chat(self, line: ChatLine) -> None: ...


class ChatLog:
    """The signed chat of one game: one message a line, in hex, appended as it goes.

    A line that does not read back (a torn write, an edit) is skipped with a
    warning and left in the file; a message of another game or key is skipped too.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> list[ChatMsg]:
        try:
            text = self.path.read_text(encoding="ascii", errors="replace")
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.warning("cannot read the chat log %s: %s", self.path, exc)
            return []
        out, bad = [], 0
        for line in text.splitlines():
            try:
                out.append(open_chat(bytes.fromhex(line.strip())))
            except (ValueError, ProtocolError):
                bad += 1
        if bad:
            log.warning("skipped %d unreadable line(s) of the chat log %s", bad, self.path)
        return out

    def append(self, msg: ChatMsg) -> None:
        try:
            with open(self.path, "ab+") as f:  # appends go to the end, wherever we read
                size = f.seek(0, os.SEEK_END)
                torn = False
                if size:
                    f.seek(size - 1)
                    torn = f.read(1) != b"\n"  # a torn last line stays one bad line
                f.write((b"\n" if torn else b"") + msg.raw.hex().encode() + b"\n")
        except OSError as exc:  # chat is not the game: a full disk must not stop it
            log.warning("cannot write the chat log %s: %s", self.path, exc)


class Chat:
    """One seat's chat during a game, wired to the mesh by ``play_seat``.

    ``send`` puts a signed payload on every link (``Mesh.send_chat``); the mesh
    calls ``heard`` for every chat payload it receives.  Every line, ours and
    the others', reaches the front end through ``deliver``.
    """

    def __init__(
        self,
        signer: ChatSigner,
        segment: bytes,
        me: int,
        keys: Sequence[bytes],
        names: Sequence[str],
        send: Callable[[bytes], None],
        *,
        log_path: Path | None = None,
        earlier: Sequence[bytes] = (),
    ) -> None:
        """``segment``: the segment in play (the game id in the first); ``earlier``: the
        game's segments before it, whose saved lines are read back."""
        self.signer = signer
        self.gate = ChatGate(segment, me, keys, earlier=earlier)
        self.names = list(names)
        self.send = send
        self.log = ChatLog(log_path) if log_path is not None else None
        self.front_end: Chatting | None = None
        self._lines_in, self._lines = trio.open_memory_channel[ChatLine](LINES_QUEUE)
        self._warned: set[tuple[int, str]] = set()
        self.taps: list[Callable[[ChatMsg], None]] = []
        """Told each line sent or accepted, as signed (the host's watchers' feed); a
        tap must return at once: the mesh's task calls it."""
        self.standing: bytes | None = None
        """Our latest line said as standing (``say_standing``: the host's word on who
        watches, SPEC 7.5): every link gets it again as it opens, so a seat whose link
        was down when it was said still hears it."""
        self._standing_text: str | None = None
        self._due: str | None = None  # a standing line the sending limit held back
        self._due_at = 0.0
        self._waiting = False  # a task waits to say it (in ``nursery``)
        self.nursery: trio.Nursery | None = None
        """Where a standing line the sending limit held back waits to be said (the
        game's, while it is open: ``waiting_in``); a task only while one waits."""
        self.shown: list[Callable[[ChatLine], None]] = []
        """Told each line as it goes to the front end (or would, with one attached): a
        simulation's screens (``opened``); it must return at once."""
        self.earlier: list[ChatLine] = []
        self._read_back: dict[int, ChatMsg] = {}
        """Per seat, its last line naming who watches that the saved log holds (the
        host's): its standing line, which it sends again as our link opens (SPEC 7.5)."""
        if self.log is not None:
            for msg in self.log.read():
                seat = self.gate.remember(msg)
                if seat is not None:
                    self.earlier.append(self._line(seat, msg.text, earlier=True))
                    if watchers_named(seat, msg.text) is not None:
                        self._read_back[seat] = msg
        hook = _opened.get()
        if hook is not None:
            hook(self)

    @property
    def dropped(self) -> Counter[str]:
        return self.gate.dropped

    def enter(self, segment: bytes) -> None:
        """The game went on in the continuation ``segment``: chat is bound to it now, and
        our standing line is said again for it (one of the segment left is dropped)."""
        left = segment != self.gate.segment
        ahead = self.gate.enter(segment)
        if left and self._due is None and self._standing_text is not None:
            self.say_standing(self._standing_text)
        for seat, raw in ahead:  # said as its author entered the segment, before we did
            self.heard(seat, raw)

    def _line(self, seat: int, text: str, *, earlier: bool = False) -> ChatLine:
        name = self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"
        return ChatLine(seat, name, text, seat == self.gate.me, earlier)

    def attach(self, front_end: Chatting) -> None:
        """Let ``front_end`` take part (``join_chat``); run ``deliver`` to feed it.
        Without one (a bot) lines are checked and logged, and shown to nobody."""
        self.front_end = front_end
        front_end.join_chat(self)

    def say(self, text: str) -> None:
        """Sign and send ``text`` to every seat; ``ChatDropped`` (empty, too long, slow
        down) if not.  Call it in trio (a screen goes through its bridge)."""
        self._said(self.gate.compose(self.signer, text, trio.current_time()))

    def _said(self, msg: ChatMsg) -> None:
        self.send(msg.raw)
        self._keep(msg)
        self._show(self._line(self.gate.me, msg.text))

    @contextlib.contextmanager
    def waiting_in(self, nursery: trio.Nursery) -> Iterator[None]:
        """Let a standing line the sending limit holds back wait in ``nursery`` for as
        long as this block lasts.  A line held back after it (a watcher who came as
        the game closed) is not said: a closing nursery takes no new task, and the
        game it would tell of is over."""
        self.nursery = nursery
        try:
            yield
        finally:
            self.nursery = None

    def say_standing(self, text: str) -> None:
        """Say ``text`` as our standing line (``standing``), replacing the one before:
        now, or, if the sending limit refuses it, as soon as the limit allows (a task in
        ``nursery``), unless a later one replaced it first.  The latest one always gets
        through.  Call it in trio."""
        self._due = text
        self._say_due()

    def _say_due(self) -> None:
        text, now = self._due, trio.current_time()
        if text is None:
            return
        try:
            msg = self.gate.compose(self.signer, text, now)
        except ChatDropped as exc:
            if exc.reason == SLOW_DOWN:  # said once the limit allows
                self._due_at = now + max(exc.wait, 0.001)
                if not self._waiting and self.nursery is not None:
                    self._waiting = True
                    self.nursery.start_soon(self._say_when_allowed)
            else:  # never said, however long we wait (our own text: a bug)
                log.warning("a standing chat line not said: %s", exc)
                self._due = None
            return
        self._due, self._standing_text, self.standing = None, text, msg.raw
        self._said(msg)

    async def _say_when_allowed(self) -> None:
        try:
            while self._due is not None:
                await trio.sleep_until(self._due_at)
                self._say_due()
        finally:
            self._waiting = False

    def heard(self, seat: int, raw: bytes) -> None:
        """A chat payload from seat ``seat``'s link: checked, logged, shown, or dropped
        and counted (the first of each kind from a seat is logged)."""
        try:
            msg = self.gate.hear(seat, raw, trio.current_time())
        except ChatDropped as exc:
            # a replay is counted, not told: every re-dialled link brings the author's
            # standing line back (``standing``), heard already
            if exc.reason == REPLAYED:
                self._standing_again(seat, raw)
            elif (seat, exc.reason) not in self._warned:
                self._warned.add((seat, exc.reason))
                log.warning("dropped chat from seat %d: %s (further ones counted)", seat, exc)
            return
        self._read_back.pop(seat, None)  # a newer line of that seat: the saved one is old
        self._keep(msg)
        self._show(self._line(seat, msg.text))

    def _standing_again(self, seat: int, raw: bytes) -> None:
        """A replay of the host's line naming who watches, the one our saved log holds
        last: its standing line, sent again as our link opened, so it stands still.  A
        resumed program shows no such line read back from its log (out of date, SPEC
        7.5), so it shows this one, once (not logged again: the log has it)."""
        kept = self._read_back.get(seat)
        if kept is not None and kept.raw == raw:
            del self._read_back[seat]
            self._show(self._line(seat, kept.text))

    def _keep(self, msg: ChatMsg) -> None:
        if self.log is not None:
            self.log.append(msg)
        for tap in self.taps:
            tap(msg)

    def _show(self, line: ChatLine) -> None:
        for tap in self.shown:
            tap(line)
        if self.front_end is None:
            return
        try:
            self._lines_in.send_nowait(line)
        except trio.WouldBlock:
            self.gate.dropped["backlog"] += 1

    async def deliver(self) -> None:
        """Hand the attached front end the earlier lines, then every new one, until
        cancelled (in a task of its own: a slow screen never holds up the mesh)."""
        if self.front_end is None:
            return
        for line in self.earlier:
            await self.front_end.on_chat(line)
        async for line in self._lines:
            await self.front_end.on_chat(line)
