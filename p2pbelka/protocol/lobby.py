"""The lobby and recovery messages: the codec.  Sans-IO.

These travel inside the authenticated channel (``p2pbelka.net``), so the channel
already proves who sent them: they are not signed again.  A channel payload is
either a game envelope (a msgpack array, first byte 0x92) or one of these
messages (a msgpack map with a ``t`` key).  Every map is canonical msgpack with
exactly the keys listed in protocol/SPEC.md, section 7 ("Lobby"); anything
else is refused with a reason, and the caller logs it and goes on.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError, decode, encode
from p2pbelka.rules import registry

MIN_SEATS = 2
N_SEATS = 4
"""The most seats a table has (Belka: four; Belot: two or three)."""
MAX_CONTROL = 8 * 1024
"""Largest control message: a lobby snapshot with four names and the options fits easily."""
MAX_VARIANT = 16
MAX_NAME = 32
MAX_WHY = 200
ENVELOPE_PREFIX = 0x92  # msgpack fixarray of two: [inner, sig]


class LobbyError(ProtocolError):
    """A control message that breaks the lobby format."""


# --- the messages -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Joiner -> host: who I am, where the others can reach me once play starts, and my
    fresh nonce for this table (drawn for this lobby connection): the ``table`` must
    carry it at my seat, and the game id is derived from every seat's nonce."""

    name: str
    addr: str  # "" = the address the host sees the connection come from
    port: int
    nonce: bytes


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """Joiner -> host: move me to this free seat (Belka: seats 0 and 2 play 1 and 3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Ready:
    """Joiner -> host: ready to start (or not) with the rules of revision ``rules``: a
    ready for rules the host has changed since is ignored, so nobody starts a game
    under rules they have not seen."""

    ready: bool
    rules: int = 0


@dataclass(frozen=True, slots=True)
class SeatView:
    key: bytes
    name: str
    ready: bool


@dataclass(frozen=True, slots=True)
class LobbyState:
    """Host -> joiner, first on every lobby connection and again on every change: the
    table, its table id (the beacons'; only a lobby's name: the game id is derived
    from every seat's nonce when the game starts), the game played
    (``variant``, a name ``rules.registry`` knows) and its rules, and who sits where (one
    entry per seat: the seat count is the table's).  ``rules`` counts the host's
    changes of preset and options; each one un-readies every joiner."""

    game: bytes
    name: str
    preset: str
    options: dict[str, str]
    seats: tuple[SeatView | None, ...]
    variant: str = registry.DEFAULT
    rules: int = 0

    def seat_of(self, key: bytes) -> int | None:
        for seat, view in enumerate(self.seats):
            if view is not None and view.key == key:
                return seat
        return None


@dataclass(frozen=True, slots=True)
class Refuse:
    """Host -> joiner, before closing: why it cannot sit."""

    why: str


@dataclass(frozen=True, slots=True)
class Wait:
    """Host -> joiner, after its hello: the host is deciding whether it may sit.  The
    seat counts only once the host lets it in (a ``lobby`` listing it follows) or
    the joiner gets ``refuse``."""


@dataclass(frozen=True, slots=True)
class Start:
    """Host -> joiners: the game is on.  ``table`` is the signed ``table`` envelope
    (under the game id its seats' nonces give); ``peers[i]`` is where seat ``i``
    listens for the mesh (seat 0's address is "": the address the joiner dialled)."""

    table: bytes
    peers: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Resend:
    """Either way, during play: send me every envelope of seat ``i`` from sequence
    number ``start[i]`` on that you hold, then ``Resent``."""

    start: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Resent:
    """The end of an answer to ``Resend``."""


@dataclass(frozen=True, slots=True)
class Done:
    """My table is finished; I stay a little to answer resend requests."""


@dataclass(frozen=True, slots=True)
class Watch:
    """Watcher -> host, instead of ``hello``: let me follow the game, from record
    ``start`` of your transcript on (on the wire ``from``: 0 the first time, the
    count it holds when it comes back)."""

    name: str
    start: int = 0


@dataclass(frozen=True, slots=True)
class Watching:
    """Host -> watcher: admitted; the feed follows.  ``chat``: who a watcher's lines
    reach (``CHAT_MODES``)."""

    chat: str = "off"


@dataclass(frozen=True, slots=True)
class Fed:
    """Host -> watcher, last: the host's game ended with ``records`` records in its
    transcript (the watcher holds them all if its count is the same)."""

    records: int


@dataclass(frozen=True, slots=True)
class Rewind:
    """Host -> watcher: the host's transcript now holds only its first ``records``
    records (the host took its seat back and set the rest aside, SPEC section 9.5);
    the feed goes on from there."""

    records: int


@dataclass(frozen=True, slots=True)
class Alive:
    """Host -> watcher, every few seconds: the link is alive, however quiet the game."""


CHAT_MODES = ("off", "watchers")
"""A watcher's lines reach nobody ("off"), or the other watchers ("watchers"); never
the seats (protocol/SPEC.md section 7.5 says why)."""
MAX_RECORDS = 2**32
"""Record counts and indexes on the wire are below this (a game has thousands)."""

Control = (
    Hello
    | TakeSeat
    | Ready
    | LobbyState
    | Refuse
    | Wait
    | Start
    | Resend
    | Resent
    | Done
    | Watch
    | Watching
    | Fed
    | Rewind
    | Alive
)


# --- encoding -------------------------------------------------------------------------


def encode_control(msg: Control) -> bytes:
    body: dict[str, object]
    if isinstance(msg, Hello):
        body = {
            "t": "hello",
            "name": msg.name,
            "addr": msg.addr,
            "port": msg.port,
            "nonce": msg.nonce,
        }
    elif isinstance(msg, TakeSeat):
        body = {"t": "seat", "seat": msg.seat}
    elif isinstance(msg, Ready):
        body = {"t": "ready", "ready": msg.ready, "rules": msg.rules}
    elif isinstance(msg, LobbyState):
        seats = [None if s is None else [s.key, s.name, s.ready] for s in msg.seats]
        options = dict(sorted(msg.options.items()))
        body = {"t": "lobby", "game": msg.game, "name": msg.name, "preset": msg.preset}
        body["options"] = options
        body["seats"] = seats
        body["variant"] = msg.variant
        body["rules"] = msg.rules
    elif isinstance(msg, Refuse):
        body = {"t": "refuse", "why": msg.why}
    elif isinstance(msg, Wait):
        body = {"t": "wait"}
    elif isinstance(msg, Start):
        body = {"t": "start", "table": msg.table, "peers": [list(p) for p in msg.peers]}
    elif isinstance(msg, Resend):
        body = {"t": "resend", "start": list(msg.start)}
    elif isinstance(msg, Resent):
        body = {"t": "resent"}
    elif isinstance(msg, Watch):
        body = {"t": "watch", "name": msg.name, "from": msg.start}
    elif isinstance(msg, Watching):
        body = {"t": "watching", "chat": msg.chat}
    elif isinstance(msg, Fed):
        body = {"t": "fed", "records": msg.records}
    elif isinstance(msg, Rewind):
        body = {"t": "rewind", "records": msg.records}
    elif isinstance(msg, Alive):
        body = {"t": "alive"}
    else:
        body = {"t": "done"}
    return encode(dict(sorted(body.items())))


def is_envelope(payload: bytes) -> bool:
    return bool(payload) and payload[0] == ENVELOPE_PREFIX


def decode_control(payload: bytes) -> Control:
    """Parse one control message; ``LobbyError`` naming the field otherwise."""
    if len(payload) > MAX_CONTROL:
        raise LobbyError(f"{len(payload)} bytes is over the limit of {MAX_CONTROL}", "control")
    try:
        body = decode(payload, "control")
    except ProtocolError as exc:
        raise LobbyError(exc.reason, exc.where) from None
    if type(body) is not dict:
        raise LobbyError("expected a map", "control")
    if list(body) != sorted(body, key=str):
        raise LobbyError("map keys are not in sorted order", "control")
    kind = body.get("t")
    parser = _PARSERS.get(kind) if type(kind) is str else None
    if parser is None:
        raise LobbyError(f"unknown message type {kind!r:.20}", "control.t")
    expected, parse = parser
    keys = set(body) - {"t"}
    if keys != expected:
        raise LobbyError(f"expected the keys {sorted(expected)}, got {sorted(keys)}", str(kind))
    try:
        return parse(body)
    except ProtocolError as exc:
        raise LobbyError(exc.reason, f"{kind}.{exc.where}") from None


def _name(value: object, where: str, limit: int = MAX_NAME) -> str:
    text = m.check_text(value, where, limit)
    # Names reach terminals: nothing that could move the cursor or rewrite a line.
    if not text.isprintable():
        raise ProtocolError("only printable characters", where)
    return text


def _port(value: object, where: str) -> int:
    if type(value) is not int or not 1 <= value <= 65535:
        raise ProtocolError("expected a port number 1..65535", where)
    return value


def _addr(value: object, where: str) -> str:
    if type(value) is not str or len(value) > 64:
        raise ProtocolError("expected an address", where)
    if value:
        try:
            ipaddress.ip_address(value)
        except ValueError:
            raise ProtocolError("not an IP address", where) from None
    return value


def _bool(value: object, where: str) -> bool:
    if type(value) is not bool:
        raise ProtocolError("expected true or false", where)
    return value


def _seat(value: object, where: str) -> int:
    return m.check_uint(value, where, N_SEATS)


def _variant(value: object, where: str) -> str:
    text = m.check_text(value, where, MAX_VARIANT)
    if not (text.isascii() and text.islower() and text.isalpha()):
        raise ProtocolError("expected a game name in lower-case letters", where)
    return text


def _chat_mode(value: object, where: str) -> str:
    if value not in CHAT_MODES or type(value) is not str:
        raise ProtocolError(f"expected one of {', '.join(CHAT_MODES)}", where)
    return str(value)


def _parse_lobby(body: dict[str, object]) -> LobbyState:
    options = m.check_options(body["options"], "options", lambda v, w: _name(v, w, 64))
    seats_raw = m.check_list(body["seats"], "seats", MIN_SEATS, N_SEATS)
    seats: list[SeatView | None] = []
    for i, item in enumerate(seats_raw):
        if item is None:
            seats.append(None)
            continue
        triple = m.check_list(item, f"seats[{i}]", 3, 3)
        seats.append(
            SeatView(
                m.check_key(triple[0], f"seats[{i}].key"),
                _name(triple[1], f"seats[{i}].name"),
                _bool(triple[2], f"seats[{i}].ready"),
            )
        )
    keys = [s.key for s in seats if s is not None]
    if len(set(keys)) != len(keys):
        raise ProtocolError("a key sits twice", "seats")
    return LobbyState(
        m.check_bin(body["game"], "game", 16),
        _name(body["name"], "name", 40),
        _name(body["preset"], "preset", 64),
        options,
        tuple(seats),
        _variant(body["variant"], "variant"),
        m.check_uint(body["rules"], "rules"),
    )


def _parse_start(body: dict[str, object]) -> Start:
    table = body["table"]
    if type(table) is not bytes or not 0 < len(table) <= 4096:
        raise ProtocolError("expected the table envelope", "table")
    peers_raw = m.check_list(body["peers"], "peers", MIN_SEATS, N_SEATS)
    peers = []
    for i, item in enumerate(peers_raw):
        pair = m.check_list(item, f"peers[{i}]", 2, 2)
        peers.append((_addr(pair[0], f"peers[{i}].addr"), _port(pair[1], f"peers[{i}].port")))
    return Start(table, tuple(peers))


def _parse_resend(body: dict[str, object]) -> Resend:
    start = m.check_list(body["start"], "start", 0, N_SEATS)
    return Resend(tuple(m.check_uint(v, f"start[{i}]") for i, v in enumerate(start)))


_PARSERS: Mapping[str, tuple[set[str], Callable[[dict[str, object]], Control]]] = {
    "hello": (
        {"name", "addr", "port", "nonce"},
        lambda b: Hello(
            _name(b["name"], "name"),
            _addr(b["addr"], "addr"),
            _port(b["port"], "port"),
            m.check_bin(b["nonce"], "nonce", m.NONCE_SIZE),
        ),
    ),
    "seat": ({"seat"}, lambda b: TakeSeat(_seat(b["seat"], "seat"))),
    "ready": (
        {"ready", "rules"},
        lambda b: Ready(_bool(b["ready"], "ready"), m.check_uint(b["rules"], "rules")),
    ),
    "lobby": ({"game", "name", "preset", "options", "seats", "variant", "rules"}, _parse_lobby),
    "refuse": ({"why"}, lambda b: Refuse(m.check_text(b["why"], "why", MAX_WHY))),
    "wait": (set(), lambda b: Wait()),
    "start": ({"table", "peers"}, _parse_start),
    "resend": ({"start"}, _parse_resend),
    "resent": (set(), lambda b: Resent()),
    "done": (set(), lambda b: Done()),
    "watch": (
        {"name", "from"},
        lambda b: Watch(_name(b["name"], "name"), m.check_uint(b["from"], "from", MAX_RECORDS)),
    ),
    "watching": ({"chat"}, lambda b: Watching(_chat_mode(b["chat"], "chat"))),
    "fed": ({"records"}, lambda b: Fed(m.check_uint(b["records"], "records", MAX_RECORDS))),
    "rewind": (
        {"records"},
        lambda b: Rewind(m.check_uint(b["records"], "records", MAX_RECORDS)),
    ),
    "alive": (set(), lambda b: Alive()),
}
