"""A game on the LAN: host a table, find and join one, play it over the mesh, resume it.

The host opens a *lobby* listener (announced by multicast beacons) where
joiners take seats; when four are seated and ready it signs the ``table``
envelope and sends it with every seat's mesh address.  From then on every
peer, the host included, is an ordinary member of the mesh (``mesh.py``) and a
``PeerDriver`` plays its seat.  Each peer keeps its game in the config
directory (``store.py``), so ``resume_game`` can rebuild it after a crash.

The API is for front ends: lobby progress arrives as ``LobbyEvent``s through
``on_lobby``; play arrives through the ``FrontEnd`` given to the driver.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

import trio

from p2pbelka.net.connection import SecureChannel, dial, serve_secure
from p2pbelka.net.discovery import (
    TableAd,
    TableDirectory,
    TableInfo,
    announce_table,
    listen_for_tables,
    new_table_id,
)
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.seat import (
    GameResult,
    MeshHolder,
    NetOptions,
    game_meta,
    play_seat,
    resume_game,
    serve_mesh,
    signer_of,
)
from p2pbelka.peer.store import GameStore
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.rules.game import GAME
from p2pbelka.table import events as ev
from p2pbelka.table.games import track_class
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

__all__ = [
    "GameResult",
    "GameStarting",
    "LobbyClosed",
    "LobbyControl",
    "LobbyEvent",
    "LobbyRefused",
    "NetOptions",
    "OnLobby",
    "SeatsChanged",
    "TableOpen",
    "TablesHeard",
    "discover_tables",
    "host_game",
    "join_game",
    "resume_game",
    "signer_of",
]

LOBBY_CONTEXT = b"p2pbelka/v1 lobby"
"""The lobby channel's context: a joiner that dials an address learns the game id
only in the lobby.  Every channel of the game itself has the game id as context."""
VARIANT = GAME
HELLO_TIMEOUT = 10.0


@dataclass(frozen=True)
class LobbyEvent:
    pass


@dataclass(frozen=True)
class TableOpen(LobbyEvent):
    """The host's lobby listens (and is announced, unless switched off)."""

    game_id: bytes
    lobby_port: int
    mesh_port: int


@dataclass(frozen=True)
class TablesHeard(LobbyEvent):
    tables: tuple[TableInfo, ...]


@dataclass(frozen=True)
class SeatsChanged(LobbyEvent):
    state: lb.LobbyState
    me: int | None
    control: LobbyControl | None = field(default=None, compare=False)


@dataclass(frozen=True)
class GameStarting(LobbyEvent):
    """Four are seated: the game begins (``mesh_port``: where this peer listens)."""

    game_id: bytes
    seat: int
    names: tuple[str, ...]
    fingerprints: tuple[str, ...]
    mesh_port: int


def _starting(game_id: bytes, seat: int, setup: m.TableMsg, mesh_port: int) -> GameStarting:
    return GameStarting(
        game_id,
        seat,
        tuple(s.name for s in setup.seats),
        tuple(fingerprint(s.key) for s in setup.seats),
        mesh_port,
    )


@dataclass(frozen=True)
class LobbyClosed(LobbyEvent):
    why: str


OnLobby = Callable[[LobbyEvent], Awaitable[None]]


async def _ignore(event: LobbyEvent) -> None:
    return None


class LobbyControl:
    """What a joiner's front end may do in the lobby: change seat, say ready."""

    def __init__(self, channel: SecureChannel) -> None:
        self._channel = channel

    async def take_seat(self, seat: int) -> None:
        await self._channel.send(lb.encode_control(lb.TakeSeat(seat)))

    async def ready(self, ready: bool = True) -> None:
        await self._channel.send(lb.encode_control(lb.Ready(ready)))


# --- discovery ---------------------------------------------------------------------


async def discover_tables(
    seconds: float,
    *,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    until: Callable[[list[TableInfo]], bool] | None = None,
) -> list[TableInfo]:
    """Listen for beacons of Belka tables for ``seconds`` (or until ``until`` says
    enough); beacons of other variants are ignored (other versions never decode)."""
    net = net or NetOptions()
    directory = TableDirectory()
    seen: tuple[TableInfo, ...] = ()
    found: list[TableInfo] = []
    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            await nursery.start(
                partial(
                    listen_for_tables,
                    directory,
                    group=net.group,
                    port=net.beacon_port,
                    interface=net.interface,
                )
            )
            while True:
                found = [t for t in directory.tables(trio.current_time()) if t.variant == VARIANT]
                current = tuple(found)
                if [t.table_id for t in current] != [t.table_id for t in seen] or any(
                    a.free_seats != b.free_seats for a, b in zip(current, seen, strict=False)
                ):
                    seen = current
                    await on_lobby(TablesHeard(current))
                if until is not None and until(found):
                    nursery.cancel_scope.cancel()
                    break
                await trio.sleep(0.1)
    return found


# --- hosting -----------------------------------------------------------------------


async def host_game(
    identity: Identity,
    table_name: str,
    front_end: FrontEnd,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    bot: str | None = None,
) -> GameResult:
    """Open a table, seat three joiners, then play seat 0 until the game ends."""
    net = net or NetOptions()
    options = dict(options or {})
    _check_rules(preset, options)
    game_id = net.game_id or new_table_id()
    started = trio.Event()
    holder = MeshHolder()
    async with trio.open_nursery() as nursery:
        mesh_port = await nursery.start(serve_mesh, identity, game_id, net, holder)
        me = lb.Sitter(identity.public_key, identity.name, "", net.advertise_port or mesh_port)
        plan = lb.SeatingPlan(game_id, table_name, preset, options, me)
        lobby = _HostLobby(plan, started, on_lobby)
        lobby_port = await nursery.start(
            partial(
                serve_secure,
                lobby.serve,
                identity,
                host=net.listen_host,
                port=net.lobby_port,
                context=LOBBY_CONTEXT,
                handler_nursery=nursery,
            )
        )
        announcing = trio.CancelScope()
        if net.announce:

            def ad() -> TableAd:
                return TableAd(game_id, table_name, VARIANT, 4, plan.free, lobby_port)

            nursery.start_soon(_announce, announcing, identity, ad, net)
        await on_lobby(TableOpen(game_id, lobby_port, mesh_port))
        await on_lobby(SeatsChanged(plan.state(), 0))
        await started.wait()
        announcing.cancel()
        store = GameStore.create(game_id, net.home)
        writer = store.transcript_writer()
        table = Table.host(
            signer_of(identity),
            game_id,
            plan.setup(),
            seed_source=store.seed_source(net.fresh_seeds),
        )
        meta = game_meta(
            game_id, 0, plan.setup(), list(plan.peers()), net, mesh_port, bot, table_name
        )
        store.save_meta(meta)
        await lobby.start(table.transcript[0].raw)
        await on_lobby(_starting(game_id, 0, plan.setup(), mesh_port))
        result = await play_seat(identity, table, meta, store, writer, front_end, net, holder)
        nursery.cancel_scope.cancel()
    return result


def _check_rules(preset: str, options: dict[str, str]) -> None:
    """``ValueError`` for rules the table would refuse, before anything is announced."""
    track_class(VARIANT).check_rules(preset, options)


async def _announce(
    scope: trio.CancelScope, identity: Identity, ad: Callable[[], TableAd], net: NetOptions
) -> None:
    with scope:
        try:
            await announce_table(
                identity, ad, group=net.group, port=net.beacon_port, interface=net.interface
            )
        except OSError as exc:
            log.warning("cannot announce the table: %s (joiners need --connect)", exc)


class _HostLobby:
    """The host's side of the lobby: one task per joiner's channel."""

    def __init__(self, plan: lb.SeatingPlan, started: trio.Event, on_lobby: OnLobby) -> None:
        self.plan = plan
        self.started = started
        self.on_lobby = on_lobby
        self.channels: dict[bytes, SecureChannel] = {}
        self.begun = False

    async def serve(self, channel: SecureChannel) -> None:
        key = channel.peer_key
        if self.begun:
            await self._refuse(channel, "the game has started")
            return
        await channel.send(lb.encode_control(self.plan.state()))
        try:
            with trio.fail_after(HELLO_TIMEOUT):
                hello = lb.decode_control(await channel.receive())
        except (trio.TooSlowError, lb.LobbyError, NetError) as exc:
            log.warning("lobby: no valid hello from %s: %s", channel.peer_fingerprint, exc)
            return
        if not isinstance(hello, lb.Hello):
            log.warning("lobby: expected hello from %s", channel.peer_fingerprint)
            return
        try:
            self.plan.sit(key, hello, channel.peer_address.rsplit(":", 1)[0].strip("[]"))
        except ValueError as exc:
            await self._refuse(channel, str(exc))
            return
        self.channels[key] = channel
        try:
            await self._changed()
            async for payload in channel:
                if self.begun:
                    break
                self._handle(key, payload)
                await self._changed()
            # Stay open after the start until the joiner closes: it reads ``start`` first.
            if self.begun:
                with trio.move_on_after(HELLO_TIMEOUT):
                    async for _ in channel:
                        pass
        except NetError as exc:
            log.warning("lobby: %s left: %s", channel.peer_fingerprint, exc)
        finally:
            self.channels.pop(key, None)
            if not self.begun:
                self.plan.leave(key)
                await self._changed()

    def _handle(self, key: bytes, payload: bytes) -> None:
        try:
            msg = lb.decode_control(payload)
            if isinstance(msg, lb.TakeSeat):
                self.plan.move(key, msg.seat)
            elif isinstance(msg, lb.Ready):
                self.plan.set_ready(key, msg.ready)
            else:
                raise ValueError(f"unexpected {type(msg).__name__} in the lobby")
        except (lb.LobbyError, ValueError) as exc:
            log.warning("lobby: ignored a message: %s", exc)

    async def _refuse(self, channel: SecureChannel, why: str) -> None:
        log.info("lobby: refused %s: %s", channel.peer_fingerprint, why)
        try:
            await channel.send(lb.encode_control(lb.Refuse(why[: lb.MAX_WHY])))
        except NetError:
            pass

    async def _changed(self) -> None:
        state = self.plan.state()
        payload = lb.encode_control(state)
        for channel in list(self.channels.values()):
            try:
                await channel.send(payload)
            except NetError:
                pass
        await self.on_lobby(SeatsChanged(state, 0))
        if self.plan.complete and not self.begun:
            self.begun = True
            self.started.set()

    async def start(self, table_raw: bytes) -> None:
        payload = lb.encode_control(lb.Start(table_raw, self.plan.peers()))
        for channel in list(self.channels.values()):
            try:
                await channel.send(payload)
            except NetError as exc:
                log.warning("lobby: could not send the start to a joiner: %s", exc)


# --- joining -----------------------------------------------------------------------


async def join_game(
    identity: Identity,
    host: str,
    port: int,
    front_end: FrontEnd,
    *,
    host_key: bytes | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    ready: bool = True,
    bot: str | None = None,
) -> GameResult:
    """Sit at the table whose lobby listens at ``host:port`` (``host_key`` pinned when
    known from a beacon), wait for the start, then play until the game ends.
    With ``ready=False`` the front end says ready through ``SeatsChanged.control``."""
    net = net or NetOptions()
    lobby_channel = await dial(
        host, port, identity, expected_peer_key=host_key, context=LOBBY_CONTEXT, attempts=3
    )
    async with lobby_channel:
        try:
            first = lb.decode_control(await lobby_channel.receive())
        except (lb.LobbyError, NetError) as exc:
            raise LobbyRefused(f"no lobby at {host}:{port}: {exc}") from None
        if not isinstance(first, lb.LobbyState):
            raise LobbyRefused(f"expected the lobby, got {type(first).__name__}")
        game_id = first.game
        holder = MeshHolder()
        refused: LobbyRefused | None = None
        result: GameResult | None = None
        async with trio.open_nursery() as nursery:
            mesh_port = await nursery.start(serve_mesh, identity, game_id, net, holder)
            try:
                start, setup = await _sit(
                    lobby_channel,
                    identity,
                    game_id,
                    net.advertise_port or mesh_port,
                    ready,
                    on_lobby,
                )
            except LobbyRefused as exc:
                refused = exc  # raised below, not inside the nursery's exception group
            else:
                peers = [(host if i == 0 else a, p) for i, (a, p) in enumerate(start.peers)]
                store = GameStore.create(game_id, net.home)
                writer = store.transcript_writer()
                table = Table(
                    game_id,
                    signer=signer_of(identity),
                    seed_source=store.seed_source(net.fresh_seeds),
                )
                table.receive(start.table)
                assert table.me is not None
                meta = game_meta(game_id, table.me, setup, peers, net, mesh_port, bot, first.name)
                store.save_meta(meta)
                await lobby_channel.aclose()
                await on_lobby(_starting(game_id, table.me, setup, mesh_port))
                result = await play_seat(
                    identity, table, meta, store, writer, front_end, net, holder
                )
            nursery.cancel_scope.cancel()
    if refused is not None:
        raise refused
    assert result is not None
    return result


async def _sit(
    channel: SecureChannel,
    identity: Identity,
    game_id: bytes,
    port: int,
    ready: bool,
    on_lobby: OnLobby,
) -> tuple[lb.Start, m.TableMsg]:
    """Say hello, wait for the start; ``LobbyRefused`` if it does not come."""
    control = LobbyControl(channel)
    try:
        await channel.send(lb.encode_control(lb.Hello(identity.name, "", port)))
        if ready:
            await control.ready(True)
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    start = await _wait_for_start(channel, identity, control, on_lobby)
    return start, _checked_setup(identity, game_id, start, channel.peer_key)


class LobbyRefused(Exception):
    """The host would not seat us, or the lobby closed before the game started."""


async def _wait_for_start(
    channel: SecureChannel, identity: Identity, control: LobbyControl, on_lobby: OnLobby
) -> lb.Start:
    try:
        async for payload in channel:
            try:
                msg = lb.decode_control(payload)
            except lb.LobbyError as exc:
                log.warning("lobby: ignored a message from the host: %s", exc)
                continue
            if isinstance(msg, lb.LobbyState):
                await on_lobby(SeatsChanged(msg, msg.seat_of(identity.public_key), control))
            elif isinstance(msg, lb.Refuse):
                await on_lobby(LobbyClosed(msg.why))
                raise LobbyRefused(msg.why)
            elif isinstance(msg, lb.Start):
                return msg
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    await on_lobby(LobbyClosed("the host closed the lobby"))
    raise LobbyRefused("the host closed the lobby before the game started")


def _checked_setup(
    identity: Identity, game_id: bytes, start: lb.Start, host_key: bytes
) -> m.TableMsg:
    """Check the host's ``table`` envelope before building anything on it."""
    try:
        envelope = open_envelope(start.table)
    except ProtocolError as exc:
        raise LobbyRefused(f"the host sent a bad table envelope: {exc}") from None
    probe = Table(game_id, signer=signer_of(identity))
    probe.receive_envelope(envelope)
    problems = [e.reason for e in probe.take_events() if isinstance(e, ev.Rejected)]
    if probe.setup is None or problems:
        raise LobbyRefused("the host's table envelope was refused: " + "; ".join(problems))
    if envelope.sender != host_key:
        raise LobbyRefused("the table envelope is not signed by the host")
    if probe.me is None:
        raise LobbyRefused("we are not seated in the host's table envelope")
    return probe.setup
