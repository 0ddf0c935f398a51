"""A whole table on this machine, in one call: real peers over loopback TCP (four for
Belka, two or three for Belot).

Each seat has its own identity, its own listener, its own game directory and
its own table; they meet in the host's lobby and play over the mesh exactly as
on a LAN (nothing is announced: the joiners dial the lobby's port).  Seat 0 is
the caller's front end, the other seats are bots.  This is what ``p2pbelka
play`` runs, and what tests use for a quick real-network game.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import trio

from p2pbelka.bots.base import BOT_LEVELS, Bot, make_bot
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
from p2pbelka.rules.game import GAME

DEFAULT_BOT = "heuristic" if "heuristic" in BOT_LEVELS else "random"
BOT_NAMES = SEAT_NAMES[1:]


async def _ignore(event: LobbyEvent) -> None:
    return None


async def loopback_table(
    front_end_seat0: FrontEnd,
    bots: Sequence[str | Bot] = (DEFAULT_BOT,) * 3,
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
    game: str = GAME,
) -> list[GameResult]:
    """Play one game of ``game``: seat 0 is ``front_end_seat0``, the other seats are
    ``bots`` (levels or ``Bot`` objects; three for Belka, one or two for Belot).  Every
    peer keeps its game under ``transcript_dir/seat<N>`` (a fresh temporary directory by
    default); the results come in seat order.

    ``seed`` makes keys, deals and bots reproducible (tests and demos only).
    ``identity`` is seat 0's (the user's); by default a fresh one.  ``identities``
    gives every seat's (tests that speak for a seat); ``on_lobby`` hears the host's lobby.
    """
    seats = len(bots) + 1
    root = Path(transcript_dir) if transcript_dir is not None else Path(tempfile.mkdtemp())
    rng = random.Random(seed) if seed is not None else None
    names = list(SEAT_NAMES)
    ids = [
        Identity.from_seed(rng.randbytes(32), name) if rng else Identity.generate(name)
        for name in names
    ]
    if identities is not None:
        ids = list(identities)
    if identity is not None:
        ids[0] = identity
    base = net or NetOptions()
    if rng is not None:
        # the game id goes into every deal's shuffle and the dealer's lots
        base = replace(base, game_id=rng.randbytes(16))
    nets = [
        replace(
            base,
            listen_host="127.0.0.1",
            announce=False,
            home=root / f"seat{n}",
            fresh_seeds=_stream(rng.randbytes(8)) if rng else None,
        )
        for n in range(seats)
    ]
    front_ends: list[FrontEnd] = [front_end_seat0]
    for n, bot in enumerate(bots):
        if isinstance(bot, str):
            bot = make_bot(bot, None if seed is None else seed * 10 + n + 1)
        front_ends.append(BotFrontEnd(bot))

    results: list[GameResult | None] = [None] * seats
    lobby_port: list[int] = []
    opened = trio.Event()

    async def host_events(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby_port.append(event.lobby_port)
            opened.set()
        await on_lobby(event)

    async def run_host() -> None:
        results[0] = await host_game(
            ids[0],
            table_name,
            front_ends[0],
            preset=preset,
            options=options,
            net=nets[0],
            on_lobby=host_events,
            game=game,
            players=seats,
        )

    async def run_joiner(n: int, seated: trio.Event) -> None:
        async def joiner_events(event: LobbyEvent) -> None:
            if isinstance(event, SeatsChanged) and event.me is not None:
                seated.set()

        result = await join_game(
            ids[n],
            "127.0.0.1",
            lobby_port[0],
            front_ends[n],
            host_key=ids[0].public_key,
            net=nets[n],
            on_lobby=joiner_events,
        )
        results[result.seat] = result

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_host)
        await opened.wait()
        # One at a time, so seats follow the bots' order (and a seed reproduces the game).
        for n in range(1, seats):
            seated = trio.Event()
            nursery.start_soon(run_joiner, n, seated)
            await seated.wait()
    return [r for r in results if r is not None]


def _stream(key: bytes) -> Callable[[], bytes]:
    rng = random.Random(key)
    return lambda: rng.randbytes(32)
