"""The host's seating plan: who sits where before the game starts.  Sans-IO.

The lobby's wire codec lives in :mod:`p2pbelka.protocol.lobby`; its names are
re-exported here so ``from p2pbelka.peer import lobby as lb`` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.lobby import (
    CHAT_MODES,
    ENVELOPE_PREFIX,
    MAX_CONTROL,
    MAX_NAME,
    MAX_WHY,
    MIN_SEATS,
    N_SEATS,
    Alive,
    Control,
    Done,
    Fed,
    Hello,
    LobbyError,
    LobbyState,
    Ready,
    Refuse,
    Resend,
    Resent,
    Rewind,
    SeatView,
    Start,
    TakeSeat,
    Wait,
    Watch,
    Watching,
    decode_control,
    encode_control,
    is_envelope,
)
from p2pbelka.rules import registry

__all__ = [
    "CHAT_MODES",
    "ENVELOPE_PREFIX",
    "LOBBY_CONTEXT",
    "MAX_CONTROL",
    "MAX_NAME",
    "MAX_WHY",
    "MIN_SEATS",
    "N_SEATS",
    "Alive",
    "Control",
    "Done",
    "Fed",
    "Hello",
    "LobbyError",
    "LobbyState",
    "Ready",
    "Refuse",
    "Resend",
    "Resent",
    "Rewind",
    "SeatView",
    "SeatingPlan",
    "Sitter",
    "Start",
    "TakeSeat",
    "Wait",
    "Watch",
    "Watching",
    "decode_control",
    "encode_control",
    "is_envelope",
]

LOBBY_CONTEXT = b"p2pbelka/v1 lobby"
"""The lobby channel's handshake context: a joiner that dials an address learns the
game id only in the lobby.  Every channel of the game itself has the game id as context."""


# --- the host's seating plan ----------------------------------------------------------------


@dataclass
class Sitter:
    key: bytes
    name: str
    addr: str
    port: int
    nonce: bytes
    """The seat's fresh nonce for this table (a joiner's ``hello``; the host's own)."""
    ready: bool = False


@dataclass
class SeatingPlan:
    """Who sits where before the game starts, and the rules: the host is seat 0 and
    always ready; ``variant`` is the game's registered name and ``n_seats`` its
    seat count.  ``rules`` counts changes of the preset and options: a change
    un-readies every joiner, and a ready given for older rules does not count."""

    game: bytes
    """The table id (beacons, ``lobby.game``): a lobby's name, not the game id."""
    name: str
    preset: str
    options: dict[str, str]
    host: Sitter
    seats: list[Sitter | None] = field(default_factory=list)
    variant: str = registry.DEFAULT
    n_seats: int = 0
    """0: as many as a table of the game has when not said."""
    rules: int = 0

    def __post_init__(self) -> None:
        self.n_seats = self.n_seats or registry.spec(self.variant).default_seats
        check_table(self.variant, self.n_seats, self.preset, self.options)
        if not self.seats:
            self.host.ready = True
            self.seats = [self.host] + [None] * (self.n_seats - 1)

    @property
    def free(self) -> int:
        return sum(1 for s in self.seats if s is None)

    def seat_of(self, key: bytes) -> int | None:
        for seat, sitter in enumerate(self.seats):
            if sitter is not None and sitter.key == key:
                return seat
        return None

    def sit(self, key: bytes, hello: Hello, observed_addr: str) -> int:
        """Seat a newcomer at the first free seat; ``ValueError`` with the reason if not."""
        if self.seat_of(key) is not None:
            raise ValueError("this key is already seated")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise ValueError("the table is full")
        name = distinct_name(hello.name, [s.name for s in self.seats if s is not None])
        addr = hello.addr or observed_addr
        self.seats[free[0]] = Sitter(key, name, addr, hello.port, hello.nonce)
        return free[0]

    def move(self, key: bytes, seat: int) -> None:
        now = self.seat_of(key)
        if now is None or now == 0:
            raise ValueError("not seated here")
        if not 0 <= seat < len(self.seats):
            raise ValueError(f"this table has seats 0..{len(self.seats) - 1}, not {seat}")
        if self.seats[seat] is not None:
            raise ValueError(f"seat {seat} is taken")
        self.seats[seat], self.seats[now] = self.seats[now], None

    def set_ready(self, key: bytes, ready: bool, rules: int | None = None) -> None:
        """``rules``: the revision the joiner saw (None: the current one).  A ready for
        rules changed since is refused; not ready always counts."""
        seat = self.seat_of(key)
        sitter = self.seats[seat] if seat is not None else None
        if sitter is None:
            raise ValueError("not seated here")
        if ready and rules is not None and rules != self.rules:
            raise ValueError(
                f"ready for rules revision {rules}, but the rules are now revision {self.rules}"
            )
        sitter.ready = ready

    def set_rules(self, preset: str, options: dict[str, str]) -> bool:
        """The host changes the preset and options (``ValueError`` if the game refuses
        them); every joiner must say ready again.  False if nothing changed."""
        registry.spec(self.variant).check_rules(preset, options)
        if (preset, options) == (self.preset, self.options):
            return False
        self.preset, self.options = preset, dict(options)
        self.rules += 1
        for seat, sitter in enumerate(self.seats):
            if sitter is not None and seat != 0:
                sitter.ready = False
        return True

    def take(self, key: bytes, payload: bytes) -> str:
        """A seated joiner's message (``seat`` or ``ready``) taken into the plan: "", or
        why it changed nothing (malformed, a taken seat, rules of an older revision,
        anything else out of place).  Never raises: the host logs the reason, keeps
        the connection and sends the current ``lobby`` all the same."""
        try:
            msg = decode_control(payload)
            if isinstance(msg, TakeSeat):
                self.move(key, msg.seat)
            elif isinstance(msg, Ready):
                self.set_ready(key, msg.ready, msg.rules)
            else:
                raise ValueError(f"unexpected {type(msg).__name__} in the lobby")
        except (LobbyError, ValueError) as exc:
            return str(exc)
        return ""

    def key_at(self, seat: int) -> bytes | None:
        sitter = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return None if sitter is None else sitter.key

    def leave(self, key: bytes) -> None:
        seat = self.seat_of(key)
        if seat is not None and seat != 0:
            self.seats[seat] = None

    @property
    def complete(self) -> bool:
        return all(s is not None and s.ready for s in self.seats)

    def state(self) -> LobbyState:
        views = tuple(None if s is None else SeatView(s.key, s.name, s.ready) for s in self.seats)
        options = dict(self.options)
        return LobbyState(
            self.game, self.name, self.preset, options, views, self.variant, self.rules
        )

    def setup(self) -> m.TableMsg:
        """The table description: the seats, the rules, and every seat's nonce, from
        which the game id is derived (``protocol/ids.py``)."""
        assert self.complete
        sitters = [s for s in self.seats if s is not None]
        seats = tuple(m.SeatInfo(s.key, s.name) for s in sitters)
        options = dict(sorted(self.options.items()))
        nonces = tuple(s.nonce for s in sitters)
        return m.TableMsg(
            self.variant, self.preset, options, seats, FAIRDEAL_VERSION, nonces=nonces
        )

    def peers(self) -> tuple[tuple[str, int], ...]:
        return tuple(("" if i == 0 else s.addr, s.port) for i, s in enumerate(self.seats) if s)


def distinct_name(name: str, taken: list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``… when a seat already has it (three bots of one
    level, two players who kept the default name): a table's names tell its seats apart
    in every log, score and transcript."""
    used = {other.casefold() for other in taken}
    candidate, n = name, 1
    while candidate.casefold() in used:
        n += 1
        suffix = f" {n}"
        candidate = name[: m.MAX_NAME - len(suffix)] + suffix
    return candidate


def check_table(variant: str, n_seats: int, preset: str, options: dict[str, str]) -> None:
    """``ValueError`` in words for a game this version does not play, a seat count the
    game is not played by, or rules it refuses: before a lobby opens, or when a
    joiner first reads one."""
    game = registry.spec(variant)
    game.check_seats(n_seats)
    game.check_rules(preset, options)
