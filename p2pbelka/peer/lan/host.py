"""Hosting a table: the lobby listener and its beacons, then the host's seat.

The host listens for the mesh first (its port goes in the seating plan), opens
the lobby (``HostLobby`` follows each joiner), announces the table until every
seat is taken and ready, then signs the table description, hands it to every
joiner with every seat's mesh address, and plays seat 0 like any other seat.
A host that takes watchers (``NetOptions.watchers``) keeps its lobby and its
beacons going during the game and feeds them what its seat records (``Feed``).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import trio

from p2pbelka.net.beacon import TableAd, new_table_id
from p2pbelka.net.connection import serve_secure
from p2pbelka.net.discovery import announce_table
from p2pbelka.net.dnssd import announce_dnssd, local_addresses
from p2pbelka.net.door import Door
from p2pbelka.net.guesses import InviteGuard
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.lan.addresses import (
    beacon_address,
    is_multicast,
    lan_addresses,
    multicast_interface,
)
from p2pbelka.peer.lan.events import (
    Approve,
    GameStarting,
    HostControl,
    LobbyEvent,
    OnLobby,
    ResultsShared,
    SeatsChanged,
    TableOpen,
    TableRules,
    ignore,
)
from p2pbelka.peer.lan.hostlobby import HostLobby, invite_guard
from p2pbelka.peer.lan.lobbykeep import remember_lobby
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.peer.lobbyshare import LobbyShared, LobbyShares
from p2pbelka.peer.newgame import Seating, host_seat, play_new_seat
from p2pbelka.peer.seat import GameResult, MeshHolder, NetOptions, serve_mesh
from p2pbelka.peer.store import games_dir
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.rules import registry

log = logging.getLogger(__name__)


async def host_game(
    identity: Identity,
    table_name: str,
    front_end: FrontEnd,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = ignore,
    bot: str | None = None,
    approve: Approve | None = None,
    invite: str | None = None,
    game: str = registry.DEFAULT,
    players: int | None = None,
    lets_all_in: bool | None = None,
) -> GameResult:
    """Open a table of ``game`` with ``players`` seats (by default as many as the game's
    table has), seat the joiners, then play seat 0 until the game ends.

    ``approve`` is asked about every joiner before its seat counts (None lets
    everyone in: scripts, bots and tests); the host's front end can also remove a
    seated joiner before the start through ``SeatsChanged.host_control``.  With an
    ``invite`` code only joiners who give the same code can finish the lobby
    handshake (the version-2 handshake, ``net/pake.py``); after ten wrong ones no code
    is tested until the host draws a new one (``HostControl.new_code``, and
    ``InviteChanged`` says to what); ``WrongCodeTried`` says who guessed.  ``ValueError``
    for a code too short to use.  ``lets_all_in``: ``approve`` says yes to everyone
    (None: only when there is no ``approve``), kept so that a resumed host lets watchers
    in alike."""
    net = net or NetOptions()
    options = dict(options or {})
    n_seats = players or registry.spec(game).default_seats
    lb.check_table(game, n_seats, preset, options)
    # The lobby's table id names the table for joiners; the game id is derived from
    # every seat's nonce at the start, so no host chooses it (protocol/ids.py).
    table_id = net.table_id or new_table_id()
    holder = MeshHolder()
    tell, changes_out = lobby_news()
    guard = invite_guard(invite, tell)
    door = Door()
    feed = Feed(net.watchers, net.watcher_chat, tell=tell, door=door)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tell_changes, changes_out, on_lobby)
        mesh_port = await nursery.start(serve_mesh, identity, net, holder)
        nonce = net.new_nonce()
        me = lb.Sitter(
            identity.public_key, identity.name, "", net.advertise_port or mesh_port, nonce
        )
        plan = lb.SeatingPlan(
            table_id, table_name, preset, options, me, variant=game, n_seats=n_seats
        )
        shares = await lobby_shares(identity, net, tell, nursery)
        lobby = HostLobby(plan, on_lobby, approve, feed, guard, shares)
        lobby_port = await nursery.start(serve_lobby, identity, lobby, net, guard, door)
        here = lan_addresses(net.listen_host, net.group, net.beacon_port)  # nothing is sent
        await on_lobby(TableOpen(table_id, lobby_port, mesh_port, tuple(here)))
        await on_lobby(TableRules(plan.state()))
        await on_lobby(SeatsChanged(plan.state(), 0, host_control=HostControl(lobby)))
        await lobby.seated.wait()
        setup = plan.setup()
        seating = Seating(
            game_id_of(setup.nonces), setup, list(plan.peers()), mesh_port, bot, table_name
        )
        new = host_seat(identity, net, seating)
        # kept with the game, so that a resumed host reopens its lobby to watchers
        everyone = approve is None if lets_all_in is None else lets_all_in
        remember_lobby(new.store, plan.game, lobby_port, net, everyone, guard, feed)
        await lobby.start(new.table.view.transcript[0].raw)
        await on_lobby(GameStarting.of(new, mesh_port))
        result = await play_new_seat(identity, new, front_end, net, holder, feed)
        await feed.end()  # the game is over: the watchers get the rest, and `fed`
        nursery.cancel_scope.cancel()
    return result


def lobby_news() -> tuple[Callable[[LobbyEvent], None], trio.MemoryReceiveChannel[LobbyEvent]]:
    """``tell``, which hands a lobby event over without waiting, and where they arrive
    (``tell_changes`` passes them on)."""
    changes_in, changes_out = trio.open_memory_channel[LobbyEvent](16)

    def tell(event: LobbyEvent) -> None:
        try:
            changes_in.send_nowait(event)
        except trio.WouldBlock:  # the screen is behind: it hears the next one
            log.warning("lobby: %s not shown", event)

    return tell, changes_out


async def lobby_shares(
    identity: Identity, net: NetOptions, tell: Callable[[LobbyEvent], None], nursery: trio.Nursery
) -> LobbyShares | None:
    """The lobby's results' exchanges (results.md 6.2), run in ``nursery``, each said
    by ``tell`` once counted; None if the player turned sharing off."""
    if not (net.share_results and net.share_in_lobby):
        return None

    def said(done: LobbyShared) -> None:
        shared = done.shared
        told = ResultsShared(shared.peer, shared.came, shared.counted, shared.error)
        tell(replace(told, sent=shared.sent, seconds=done.seconds))
        for note in shared.notes:
            log.warning("ladder: %s", note)

    shares = LobbyShares(games_dir(net.home), identity.public_key, said)
    await nursery.start(shares.run)
    return shares


async def tell_changes(changes: trio.MemoryReceiveChannel[LobbyEvent], on_lobby: OnLobby) -> None:
    """The guard (sans-IO, called inside a handshake) and the watchers' feed (called by
    the seat's tasks) hand their news over here, so neither waits for the screen."""
    async for event in changes:
        log.info("lobby: %s", event)
        await on_lobby(event)


async def serve_lobby(
    identity: Identity,
    lobby: HostLobby,
    net: NetOptions,
    invite: InviteGuard | None,
    door: Door | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """The lobby listener (its port reported), and the table's beacons until every
    seat is taken, or on through the game while it takes watchers; the listener
    stays, to tell latecomers the game has started (and to take watchers)."""
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            partial(
                serve_secure,
                lobby.serve,
                identity,
                host=net.listen_host,
                port=net.lobby_port,
                context=lb.LOBBY_CONTEXT,
                invite=invite,
                door=door,
            )
        )
        if net.announce:
            nursery.start_soon(_announce_lobby, identity, lobby, port, net)
        task_status.started(port)


async def _announce_lobby(
    identity: Identity, lobby: HostLobby, lobby_port: int, net: NetOptions
) -> None:
    """Beacons until every seat is taken; while the host takes watchers, on through
    the game, with the places left for them (``watch``)."""
    plan, feed = lobby.plan, lobby.feed
    address = beacon_address(net.listen_host)

    def ad() -> TableAd:
        return TableAd(
            plan.game,
            plan.name,
            plan.variant,
            plan.n_seats,
            plan.free,
            lobby_port,
            address,
            watch=feed.places,
        )

    async with trio.open_nursery() as nursery:
        nursery.start_soon(_announce, identity, ad, net)
        if is_multicast(net.group):  # beacons sent to one address: no mDNS either
            nursery.start_soon(_announce_dnssd, identity, ad, net)
        await lobby.seated.wait()
        if not feed.taking:
            nursery.cancel_scope.cancel()


async def _announce(identity: Identity, ad: Callable[[], TableAd], net: NetOptions) -> None:
    # no multicast route (a LAN with no default route): this machine's one address
    interface = multicast_interface(net.group, net.beacon_port, net.interface)
    try:
        await announce_table(
            identity, ad, group=net.group, port=net.beacon_port, interface=interface
        )
    except OSError as exc:
        log.warning("cannot announce the table: %s (joiners need --connect)", exc)


async def _announce_dnssd(identity: Identity, ad: Callable[[], TableAd], net: NetOptions) -> None:
    """The same table for standard tools (avahi-browse, dns-sd): a hint, not trusted."""
    ipv6 = ":" in net.group
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
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
