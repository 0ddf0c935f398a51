"""A seated peer that sends what nobody asked for does not stop a game (loopback).

Four real LAN peers play a whole game; once every link is up, seat 2 sends seat 0
2,000 unasked ``seat_record``s of 60 KB (as fast as seat 0 reads them) and seat 1
2,000 ``seat_chain`` requests at once.  The game finishes everywhere with one
transcript; seat 0 kept none of the records and counted what it dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import GameResult, LobbyEvent, NetOptions, SeatsChanged, TableOpen
from p2pbelka.protocol.seatchange import ChainRecord, ChainRequest, encode_seat_change
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.lan.helpers import host_or_join, mesh_of
from tests.lan.test_lan_chat import all_links_up

RECORDS = 2000
SIZE = 60_000


class Flooder(BotFrontEnd):
    """Seat 2: plays, and floods seats 0 and 1 once every link is up."""

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.GameStarted):
            await all_links_up(driver)
            mesh = mesh_of(driver)
            records = (
                encode_seat_change(ChainRecord(i, bytes([i % 251]) * SIZE)) for i in range(RECORDS)
            )
            assert mesh.stream_to(0, records)
            for _ in range(RECORDS):
                mesh.send_to(1, encode_seat_change(ChainRequest(0)))
        await super().on_event(driver, event)


class Victim(BotFrontEnd):
    """Seat 0: notes what its reclaimer dropped and holds when the game ends."""

    def __init__(self) -> None:
        super().__init__(make_bot("random", 0))
        self.dropped: dict[str, int] = {}
        self.held = -1

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.GameOver | ev.GameAborted):
            runner: Any = getattr(mesh_of(driver).on_control, "__self__", None)
            self.dropped = dict(runner.reclaim.dropped)
            self.held = sum(len(v) for v in runner.reclaim._records.values())
        await super().on_event(driver, event)


async def test_a_flood_of_unasked_records_and_chain_requests_does_not_stop_the_game(
    tmp_path: Path,
) -> None:
    ids = [Identity.generate(name) for name in ["Aigerim", "Bolat", "Saule", "Nurlan"]]
    victim = Victim()
    front_ends = [
        victim,
        BotFrontEnd(make_bot("random", 1)),
        Flooder(make_bot("random", 2)),
        BotFrontEnd(make_bot("random", 3)),
    ]
    results: list[GameResult] = []
    opened = trio.Event()
    port: list[int] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            port.append(event.lobby_port)
            opened.set()

    async def seat(n: int, seated: trio.Event) -> None:
        async def lobby(event: LobbyEvent) -> None:
            await on_lobby(event)
            if isinstance(event, SeatsChanged) and event.me is not None:
                seated.set()

        net = NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path / f"p{n}")
        results.append(await host_or_join(n, ids, "Bounds", front_ends, net, lobby, opened, port))

    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for n in range(4):  # one at a time: joiner n takes seat n
                seated = trio.Event()
                nursery.start_soon(seat, n, seated)
                await (opened.wait() if n == 0 else seated.wait())

    assert sorted(r.seat for r in results) == [0, 1, 2, 3]
    assert all(r.finished for r in results), "the flood stopped the game"
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1 and verify_bytes(files.pop()).ok
    assert victim.held == 0 and victim.dropped.get("unasked", 0) > 0
