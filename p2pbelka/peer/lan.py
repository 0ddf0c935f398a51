"""A game on the LAN: host a table, find and join one, play it over the mesh, resume it.

The host opens a *lobby* listener (announced by multicast beacons) where
joiners see the game and its rules and take seats; when every seat (four for
Belka, two or three for Belot) is taken and ready it signs the ``table``
envelope and sends it with every seat's mesh address.  From then on every
peer, the host included, is an ordinary member of the mesh (``mesh.py``) and a
``PeerDriver`` plays its seat.  Each peer keeps its game in the config
directory (``store.py``), so ``resume_game`` can rebuild it after a crash.

The API is for front ends: lobby progress arrives as ``LobbyEvent``s through
``on_lobby``; play arrives through the ``FrontEnd`` given to the driver.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import random
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

import trio

from p2pbelka.bots import parse_level
from p2pbelka.net.connection import SecureChannel, dial, format_host_port, serve_secure
from p2pbelka.net.discovery import (
    TableAd,
    TableDirectory,
    TableInfo,
    announce_table,
    listen_for_tables,
    new_table_id,
)
from p2pbelka.net.dnssd import announce_dnssd, browse_dnssd, local_addresses
from p2pbelka.net.errors import ConnectError, NetError, TamperedHandshake, UnexpectedPeerKey
from p2pbelka.net.handshake import invite_key
from p2pbelka.net.identity import Identity, fingerprint, matches_pin
from p2pbelka.net.oserrors import explain, first_os_error
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
from p2pbelka.peer.store import GameStore, id_used_reason, known_game
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.rules import registry
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

__all__ = [
    "Approve",
    "AwaitingApproval",
    "GameResult",
    "GameStarting",
    "HostControl",
    "HostReached",
    "JoinRequest",
    "JoinersAsking",
    "LobbyClosed",
    "LobbyControl",
    "LobbyEvent",
    "LobbyRefused",
    "NetOptions",
    "OnLobby",
    "SeatsChanged",
    "StillTrying",
    "TableOpen",
    "TableRules",
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
HELLO_TIMEOUT = 10.0


@dataclass(frozen=True)
class LobbyEvent:
    pass


@dataclass(frozen=True)
class TableOpen(LobbyEvent):
    """The host's lobby listens (and is announced, unless switched off); ``address``
    is this machine's address on the LAN, for joiners that dial it by hand.
    ``table_id`` names the table in the lobby and its beacons only: the game id is
    derived from every seat's nonce when the game starts (``GameStarting``)."""

    table_id: bytes
    lobby_port: int
    mesh_port: int
    address: str = ""


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


@dataclass(frozen=True)
class StillTrying(LobbyEvent):
    """The host's lobby did not answer (or was too busy): we try again in ``retry_in`` s."""

    attempt: int
    why: str
    retry_in: float


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
    """Someone authenticated at the host's lobby and asks to sit down."""

    key: bytes
    name: str
    address: str

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


OnLobby = Callable[[LobbyEvent], Awaitable[None]]


async def _ignore(event: LobbyEvent) -> None:
    return None


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


class HostControl:
    """What the host's front end may do in the lobby: remove a seated joiner, change
    the rules."""

    def __init__(self, lobby: _HostLobby) -> None:
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

    @property
    def rules(self) -> tuple[str, dict[str, str]]:
        """The preset and options as they stand."""
        plan = self._lobby.plan
        return plan.preset, dict(plan.options)


# --- discovery ---------------------------------------------------------------------


async def discover_tables(
    seconds: float,
    *,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    until: Callable[[list[TableInfo]], bool] | None = None,
    dnssd: bool = False,
) -> list[TableInfo]:
    """Listen for beacons of tables for ``seconds`` (or until ``until`` says enough);
    beacons of games this version does not play are ignored (other versions never
    decode).

    With ``dnssd``, tables announced by DNS-SD are listed too (``via="dns-sd"``),
    after the beacon tables and only where no signed beacon names the same table
    and key: they are hints, and joining one pins the key its record names."""
    net = net or NetOptions()
    directory = TableDirectory()
    hints: dict[tuple[bytes, bytes], TableInfo] = {}
    seen: tuple[TableInfo, ...] = ()
    found: list[TableInfo] = []

    def hint(table: TableInfo) -> None:
        hints[(table.table_id, table.host_key)] = table

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
            if dnssd and _multicast(net.group):
                nursery.start_soon(_browse, hint, net)
            while True:
                now = trio.current_time()
                found = _merged(directory.tables(now), hints, now)
                current = tuple(found)
                if [_listing(t) for t in current] != [_listing(t) for t in seen]:
                    seen = current
                    await on_lobby(TablesHeard(current))
                if until is not None and until(found):
                    nursery.cancel_scope.cancel()
                    break
                await trio.sleep(0.1)
    return found


def _multicast(group: str) -> bool:
    try:
        return ipaddress.ip_address(group).is_multicast
    except ValueError:
        return False


HINT_LIFETIME = 120.0
"""Seconds a DNS-SD hint is listed after it was last resolved."""


def _merged(
    beacons: list[TableInfo], hints: dict[tuple[bytes, bytes], TableInfo], now: float
) -> list[TableInfo]:
    for key in [k for k, t in hints.items() if now - t.last_seen > HINT_LIFETIME]:
        del hints[key]
    signed = {(t.table_id, t.host_key) for t in beacons}
    extra = [t for k, t in sorted(hints.items()) if k not in signed]
    return [t for t in beacons + extra if t.variant in registry.names()]


async def _browse(hint: Callable[[TableInfo], None], net: NetOptions) -> None:
    try:
        await browse_dnssd(hint, interface=net.interface, ipv6=":" in net.group)
    except Exception as exc:  # an optional extra: beacons go on without it
        log.warning("cannot browse DNS-SD: %s: %s", type(exc).__name__, exc)


def _listing(table: TableInfo) -> tuple[bytes, bytes, int, str, int, str, int]:
    """What a joiner's list shows of a table: a change in any of it redraws the list."""
    return (
        table.table_id,
        table.host_key,
        table.free_seats,
        table.host,
        table.port,
        table.variant,
        table.seats,
    )


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
    approve: Approve | None = None,
    invite: str | None = None,
    game: str = registry.DEFAULT,
    players: int | None = None,
) -> GameResult:
    """Open a table of ``game`` with ``players`` seats (by default as many as the game's
    table has), seat the joiners, then play seat 0 until the game ends.

    ``approve`` is asked about every joiner before its seat counts (None lets
    everyone in: scripts, bots and tests); the host's front end can also remove a
    seated joiner before the start through ``SeatsChanged.host_control``.  With an
    ``invite`` code only joiners who give the same code can finish the lobby
    handshake (see ``invite_key``)."""
    net = net or NetOptions()
    options = dict(options or {})
    n_seats = players or registry.spec(game).default_seats
    lb.check_table(game, n_seats, preset, options)
    # The lobby's table id names the table for joiners; the game id is derived from
    # every seat's nonce at the start, so no host chooses it (protocol/ids.py).
    table_id = net.table_id or new_table_id()
    started = trio.Event()
    holder = MeshHolder()
    psk = await trio.to_thread.run_sync(invite_key, invite) if invite else None
    async with trio.open_nursery() as nursery:
        mesh_port = await nursery.start(serve_mesh, identity, net, holder)
        me = lb.Sitter(
            identity.public_key,
            identity.name,
            "",
            net.advertise_port or mesh_port,
            net.new_nonce(),
        )
        plan = lb.SeatingPlan(
            table_id, table_name, preset, options, me, variant=game, n_seats=n_seats
        )
        lobby = _HostLobby(plan, started, on_lobby, approve)
        lobby_port = await nursery.start(
            partial(
                serve_secure,
                lobby.serve,
                identity,
                host=net.listen_host,
                port=net.lobby_port,
                context=LOBBY_CONTEXT,
                psk=psk,
                handler_nursery=nursery,
            )
        )
        announcing, announcing_dnssd = trio.CancelScope(), trio.CancelScope()
        if net.announce:
            address = _specific(net.listen_host)

            def ad() -> TableAd:
                return TableAd(table_id, table_name, game, n_seats, plan.free, lobby_port, address)

            nursery.start_soon(_announce, announcing, identity, ad, net)
            if _multicast(net.group):  # beacons sent to one address: no mDNS either
                nursery.start_soon(_announce_dnssd, announcing_dnssd, identity, ad, net)
        here = lan_address(net.listen_host)  # a route look-up: nothing is sent
        await on_lobby(TableOpen(table_id, lobby_port, mesh_port, here))
        await on_lobby(TableRules(plan.state()))
        await on_lobby(SeatsChanged(plan.state(), 0, host_control=HostControl(lobby)))
        await started.wait()
        announcing.cancel()
        announcing_dnssd.cancel()
        setup = plan.setup()
        game_id = game_id_of(setup.nonces)
        store = GameStore.create(game_id, net.home, sync=net.sync)
        writer = store.transcript_writer()
        table = Table.host(
            signer_of(identity),
            setup,
            seed_source=store.seed_source(net.fresh_seeds, new_game=True),
        )
        meta = game_meta(game_id, 0, setup, list(plan.peers()), net, mesh_port, bot, table_name)
        store.save_meta(meta)
        # The lobby hands the table description out before the driver runs: on the
        # disk first, like everything this seat signs (the driver keeps the rest).
        store.keep(table.take_signed())
        store.sync()
        await lobby.start(table.transcript[0].raw)
        await on_lobby(_starting(game_id, 0, setup, mesh_port))
        result = await play_seat(identity, table, meta, store, writer, front_end, net, holder)
        nursery.cancel_scope.cancel()
    return result


def _specific(listen_host: str) -> str:
    """The address to sign into the beacon when the host listens on one address only
    ("" lets the announcer find it): a joiner must dial where the lobby listens."""
    try:
        address = ipaddress.ip_address(listen_host.split("%", 1)[0])
    except ValueError:
        return ""
    if address.is_unspecified or address.is_link_local:
        return ""
    return str(address)


def lan_address(listen_host: str) -> str:
    """This machine's address for the others on the LAN: where joiners (and the host's
    own bots) reach its lobby.  The host screen shows it to be read out.

    A joiner's mesh address is the one the host sees it coming from, so a bot
    dialling 127.0.0.1 would be unreachable for players on other machines.
    """
    if listen_host not in ("", "0.0.0.0", "::"):
        return listen_host
    ipv6 = listen_host == "::"
    family, target, fallback = (
        (socket.AF_INET6, "2001:db8::1", "::1")
        if ipv6
        else (socket.AF_INET, "192.0.2.1", "127.0.0.1")
    )
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))  # picks the outgoing interface; sends nothing
            return str(probe.getsockname()[0])
    except OSError:
        # No route out (a link-local-only LAN): our bots then play for this machine only.
        return fallback


def _rescoped(address: str, like: str) -> str:
    """An IPv6 link-local address the host saw, with the scope of our own way to the
    host: an interface name means nothing on another machine."""
    if "%" not in like:
        return address
    try:
        if not ipaddress.ip_address(address.split("%", 1)[0]).is_link_local:
            return address
    except ValueError:
        return address
    return address.split("%", 1)[0] + "%" + like.rsplit("%", 1)[1]


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


async def _announce_dnssd(
    scope: trio.CancelScope,
    identity: Identity,
    ad: Callable[[], TableAd],
    net: NetOptions,
) -> None:
    """The same table for standard tools (avahi-browse, dns-sd): a hint, not trusted."""
    ipv6 = ":" in net.group
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
    with scope:
        try:
            await announce_dnssd(
                identity,
                ad,
                local_addresses(net.listen_host, family),
                interface=net.interface,
                ipv6=ipv6,
            )
        except Exception as exc:  # an optional extra: the beacon is what joiners trust
            log.warning("cannot announce the table by DNS-SD: %s: %s", type(exc).__name__, exc)


MAX_ASKING = 8
"""Joiners waiting for the host's decision at once; more are told to try later."""


class _HostLobby:
    """The host's side of the lobby: one task per joiner's channel."""

    def __init__(
        self,
        plan: lb.SeatingPlan,
        started: trio.Event,
        on_lobby: OnLobby,
        approve: Approve | None = None,
    ) -> None:
        self.plan = plan
        self.started = started
        self.on_lobby = on_lobby
        self.approve = approve
        self.channels: dict[bytes, SecureChannel] = {}
        self.asking: dict[bytes, JoinRequest] = {}
        self.removed: set[bytes] = set()
        self.begun = False

    async def serve(self, channel: SecureChannel) -> None:
        key = channel.peer_key
        if self.begun:
            await self._refuse(channel, "the game has started")
            return
        if key in self.removed:
            await self._refuse(channel, "the host removed you from this table")
            return
        await channel.send(lb.encode_control(self.plan.state()))
        try:
            with trio.fail_after(HELLO_TIMEOUT):
                hello = lb.decode_control(await channel.receive())
        except (trio.TooSlowError, lb.LobbyError, NetError) as exc:
            log.info("lobby: no valid hello from %s: %s", channel.peer_fingerprint, exc)
            return
        if not isinstance(hello, lb.Hello):
            log.info("lobby: expected hello from %s", channel.peer_fingerprint)
            return
        address = channel.peer_address.rsplit(":", 1)[0].strip("[]")
        why = await self._admit(channel, JoinRequest(key, hello.name, address))
        if not why:
            try:
                self.plan.sit(key, hello, address)
            except ValueError as exc:
                why = str(exc)
        if why:
            await self._refuse(channel, why)
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
            if self.channels.get(key) is channel:
                del self.channels[key]
            if not self.begun:
                self.plan.leave(key)
                await self._changed()

    async def _admit(self, channel: SecureChannel, request: JoinRequest) -> str:
        """Ask the host about a joiner; "" lets it sit, else the reason it may not."""
        if self.approve is None:
            return ""
        if request.key in self.asking or self.plan.seat_of(request.key) is not None:
            return "this key is already at the table"
        if self.plan.free == 0:
            return "the table is full"
        if len(self.asking) >= MAX_ASKING:
            return "the host has too many joiners to decide on; try again later"
        self.asking[request.key] = request
        try:
            await channel.send(lb.encode_control(lb.Wait()))
            await self._asking_changed()
            admitted = await self.approve(request)
        except NetError:
            return "the connection failed while the host decided"
        finally:
            del self.asking[request.key]
            await self._asking_changed()
        if self.begun:
            return "the game has started"
        if request.key in self.removed:
            return "the host removed you from this table"
        return "" if admitted else "the host did not let you in"

    async def _asking_changed(self) -> None:
        await self.on_lobby(JoinersAsking(tuple(self.asking.values())))

    async def remove(self, seat: int) -> bool:
        key = self.plan.key_at(seat)
        if self.begun or seat == 0 or key is None:
            return False
        self.removed.add(key)
        self.plan.leave(key)
        channel = self.channels.pop(key, None)
        if channel is not None:
            await self._refuse(channel, "the host removed you from this table")
            await channel.aclose()
        await self._changed()
        return True

    async def set_rules(self, preset: str, options: dict[str, str]) -> bool:
        if self.begun or not self.plan.set_rules(preset, options):
            return False
        await self.on_lobby(TableRules(self.plan.state(), changed=True))
        await self._changed()
        return True

    def _handle(self, key: bytes, payload: bytes) -> None:
        try:
            msg = lb.decode_control(payload)
            if isinstance(msg, lb.TakeSeat):
                self.plan.move(key, msg.seat)
            elif isinstance(msg, lb.Ready):
                self.plan.set_ready(key, msg.ready, msg.rules)
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
        await self.on_lobby(SeatsChanged(state, 0, host_control=HostControl(self)))
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
    host_pin: str | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    ready: bool = True,
    bot: str | None = None,
    invite: str | None = None,
) -> GameResult:
    """Sit at the table whose lobby listens at ``host:port`` (``host_key`` pinned when
    known from a beacon, or ``host_pin``, a fingerprint or key the user typed, see
    :func:`normal_pin`), wait for the start, then play until the game ends.  A host
    that does not answer, or is too busy, is tried again with backoff for as long as
    the caller waits (``StillTrying`` says so).  With ``ready=False`` the front end
    says ready through ``SeatsChanged.control``."""
    net = net or NetOptions()
    psk = await trio.to_thread.run_sync(invite_key, invite) if invite else None
    lobby_channel = await _reach_lobby(identity, host, port, host_key, host_pin, psk, on_lobby)
    async with lobby_channel:
        try:
            first = lb.decode_control(await lobby_channel.receive())
        except (lb.LobbyError, NetError) as exc:
            raise LobbyRefused(f"no lobby at {host}:{port}: {exc}") from None
        if isinstance(first, lb.Refuse):
            raise LobbyRefused(first.why)
        if not isinstance(first, lb.LobbyState):
            raise LobbyRefused(f"expected the lobby, got {type(first).__name__}")
        try:
            lb.check_table(first.variant, len(first.seats), first.preset, first.options)
        except ValueError as exc:
            raise LobbyRefused(f"this version cannot play that table: {exc}") from None
        if bot is not None:  # our bot sits down only where its game has its level
            try:
                parse_level(bot, first.variant)
            except ValueError as exc:
                raise LobbyRefused(f"no {bot} bot at this table: {exc}") from None
        await on_lobby(TableRules(first))
        # Fresh for this lobby connection: the table must carry it at our seat, so its
        # game id (derived from every seat's nonce) is one we never signed under.
        nonce = net.new_nonce()
        holder = MeshHolder()
        refused: LobbyRefused | None = None
        result: GameResult | None = None
        async with trio.open_nursery() as nursery:
            mesh_port = await nursery.start(serve_mesh, identity, net, holder)
            try:
                start, setup, game_id = await _sit(
                    lobby_channel,
                    identity,
                    first,
                    net.advertise_port or mesh_port,
                    ready,
                    on_lobby,
                    nonce,
                    net.home,
                )
            except LobbyRefused as exc:
                refused = exc  # raised below, not inside the nursery's exception group
            else:
                peers = [
                    (host if i == 0 else _rescoped(a, host), p)
                    for i, (a, p) in enumerate(start.peers)
                ]
                store = GameStore.create(game_id, net.home, sync=net.sync)
                writer = store.transcript_writer()
                table = Table(
                    game_id,
                    signer=signer_of(identity),
                    seed_source=store.seed_source(net.fresh_seeds, new_game=True),
                    nonce=nonce,
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


FIRST_RETRY = 0.5
LAST_RETRY = 8.0


async def _reach_lobby(
    identity: Identity,
    host: str,
    port: int,
    host_key: bytes | None,
    host_pin: str | None,
    psk: bytes | None,
    on_lobby: OnLobby,
) -> SecureChannel:
    """Dial the lobby until it answers; a wrong key is final, a busy or silent host is not."""

    def pinned(key: bytes) -> bool:
        return host_pin is not None and matches_pin(key, host_pin)

    delay = FIRST_RETRY
    attempt = 0
    while True:
        attempt += 1
        try:
            channel = await dial(
                host,
                port,
                identity,
                expected_peer_key=host_key,
                authorize=pinned if host_pin is not None else None,
                context=LOBBY_CONTEXT,
                attempts=1,
                psk=psk,
            )
        except ConnectError as exc:
            # In words ("nothing listens at ...: check the address"), and tried again:
            # the host may not have opened its table yet; the user stops us when done.
            cause = first_os_error(exc)
            why = explain(cause, format_host_port(host, port)) if cause else str(exc)
        except UnexpectedPeerKey:
            raise LobbyRefused(
                "the key that answered is not the host's you named: someone else is at"
                f" {format_host_port(host, port)}, or the address is wrong"
            ) from None
        except TamperedHandshake:
            raise LobbyRefused(
                "the host's answer does not decrypt: this table wants an invite code"
                if psk is None
                else "the host's answer does not decrypt: a wrong invite code (or tampering)"
            ) from None
        else:
            address = format_host_port(host, port)
            await on_lobby(
                HostReached(
                    address,
                    channel.peer_fingerprint,
                    host_key is not None or pinned(channel.peer_key),
                )
            )
            return channel
        # Jitter spreads the joiners a flood turned away, so they do not return together.
        wait = delay * random.uniform(0.75, 1.25)
        await on_lobby(StillTrying(attempt, why, wait))
        await trio.sleep(wait)
        delay = min(delay * 2, LAST_RETRY)


async def _sit(
    channel: SecureChannel,
    identity: Identity,
    first: lb.LobbyState,
    port: int,
    ready: bool,
    on_lobby: OnLobby,
    nonce: bytes,
    home: str | os.PathLike[str] | None,
) -> tuple[lb.Start, m.TableMsg, bytes]:
    """Say hello (with our ``nonce``), wait for the start; ``LobbyRefused`` if it does
    not come, or does not pass ``_checked_setup``.  With ``ready`` the seat says ready
    at once, and again after each change of the rules (a script or bot takes any
    rules the game allows).  The start, its table and the game id."""
    control = LobbyControl(channel)
    control.rules = first.rules
    try:
        await channel.send(lb.encode_control(lb.Hello(identity.name, "", port, nonce)))
        if ready:
            await control.ready(True)
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    last = [first]
    start = await _wait_for_start(channel, identity, control, on_lobby, ready, last)
    setup, game_id = _checked_setup(identity, last[0], start, channel.peer_key, nonce, home)
    return start, setup, game_id


class LobbyRefused(Exception):
    """The host would not seat us, or the lobby closed before the game started."""


async def _wait_for_start(
    channel: SecureChannel,
    identity: Identity,
    control: LobbyControl,
    on_lobby: OnLobby,
    auto_ready: bool,
    last: list[lb.LobbyState],
) -> lb.Start:
    """Follow the lobby until ``start``; ``last[0]`` is the last lobby state seen."""
    try:
        async for payload in channel:
            try:
                msg = lb.decode_control(payload)
            except lb.LobbyError as exc:
                log.warning("lobby: ignored a message from the host: %s", exc)
                continue
            if isinstance(msg, lb.LobbyState):
                if not _same_table(msg, last[0]):
                    log.warning("lobby: the host changed the game or seats; ignored")
                    continue
                changed = msg.rules != last[0].rules
                last[0] = msg
                control.rules = msg.rules
                if changed:
                    await on_lobby(TableRules(msg, changed=True))
                me = msg.seat_of(identity.public_key)
                await on_lobby(SeatsChanged(msg, me, control))
                seat = msg.seats[me] if me is not None else None
                if changed and auto_ready and seat is not None and not seat.ready:
                    await control.ready(True)
            elif isinstance(msg, lb.Wait):
                await on_lobby(AwaitingApproval())
            elif isinstance(msg, lb.Refuse):
                await on_lobby(LobbyClosed(msg.why))
                raise LobbyRefused(msg.why)
            elif isinstance(msg, lb.Start):
                return msg
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    await on_lobby(LobbyClosed("the host closed the lobby"))
    raise LobbyRefused("the host closed the lobby before the game started")


def _same_table(state: lb.LobbyState, first: lb.LobbyState) -> bool:
    """The game id, the game and the seat count stay what the joiner sat down to."""
    return (state.game, state.variant, len(state.seats)) == (
        first.game,
        first.variant,
        len(first.seats),
    )


def _checked_setup(
    identity: Identity,
    lobby: lb.LobbyState,
    start: lb.Start,
    host_key: bytes,
    nonce: bytes,
    home: str | os.PathLike[str] | None,
) -> tuple[m.TableMsg, bytes]:
    """Check the host's ``table`` envelope before building anything on it (and so
    before we sit and sign): a valid table, signed by the host, that seats us, under
    the game id its seats' nonces give, with our ``nonce`` at our seat, an id this
    machine never kept a game under, and the game, seats and rules the lobby showed
    last.  The table and the game id."""
    try:
        envelope = open_envelope(start.table)
    except ProtocolError as exc:
        raise LobbyRefused(f"the host sent a bad table envelope: {exc}") from None
    game_id = envelope.game
    probe = Table(game_id, signer=signer_of(identity), nonce=nonce)
    probe.receive_envelope(envelope)
    problems = [e.reason for e in probe.take_events() if isinstance(e, ev.Rejected)]
    if probe.setup is None or problems:
        raise LobbyRefused("the host's table envelope was refused: " + "; ".join(problems))
    if envelope.sender != host_key:
        raise LobbyRefused("the table envelope is not signed by the host")
    if probe.me is None:
        raise LobbyRefused("we are not seated in the host's table envelope")
    setup = probe.setup
    shown = (lobby.variant, lobby.preset, dict(sorted(lobby.options.items())), len(lobby.seats))
    if (setup.game, setup.preset, dict(setup.options), len(setup.seats)) != shown:
        raise LobbyRefused("the host's table has other rules or seats than its lobby showed")
    if len(start.peers) != len(setup.seats):
        raise LobbyRefused("the host's start names a different number of seats than its table")
    if known_game(game_id, home):
        # All but impossible with our fresh nonce in it: refused all the same, since a
        # place is (game id, seat, seq) and an id we used would let old envelopes count.
        raise LobbyRefused(id_used_reason(game_id))
    return setup, game_id
