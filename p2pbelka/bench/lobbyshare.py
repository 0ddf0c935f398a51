"""1,000 results shared in a lobby (protocol/results.md 6.2): member 0 hosts a table
holding them, member 1 joins holding one game the two played together, and the two
share before any game (real peers on loopback, each with its own home, nobody ready):
the seconds from the joiner's exchange beginning to its results counted, and the bytes
both sides sent for it (the wrapped messages, before the channel's framing)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import trio

from p2pbelka.bots import make_bot
from p2pbelka.ladder.certificate import Certificate
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    LobbyEvent,
    NetOptions,
    OnLobby,
    ResultsShared,
    TableOpen,
    host_game,
    join_game,
)

LIMIT = 120.0
"""Seconds the measure waits at most for both sides to say what they shared."""


async def lobby_share_figures(
    certificates: list[Certificate], seeds: tuple[bytes, bytes]
) -> dict[str, object]:
    """``seeds``: members 0's and 1's keys (``bench.ladder.member_seed``)."""
    giver, taker = (Identity.from_seed(seed, f"member {n}") for n, seed in enumerate(seeds))
    together = next(c for c in certificates if {giver.public_key, taker.public_key} <= set(c.keys))
    said: dict[str, ResultsShared] = {}
    opened: list[int] = []
    news = trio.Event()

    def hear(who: str) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            nonlocal news
            if isinstance(event, TableOpen):
                opened.append(event.lobby_port)
            if isinstance(event, ResultsShared):
                said[who] = event
            news.set()
            news = trio.Event()

        return on_lobby

    with tempfile.TemporaryDirectory() as folder:
        homes = [Path(folder) / f"member{n}" for n in (0, 1)]
        for home, who, held in ((homes[0], giver, certificates), (homes[1], taker, [together])):
            with Ledger(home / "ladder.sqlite", who.public_key) as ledger, ledger.batch():
                for certificate in held:
                    ledger.add_read(certificate, "given")
        nets = [NetOptions(listen_host="127.0.0.1", announce=False, home=h) for h in homes]
        front = BotFrontEnd(make_bot("random", 1))
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(
                    lambda: host_game(giver, "bench", front, net=nets[0], on_lobby=hear("host"))
                )
                while not opened:
                    await news.wait()
                nursery.start_soon(
                    lambda: join_game(
                        taker,
                        "127.0.0.1",
                        opened[0],
                        front,
                        net=nets[1],
                        on_lobby=hear("joiner"),
                        ready=False,
                    )
                )
                while len(said) < 2:
                    await news.wait()
                nursery.cancel_scope.cancel()
    joiner, host = said["joiner"], said["host"]
    return {
        "lobby_share_results": joiner.counted,
        "lobby_share_s": round(joiner.seconds, 2),
        "lobby_share_mib": round((joiner.sent + host.sent) / 2**20, 2),
        "lobby_share_error": joiner.error or host.error or None,
    }
