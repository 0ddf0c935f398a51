"""The chat a watcher hears through the host, checked as a seat checks its own.

The host passes on the seats' signed lines (and, if it lets watchers write,
the watchers'): a relay, so the "came on its author's link" rule of
protocol/SPEC.md section 7.4 becomes "signed by a key the ``table`` envelope
seats" (a watcher's line: by a key that is not a seat's, and only where the
host said watchers may write).  Every other rule stands, in the spec's order:
the segment in play, the receiving limit, a fresh counter, the signature.  A
line that fails is dropped and counted; one whose signature fails is the host's
lie (it relayed what nobody signed) and is named so.  Sans-IO.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from p2pbelka.peer.chat import (
    FLOOD,
    FORGED,
    HEAR_BURST,
    HEAR_EVERY,
    MALFORMED,
    NOT_SEATED,
    OTHER_TABLE,
    REPLAYED,
    ChatDropped,
    ChatGate,
    RateLimit,
)
from p2pbelka.protocol.chat import ChatMsg, open_chat
from p2pbelka.protocol.codec import ProtocolError

MAX_WATCHER_KEYS = 64
"""Other watchers whose counters and limits are kept; lines of more are dropped."""


@dataclass(frozen=True, slots=True)
class HeardLine:
    msg: ChatMsg
    seat: int | None  # None: a watcher's line


class WatchChat:
    """What a watcher takes of the chat the host passes on."""

    def __init__(self) -> None:
        self.gate: ChatGate | None = None
        self.watchers_write = False
        self.dropped: Counter[str] = Counter()
        self._others: dict[bytes, tuple[RateLimit, list[int]]] = {}

    def seat(self, segment: bytes, keys: Sequence[bytes]) -> None:
        """The segment in play and its seats' keys (from its ``table`` envelope)."""
        if self.gate is None or list(keys) != self.gate.keys:
            self.gate = ChatGate(segment, -1, keys)
        elif segment != self.gate.segment:
            self.gate.enter(segment)

    def hear(self, raw: bytes, now: float) -> HeardLine:
        """The line, or ``ChatDropped`` (counted); ``FORGED`` means the host lied."""
        try:
            return self._hear(raw, now)
        except ChatDropped as exc:
            self.dropped[exc.reason] += 1
            raise

    def _hear(self, raw: bytes, now: float) -> HeardLine:
        gate = self.gate
        if gate is None:
            raise ChatDropped(NOT_SEATED, "no table yet")
        try:
            cheap = open_chat(raw, check_signature=False)
        except ProtocolError as exc:
            raise ChatDropped(MALFORMED, str(exc)) from None
        if cheap.sender in gate.keys:
            seat = gate.keys.index(cheap.sender)
            try:
                return HeardLine(gate.hear(seat, raw, now), seat)
            finally:
                self.dropped.update(gate.dropped)
                gate.dropped.clear()
        if not self.watchers_write:
            raise ChatDropped(NOT_SEATED, "a key the table does not seat")
        return HeardLine(self._watcher_line(cheap, raw, gate.segment, now), None)

    def _watcher_line(self, cheap: ChatMsg, raw: bytes, segment: bytes, now: float) -> ChatMsg:
        if cheap.game != segment:
            raise ChatDropped(OTHER_TABLE, f"segment {cheap.game.hex()}")
        known = self._others.get(cheap.sender)
        if known is None:
            if len(self._others) >= MAX_WATCHER_KEYS:
                raise ChatDropped(FLOOD, "too many watchers talking")
            known = self._others[cheap.sender] = (RateLimit(HEAR_BURST, HEAR_EVERY), [-1])
        limit, last = known
        if not limit.allow(now):
            raise ChatDropped(FLOOD, "a watcher")
        if cheap.counter <= last[0]:
            raise ChatDropped(REPLAYED, f"counter {cheap.counter}")
        try:
            msg = open_chat(raw)
        except ProtocolError as exc:
            raise ChatDropped(FORGED, str(exc)) from None
        last[0] = msg.counter
        return msg
