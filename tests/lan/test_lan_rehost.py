"""What a host's game keeps of its lobby, and the lobby a resumed host rebuilds from it:
the meta written at the start and kept up to date, who may watch again, the lobby
state a watcher is shown, and a lobby port taken meanwhile (real loopback sockets)."""

from __future__ import annotations

import socket
from pathlib import Path

import trio

from p2pbelka.net.connection import dial
from p2pbelka.net.guesses import InviteGuard
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan.events import JoinRequest
from p2pbelka.peer.lan.hostlobby import HostLobby
from p2pbelka.peer.lan.lobbykeep import remember_lobby
from p2pbelka.peer.lan.rehost import _approve, _reopen, seated_plan
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.peer.seat import NetOptions
from p2pbelka.peer.store import GameMeta, GameStore
from tests.peer.test_watch import GAME

SETUP = GAME[0].msg


def _store(tmp: Path) -> GameStore:
    store = GameStore.create(b"\x07" * 16, tmp, sync=False)
    names = [s.name for s in SETUP.seats]  # type: ignore[attr-defined]
    peers = [("", 4000), ("10.0.0.2", 4001), ("10.0.0.3", 4002), ("10.0.0.4", 4003)]
    store.save_meta(GameMeta("07" * 16, 0, [], names, peers, "0.0.0.0", 4000, table_name="club"))
    return store


def test_the_game_keeps_the_lobby_and_every_watcher_and_code_as_they_change(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    feed = Feed(3, "watchers")
    feed.admitted.append(b"a" * 32)  # let in before the start
    told: list[str] = []
    guard = InviteGuard("123456", on_change=lambda code, n: told.append(code))
    net = NetOptions(announce=False)
    remember_lobby(store, b"t" * 16, 7700, net, False, guard, feed)
    meta = store.load_meta()
    assert (meta.lobby_port, meta.table_id, meta.watchers) == (7700, (b"t" * 16).hex(), 3)
    assert (meta.watcher_chat, meta.announce, meta.watch_approve) == ("watchers", False, False)
    assert meta.invite == "123456" and meta.watcher_keys == [(b"a" * 32).hex()]
    assert feed.on_admit is not None and guard.on_change is not None
    feed.on_admit(b"b" * 32)
    guard.on_change("654321", 10)
    meta = store.load_meta()
    assert meta.watcher_keys == [(b"a" * 32).hex(), (b"b" * 32).hex()]
    assert meta.invite == "654321" and told == ["654321"]  # the screen still hears it
    assert meta.table_name == "club" and meta.peers[1] == ("10.0.0.2", 4001)


async def test_a_resumed_host_lets_in_again_whom_it_let_in_and_new_ones_only_when_told(
    tmp_path: Path,
) -> None:
    meta = _store(tmp_path).load_meta()
    feed = Feed(8)
    feed.admitted = [b"a" * 32]
    approve = _approve(feed, meta, auto_approve=False)
    assert approve is not None
    assert await approve(JoinRequest(b"a" * 32, "Wall", "10.0.0.9", True))
    assert not await approve(JoinRequest(b"b" * 32, "New", "10.0.0.8", True))
    assert _approve(feed, meta, auto_approve=True) is None  # resume --auto-approve
    meta.watch_approve = True  # the host let everyone in from the start
    assert _approve(feed, meta, auto_approve=False) is None


def test_a_watcher_of_a_resumed_host_is_shown_the_table_as_it_started(tmp_path: Path) -> None:
    meta = _store(tmp_path).load_meta()
    meta.table_id = (b"t" * 16).hex()
    plan = seated_plan(meta, SETUP)  # type: ignore[arg-type]
    state = plan.state()
    assert state.name == "club" and state.game == b"t" * 16 and state.variant == "belka"
    assert [s.name for s in state.seats if s] == [s.name for s in SETUP.seats]  # type: ignore[attr-defined]
    assert all(s is not None and s.ready for s in state.seats) and plan.complete


async def test_a_lobby_port_taken_meanwhile_gives_way_to_a_free_one(tmp_path: Path) -> None:
    meta = _store(tmp_path).load_meta()
    meta.table_id = (b"t" * 16).hex()
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    old = taken.getsockname()[1]
    host = Identity.generate("host")
    lobby = HostLobby(seated_plan(meta, SETUP), lambda event: trio.lowlevel.checkpoint(), None)  # type: ignore[arg-type]
    net = NetOptions(listen_host="127.0.0.1", lobby_port=old, announce=False)
    try:
        async with trio.open_nursery() as nursery:
            port = await _reopen(nursery, host, lobby, net, None, None)  # type: ignore[arg-type]
            assert port != old and net.lobby_port == 0
            wall = Identity.generate("wall")
            channel = await dial(
                "127.0.0.1", port, wall, expected_peer_key=host.public_key, context=lb.LOBBY_CONTEXT
            )
            async with channel:
                first = lb.decode_control(await channel.receive())
            assert isinstance(first, lb.LobbyState) and first.name == "club"
            nursery.cancel_scope.cancel()
    finally:
        taken.close()
