"""A whole table on this machine, in one call: real peers over loopback TCP, as many
as the game's table seats.

Each seat has its own identity, its own listener, its own game directory and
its own table; they meet in the host's lobby and play over the mesh exactly as
on a LAN (nothing is announced: the joiners dial the lobby's port).  Seat 0 is
the caller's front end, the other seats are bots.  This is what ``p2pbelka
play`` runs, and what tests use for a quick real-network game.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import trio

from p2pbelka.bots import Bot, default_level, make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd
from p2pbelka.peer.lan import (
    GameResult,
    LobbyEvent,
    NetOptions,
    OnLobby,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.local import SEAT_NAMES
from p2pbelka.peer.store import seat_home
from p2pbelka.rules import registry

DEFAULT_BOT = default_level()
BOT_NAMES = SEAT_NAMES[1:]


async def _ignore(event: LobbyEvent) -> None:
    return None


async def loopback_table(
    front_end_seat0: FrontEnd,
    bots: Sequence[str | Bot] | None = None,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    seed: int | None = None,
    transcript_dir: str | Path | None = None,
    identity: Identity | None = None,
    identities: Sequence[Identity] | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = _ignore,
    table_name: str = "loopback table",
    game: str = registry.DEFAULT,
) -> list[GameResult]:
    """Play one game of ``game``: seat 0 is ``front_end_seat0``, the other seats are
    ``bots`` (levels or ``Bot`` objects (``bots.make_bot``), one for each other seat; by
    default a ``DEFAULT_BOT`` for each other seat of the game's default table).  Every
    peer keeps its game under ``transcript_dir/seat<N>`` (a fresh temporary directory
    by default); the results come in seat order.

    ``seed`` makes keys, deals and bots reproducible (tests and demos only).
    ``identity`` is seat 0's (the user's); by default a fresh one.  ``identities``
    gives every seat's (tests that speak for a seat); ``on_lobby`` hears the host's lobby.
    """
    if bots is None:
        bots = (DEFAULT_BOT,) * (registry.spec(game).default_seats - 1)
    seats = len(bots) + 1
    root = Path(transcript_dir) if transcript_dir is not None else Path(tempfile.mkdtemp())
    parts = seeded(seed, seats, game) if seed is not None else None
    ids = _identities(parts, identities, identity)
    nets = _nets(net or NetOptions(), parts, root, seats)
    bot_ends = [_bot_front_end(bot, bot_seed(seed, n)) for n, bot in enumerate(bots, 1)]
    peers = _Peers(ids, [front_end_seat0, *bot_ends], nets)

    def host(events: OnLobby) -> Awaitable[GameResult]:
        return host_game(
            peers.ids[0],
            table_name,
            front_end_seat0,
            preset=preset,
            options=options,
            net=peers.nets[0],
            on_lobby=events,
            game=game,
            players=seats,
        )

    return await _meet_and_play(peers, host, on_lobby)


@dataclass(frozen=True)
class _Peers:
    """Every seat's identity, front end and network options, by seat."""

    ids: list[Identity]
    front_ends: list[FrontEnd]
    nets: list[NetOptions]


def _identities(
    parts: Seeded | None, identities: Sequence[Identity] | None, identity: Identity | None
) -> list[Identity]:
    """Every seat's identity: ``identities`` if given, else seeded or fresh ones, seat 0's
    ``identity`` if given."""
    ids = [
        Identity.from_seed(parts.keys[n], name) if parts else Identity.generate(name)
        for n, name in enumerate(SEAT_NAMES)
    ]
    if identities is not None:
        ids = list(identities)
    if identity is not None:
        ids[0] = identity
    return ids


def _nets(base: NetOptions, parts: Seeded | None, root: Path, seats: int) -> list[NetOptions]:
    """Every seat's network options: on loopback, nothing announced, its own home."""
    if parts is not None:
        # the table id names the lobby; the seats' nonces give the game id, which goes
        # into every deal's shuffle and the dealer's lots
        base = replace(base, table_id=parts.game_id)
    return [
        replace(
            base,
            listen_host="127.0.0.1",
            announce=False,
            home=seat_home(root, n),
            fresh_seeds=stream(parts.streams[n]) if parts else None,
            fresh_nonces=stream(parts.nonces[n], size=16) if parts else base.fresh_nonces,
        )
        for n in range(seats)
    ]


def _bot_front_end(bot: str | Bot, seed: int | None) -> FrontEnd:
    return BotFrontEnd(make_bot(bot, seed) if isinstance(bot, str) else bot)


async def _meet_and_play(
    peers: _Peers, host: Callable[[OnLobby], Awaitable[GameResult]], on_lobby: OnLobby
) -> list[GameResult]:
    """Open the host's lobby, seat the joiners in it one at a time (so seats follow the
    bots' order, and a seed reproduces the game), and play: the results in seat order."""
    seats = len(peers.nets)
    results: list[GameResult | None] = [None] * seats
    lobby_port: list[int] = []
    opened = trio.Event()

    async def host_events(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby_port.append(event.lobby_port)
            opened.set()
        await on_lobby(event)

    async def run_host() -> None:
        results[0] = await host(host_events)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_host)
        await opened.wait()
        for n in range(1, seats):
            seated = trio.Event()
            nursery.start_soon(_join, peers, n, lobby_port[0], seated, results)
            await seated.wait()
    return [r for r in results if r is not None]


async def _join(
    peers: _Peers, n: int, lobby_port: int, seated: trio.Event, results: list[GameResult | None]
) -> None:
    """Seat ``n``'s peer: into the lobby on ``lobby_port`` (``seated`` set once it has a
    seat), then its game; its result goes into ``results`` at its seat."""

    async def joiner_events(event: LobbyEvent) -> None:
        if isinstance(event, SeatsChanged) and event.me is not None:
            seated.set()

    result = await join_game(
        peers.ids[n],
        "127.0.0.1",
        lobby_port,
        peers.front_ends[n],
        host_key=peers.ids[0].public_key,
        net=peers.nets[n],
        on_lobby=joiner_events,
    )
    results[result.seat] = result


@dataclass(frozen=True)
class Seeded:
    """What one integer fixes in a reproducible game (tests and demos only)."""

    keys: list[bytes]  # each seat's identity seed (one for every name, whatever the seats)
    game_id: bytes  # the lobby's table id (the game id is derived from the nonces)
    streams: list[bytes]  # each seat's stream of fresh secrets: ``stream(key)``
    nonces: list[bytes]  # each seat's stream of table nonces: ``stream(key, size=16)``


def seeded(seed: int, seats: int, game: str = registry.DEFAULT) -> Seeded:
    """The keys, game id and secret streams ``seed`` gives ``seats`` seats of ``game``;
    a resumed game asks again for the same ones.  Every game but the default one draws
    from seeds of its own for each seat count, so one ``--seed`` never names two games (a
    local game is kept under its game id, ``local_save.py``); the default game's seeds
    are the ones it drew before there were other games."""
    rng = random.Random(seed if game == registry.DEFAULT else f"{game}/{seats}/{seed}")
    keys = [rng.randbytes(32) for _ in SEAT_NAMES]
    game_id = rng.randbytes(16)
    streams = [rng.randbytes(8) for _ in range(seats)]
    return Seeded(keys, game_id, streams, [rng.randbytes(8) for _ in range(seats)])


def stream(key: bytes, skip: int = 0, size: int = 32) -> Callable[[], bytes]:
    """``size``-byte values from ``key``, after the first ``skip`` (those a resumed seat
    already drew and saved)."""
    rng = random.Random(key)
    for _ in range(skip):
        rng.randbytes(size)
    return lambda: rng.randbytes(size)


def bot_seed(seed: int | None, seat: int) -> int | None:
    """The seed of the bot in ``seat`` of a game seeded with ``seed``."""
    return None if seed is None else seed * 10 + seat
