"""What a front end hears from the lobby (``LobbyEvent``s through ``on_lobby``) and
what it may do there (the controls some events carry).  No I/O of its own: the
host's and a joiner's lobby loops (``host.py``, ``hostlobby.py``, ``join.py``)
send these."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from p2pbelka.net.connection import SecureChannel
from p2pbelka.net.directory import TableInfo
from p2pbelka.net.guesses import Guesser
from p2pbelka.net.identity import fingerprint
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.newgame import NewSeat


class LobbyRefused(Exception):
    """The host would not seat us, or the lobby closed before the game started."""


class CodeRefused(LobbyRefused):
    """The host's lobby did not take our invite code: a wrong one, one used up by wrong
    guesses, none where the table wants one, or one where it wants none.  A person may
    type the code again (the screen asks); the message says why."""


class HostUnreachable(LobbyRefused):
    """Nothing answered at the host's lobby for as long as the joiner tries
    (``NetOptions.reach_for``): the last reason is the message; ``error`` (the last
    OSError, if one), ``where`` and ``patience`` let a screen word it anew, ``why``
    is the last reason alone (no "given up")."""

    def __init__(
        self,
        message: str,
        error: OSError | None = None,
        where: str = "",
        patience: float = 0,
        why: str = "",
    ) -> None:
        super().__init__(message)
        self.error, self.where, self.patience = error, where, patience
        self.why = why or message


@dataclass(frozen=True)
class LobbyEvent:
    pass


OnLobby = Callable[[LobbyEvent], Awaitable[None]]


async def ignore(event: LobbyEvent) -> None:
    """The ``on_lobby`` of a caller that follows nothing (scripts, bots)."""
    return None


@dataclass(frozen=True)
class ResultsShared(LobbyEvent):
    """Results were shared with ``peer`` in the lobby (results.md 6.2): how many came,
    how many counted, why it stopped early ("" if it did not), the bytes this side
    sent for it (the wrapped messages) and the seconds it took, counting included."""

    peer: bytes
    came: int
    counted: int
    error: str = ""
    sent: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class LobbyReopened(LobbyEvent):
    """A host resumed after a crash listens for watchers again: on ``lobby_port``, the
    port it had (``old_port`` the same) unless that one was taken."""

    lobby_port: int
    old_port: int


@dataclass(frozen=True)
class TableOpen(LobbyEvent):
    """The host's lobby listens (and is announced, unless switched off); ``addresses``
    are this machine's on the LAN (the beacons' first), for joiners that dial by hand.
    ``table_id`` names the table in the lobby and its beacons only: the game id is
    derived from every seat's nonce when the game starts (``GameStarting``)."""

    table_id: bytes
    lobby_port: int
    mesh_port: int
    addresses: tuple[str, ...] = ()


@dataclass(frozen=True)
class InviteChanged(LobbyEvent):
    """The host drew a new invite code (``failures``: wrong ones tried at the old): its
    lobby now wants ``code``, which the host tells its friends afresh."""

    code: str
    failures: int


@dataclass(frozen=True)
class WrongCodeTried(LobbyEvent):
    """Someone tried a wrong invite code at the host, or left before proving theirs:
    ``failures`` of ``limit`` against this code (at the limit no code is tested until
    the host draws a new one); ``guessers``, who tried wrong codes, the most first."""

    failures: int
    limit: int
    guessers: tuple[Guesser, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class TablesHeard(LobbyEvent):
    tables: tuple[TableInfo, ...]


@dataclass(frozen=True)
class SeatsChanged(LobbyEvent):
    state: lb.LobbyState
    me: int | None
    control: LobbyControl | None = field(default=None, compare=False)
    host_control: HostControl | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TableRules(LobbyEvent):
    """The table's game, seat count and rules (in ``state``): for a joiner, first
    when it reaches the lobby (before it sits), then whenever the host changes the
    preset or options (``changed``); every joiner is then not ready again until it
    says so for these rules."""

    state: lb.LobbyState
    changed: bool = False


@dataclass(frozen=True)
class GameStarting(LobbyEvent):
    """Every seat is taken: the game begins (``mesh_port``: where this peer listens);
    ``game_id`` is the id its seats' nonces give."""

    game_id: bytes
    seat: int
    names: tuple[str, ...]
    fingerprints: tuple[str, ...]
    mesh_port: int

    @classmethod
    def of(cls, new: NewSeat, mesh_port: int) -> GameStarting:
        meta = new.meta
        return cls(
            bytes.fromhex(meta.game_id),
            meta.seat,
            tuple(meta.names),
            tuple(fingerprint(bytes.fromhex(key)) for key in meta.keys),
            mesh_port,
        )


@dataclass(frozen=True)
class LobbyClosed(LobbyEvent):
    why: str


@dataclass(frozen=True)
class StillTrying(LobbyEvent):
    """The host's lobby did not answer (or was too busy): we try again in ``retry_in`` s,
    and give up ``gives_up_in`` s from now (``HostUnreachable``)."""

    attempt: int
    why: str
    retry_in: float
    gives_up_in: float = math.inf
    error: OSError | None = None
    """The OSError behind ``why`` (None for another reason), for a screen to word."""
    where: str = ""


@dataclass(frozen=True)
class HostReached(LobbyEvent):
    """A secure channel to the host's lobby: ``fingerprint`` is the key that answered.
    ``pinned`` says it was checked against a key the user gave or a beacon signed;
    otherwise the user should compare it with the host's screen."""

    address: str
    fingerprint: str
    pinned: bool


@dataclass(frozen=True)
class AwaitingApproval(LobbyEvent):
    """The host has our name and fingerprint and decides whether we may sit."""


@dataclass(frozen=True)
class JoinRequest:
    """Someone authenticated at the host's lobby and asks to sit down, or (``watcher``)
    to watch the game."""

    key: bytes
    name: str
    address: str
    watcher: bool = False

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


Approve = Callable[[JoinRequest], Awaitable[bool]]
"""The host's decision on one joiner: True lets it sit.  It may take as long as the
person takes; the joiner waits (its seat does not count meanwhile)."""


@dataclass(frozen=True)
class JoinersAsking(LobbyEvent):
    """The joiners waiting for the host's decision, oldest first (host only)."""

    requests: tuple[JoinRequest, ...]


WatcherView = JoinRequest
"""A watcher the host let in: its key, name and address (``fingerprint`` to show)."""


@dataclass(frozen=True)
class WatchersChanged(LobbyEvent):
    """Who watches the host's game now, in the order they came (host only), and how
    many more it takes (``places``)."""

    watchers: tuple[WatcherView, ...]
    places: int


@dataclass(frozen=True)
class WatchersCatchingUp(LobbyEvent):
    """The host's game is over and these watchers have not taken the whole feed yet: the
    host's program waits for them while each takes something at least every ``grace``
    seconds, ``limit`` seconds at most (host only; each one done is a ``WatchersChanged``)."""

    watchers: tuple[WatcherView, ...]
    grace: float
    limit: float


# --- the controls -------------------------------------------------------------------


class LobbyControl:
    """What a joiner's front end may do in the lobby: change seat, say ready (for the
    rules the lobby showed last: ``rules``, kept up to date by ``join_game``)."""

    def __init__(self, channel: SecureChannel) -> None:
        self._channel = channel
        self.rules = 0

    async def take_seat(self, seat: int) -> None:
        await self._channel.send(lb.encode_control(lb.TakeSeat(seat)))

    async def ready(self, ready: bool = True) -> None:
        await self._channel.send(lb.encode_control(lb.Ready(ready, self.rules)))


class Hosting(Protocol):
    """The host's lobby as its control sees it (``hostlobby.HostLobby``)."""

    @property
    def plan(self) -> lb.SeatingPlan: ...

    async def remove(self, seat: int) -> bool: ...

    async def set_rules(self, preset: str, options: dict[str, str]) -> bool: ...

    def new_code(self) -> str | None: ...

    def shut_out(self, address: str) -> tuple[Guesser, ...]: ...


class HostControl:
    """What the host's front end may do in the lobby: remove a seated joiner, change
    the rules."""

    def __init__(self, lobby: Hosting) -> None:
        self._lobby = lobby

    async def remove(self, seat: int) -> bool:
        """Free ``seat`` before the game starts; the joiner hears why.  False if the seat
        is the host's, empty, or the game has begun."""
        return await self._lobby.remove(seat)

    async def set_rules(self, preset: str, options: dict[str, str]) -> bool:
        """Change the preset and options before the start; every joiner is un-readied
        and hears the new rules.  ``ValueError`` (in words) for rules the game refuses;
        False if the game has begun or nothing changed."""
        return await self._lobby.set_rules(preset, options)

    def new_code(self) -> str | None:
        """Draw a new invite code (``InviteChanged`` tells it); None if the table has none."""
        return self._lobby.new_code()

    def shut_out(self, address: str) -> tuple[Guesser, ...]:
        """Shut ``address`` out (none of its HELLOs is answered), or, if it is shut out,
        let it try again with a clean record; who guesses now."""
        return self._lobby.shut_out(address)

    @property
    def rules(self) -> tuple[str, dict[str, str]]:
        """The preset and options as they stand."""
        plan = self._lobby.plan
        return plan.preset, dict(plan.options)
