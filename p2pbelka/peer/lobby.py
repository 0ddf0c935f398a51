"""The host's seating plan: who sits where before the game starts.  Sans-IO.

The lobby's wire codec lives in :mod:`p2pbelka.protocol.lobby`; its names are
re-exported here so ``from p2pbelka.peer import lobby as lb`` keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.lobby import (
    ENVELOPE_PREFIX,
    MAX_CONTROL,
    MAX_NAME,
    MAX_WHY,
    N_SEATS,
    Control,
    Done,
    Hello,
    LobbyError,
    LobbyState,
    Ready,
    Refuse,
    Resend,
    Resent,
    SeatView,
    Start,
    TakeSeat,
    Wait,
    decode_control,
    encode_control,
    is_envelope,
)
from p2pbelka.rules.game import GAME

__all__ = [
    "ENVELOPE_PREFIX",
    "MAX_CONTROL",
    "MAX_NAME",
    "MAX_WHY",
    "N_SEATS",
    "Control",
    "Done",
    "Hello",
    "LobbyError",
    "LobbyState",
    "Ready",
    "Refuse",
    "Resend",
    "Resent",
    "SeatView",
    "SeatingPlan",
    "Sitter",
    "Start",
    "TakeSeat",
    "Wait",
    "decode_control",
    "encode_control",
    "is_envelope",
]


# --- the host's seating plan ----------------------------------------------------------------


@dataclass
class Sitter:
    key: bytes
    name: str
    addr: str
    port: int
    ready: bool = False


@dataclass
class SeatingPlan:
    """Who sits where before the game starts; the host is seat 0 and always ready."""

    game: bytes
    name: str
    preset: str
    options: dict[str, str]
    host: Sitter
    seats: list[Sitter | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.seats:
            self.host.ready = True
            self.seats = [self.host] + [None] * (N_SEATS - 1)

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
        self.seats[free[0]] = Sitter(key, hello.name, hello.addr or observed_addr, hello.port)
        return free[0]

    def move(self, key: bytes, seat: int) -> None:
        now = self.seat_of(key)
        if now is None or now == 0:
            raise ValueError("not seated here")
        if self.seats[seat] is not None:
            raise ValueError(f"seat {seat} is taken")
        self.seats[seat], self.seats[now] = self.seats[now], None

    def set_ready(self, key: bytes, ready: bool) -> None:
        seat = self.seat_of(key)
        sitter = self.seats[seat] if seat is not None else None
        if sitter is None:
            raise ValueError("not seated here")
        sitter.ready = ready

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
        return LobbyState(self.game, self.name, self.preset, dict(self.options), views)

    def setup(self) -> m.TableMsg:
        assert self.complete
        seats = tuple(m.SeatInfo(s.key, s.name) for s in self.seats if s is not None)
        options = dict(sorted(self.options.items()))
        return m.TableMsg(GAME, self.preset, options, seats, FAIRDEAL_VERSION)

    def peers(self) -> tuple[tuple[str, int], ...]:
        return tuple(("" if i == 0 else s.addr, s.port) for i, s in enumerate(self.seats) if s)
