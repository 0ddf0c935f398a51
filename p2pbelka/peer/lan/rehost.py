"""Resuming a LAN seat, and for a host that took watchers, its lobby reopened to them.

A host resumed after a crash (``p2pbelka resume``) listens for watchers again
while its seat plays on: on the lobby port it had, so that a watcher that was
following dials again the address it knew (pinned to the host's key), or on any
free port if that one is taken, announced by the table's beacons as before
(``lobbykeep.py`` says what the game kept).  The feed is the live host's:
the whole transcript on the disk, then each record the seat writes, so a
watcher asking from the count it holds gets exactly the rest.

Who may watch: every key the host let in before goes in again without asking;
a new watcher goes in if the host let everyone in (``--auto-approve``, at the
start or at the resume), and is turned away otherwise (nobody is asked: the
resumed host's terminal belongs to its game).  The invite code is the one in
force when the host stopped.  The seats and the game never hear of any of it.
"""

from __future__ import annotations

import dataclasses
import logging

import trio

from p2pbelka.net.door import Door
from p2pbelka.net.guesses import InviteGuard
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.lan.events import (
    Approve,
    JoinRequest,
    LobbyReopened,
    OnLobby,
    ignore,
)
from p2pbelka.peer.lan.host import lobby_news, serve_lobby, tell_changes
from p2pbelka.peer.lan.hostlobby import HostLobby, invite_guard
from p2pbelka.peer.lan.lobbykeep import keep_lobby, update
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.peer.seat import GameResult, NetOptions
from p2pbelka.peer.seat import resume_game as resume_seat
from p2pbelka.peer.store import GameMeta, GameStore
from p2pbelka.protocol import messages as m

log = logging.getLogger(__name__)


async def resume_game(
    identity: Identity,
    store: GameStore,
    front_end: FrontEnd,
    *,
    net: NetOptions | None = None,
    on_lobby: OnLobby = ignore,
    auto_approve: bool = False,
) -> GameResult:
    """Rebuild the seat in ``store`` and play on (``peer.seat.resume_game``); a host
    that took watchers also reopens its lobby to them until the game ends
    (``on_lobby``: who watches, the port; ``auto_approve``: let new watchers in)."""
    net = net or NetOptions()
    meta = store.load_meta()
    saved = store.saved_transcript()  # a torn tail is cut here, before the feed reads it
    setup = saved[0].msg if saved else None
    if meta.lobby_port == 0 or meta.watchers == 0 or not isinstance(setup, m.TableMsg):
        return await resume_seat(identity, store, front_end, net=net)
    tell, changes = lobby_news()
    guard = invite_guard(meta.invite, tell)
    door = Door()
    feed = Feed(meta.watchers, meta.watcher_chat, tell=tell, door=door)
    feed.records = [envelope.raw for envelope in saved]
    feed.admitted = [bytes.fromhex(key) for key in meta.watcher_keys]
    keep_lobby(store, guard, feed)
    lobby = HostLobby(seated_plan(meta, setup), on_lobby, _approve(feed, meta, auto_approve), feed)
    lobby.seated.set()  # the game began long ago: a joiner's hello is refused
    lobby_net = dataclasses.replace(
        net, lobby_port=meta.lobby_port, announce=net.announce and meta.announce
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(tell_changes, changes, on_lobby)
        port = await _reopen(nursery, identity, lobby, lobby_net, guard, door)
        if port != meta.lobby_port:
            update(store, lambda kept: setattr(kept, "lobby_port", port))
        await on_lobby(LobbyReopened(port, meta.lobby_port))
        result = await resume_seat(identity, store, front_end, net=net, tap=feed)
        await feed.end()  # the game is over: the watchers get the rest, and `fed`
        nursery.cancel_scope.cancel()
    return result


async def _reopen(
    nursery: trio.Nursery,
    identity: Identity,
    lobby: HostLobby,
    net: NetOptions,
    guard: InviteGuard | None,
    door: Door,
) -> int:
    """The lobby listener on the port it had, else on a free one: its port."""
    try:
        port: int = await nursery.start(serve_lobby, identity, lobby, net, guard, door)
        return port
    except* OSError as group:
        # Watchers that dial the old port find nothing; the beacons tell the new one.
        log.warning("cannot listen on lobby port %d again: %s", net.lobby_port, group.exceptions[0])
    net.lobby_port = 0
    port = await nursery.start(serve_lobby, identity, lobby, net, guard, door)
    return port


def _approve(feed: Feed, meta: GameMeta, auto_approve: bool) -> Approve | None:
    """Who may watch a resumed host (module doc): None lets everyone in."""
    if auto_approve or meta.watch_approve:
        return None

    async def approve(request: JoinRequest) -> bool:
        if request.key in feed.admitted:
            return True
        log.warning(
            "watchers: %s (%s) turned away: new watchers of a resumed host need"
            " resume --auto-approve",
            request.name,
            request.address,
        )
        return False

    return approve


def seated_plan(meta: GameMeta, setup: m.TableMsg) -> lb.SeatingPlan:
    """The lobby as it stood at the start (every seat taken and ready): what a
    watcher's ``lobby`` shows."""
    n = len(setup.seats)
    nonces = setup.nonces or (bytes(m.NONCE_SIZE),) * n
    peers = [*meta.peers, *[("", 0)] * n][:n]  # each seat's address, shown to nobody
    sitters = [
        lb.Sitter(seat.key, seat.name, address, port, nonce, ready=True)
        for seat, (address, port), nonce in zip(setup.seats, peers, nonces, strict=True)
    ]
    return lb.SeatingPlan(
        bytes.fromhex(meta.table_id),
        meta.table_name,
        setup.preset,
        dict(setup.options),
        sitters[0],
        list[lb.Sitter | None](sitters),
        variant=setup.game,
        n_seats=n,
    )
