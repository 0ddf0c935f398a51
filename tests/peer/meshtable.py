"""A table whose seats are known up front, over loopback TCP: the mesh without a lobby.

For tests only: ``p2pbelka play`` seats its bots through the host's lobby
(``peer/loopback.py``), as on a LAN, and ``peer/local_save.py`` knows how to resume
those seeds.  Here every peer is made in this process, so the seating is known
before anyone listens: each peer opens its mesh listener, the host's table
description is handed to the others directly (as the lobby would hand it), and
every seat then plays over the real mesh -- secure channels on 127.0.0.1, signed
envelopes, its own game files -- exactly as after a lobby.  Any game and any
number of seats the table accepts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import trio

from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.newgame import NewSeat, Seating, host_seat, join_seat, play_new_seat
from p2pbelka.peer.seat import GameResult, MeshHolder, NetOptions, serve_mesh, signer_of
from p2pbelka.protocol import messages as m

LOOPBACK = "127.0.0.1"


def seeded_identities(
    names: Sequence[str], seed: int | None
) -> tuple[list[Identity], list[bytes] | None, list[Callable[[], bytes]] | None]:
    """Keys for every seat, every seat's nonce (the game id is derived from them) and
    each seat's stream of deal seeds, all from ``seed`` (reproducible: tests and
    practice); with None, fresh keys, nonces and OS seeds."""
    if seed is None:
        return [Identity.generate(name) for name in names], None, None
    rng = random.Random(seed)
    ids = [Identity.from_seed(rng.randbytes(32), name) for name in names]
    nonces = [rng.randbytes(m.NONCE_SIZE) for _ in names]
    return ids, nonces, [_stream(rng.randbytes(8)) for _ in names]


async def mesh_table(
    identities: Sequence[Identity],
    front_ends: Sequence[FrontEnd],
    *,
    game: str,
    home: Path,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    nonces: Sequence[bytes] | None = None,
    fresh_seeds: Sequence[Callable[[], bytes]] | None = None,
    net: NetOptions | None = None,
    table_name: str = "loopback table",
) -> list[GameResult]:
    """Play one game of ``game`` between ``identities`` (seat order; seat 0 hosts), each
    seat played by its front end over the mesh on loopback; game files go under
    ``home/seat<N>``.  The results come in seat order."""
    n = len(identities)
    base = net or NetOptions(give_up_after=math.inf)
    nets = [
        replace(
            base,
            listen_host=LOOPBACK,
            listen_port=0,
            announce=False,
            home=home / f"seat{seat}",
            fresh_seeds=fresh_seeds[seat] if fresh_seeds is not None else None,
        )
        for seat in range(n)
    ]
    local = LocalGame(
        [signer_of(identity) for identity in identities],
        [identity.name for identity in identities],
        preset,
        dict(options or {}),
        game=game,
        nonces=list(nonces or []),
    )
    setup = local.setup()
    results: list[GameResult | None] = [None] * n
    async with trio.open_nursery() as nursery:
        holders = [MeshHolder() for _ in range(n)]
        ports = []
        for seat in range(n):
            ports.append(
                await nursery.start(serve_mesh, identities[seat], nets[seat], holders[seat])
            )
        peers = [(LOOPBACK, port) for port in ports]
        seats: list[NewSeat] = []
        for seat in range(n):
            seating = Seating(local.game_id, setup, peers, ports[seat], None, table_name)
            if seat == 0:
                seats.append(host_seat(identities[seat], nets[seat], seating))
            else:  # the host's table description, as the lobby would hand it over
                described = seats[0].table.view.transcript[0].raw
                nonce = local.nonces[seat]
                seats.append(join_seat(identities[seat], nets[seat], seating, nonce, described))

        async def run(seat: int) -> None:
            results[seat] = await play_new_seat(
                identities[seat], seats[seat], front_ends[seat], nets[seat], holders[seat]
            )

        async with trio.open_nursery() as players:
            for seat in range(n):
                players.start_soon(run, seat)
        nursery.cancel_scope.cancel()
    return [r for r in results if r is not None]


def _stream(key: bytes) -> Callable[[], bytes]:
    rng = random.Random(key)
    return lambda: rng.randbytes(32)
