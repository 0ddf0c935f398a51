"""``p2pbelka bench bounds``: what one seated peer can make another hold, or send.

The peer under attack is seat 0 of a game whose seat 3 changed hands (a continuation
gave it to a bot, ``segments.seat_changed``), with its seat-change runner on a
real mesh listener on loopback.  The attacker is seat 3's player: a real channel
(its key, the channel's crypto), frames written straight to it.  Every attack is a
bounded loop (a count) and ends by itself; figures:

- ``records_*``: N unasked ``seat_record``s of SIZE bytes (seat 0 is not fetching):
  ``records_growth_mib``, what this process holds more once they were all read
  (tracemalloc), and ``records_kept``, the records the answerer keeps;
- ``chain_*``: N ``seat_chain`` requests from record 0, written as fast as the link
  takes them, while the attacker reads what comes back until it is quiet for 2 s:
  ``chain_answers`` (``seat_chain_end``s received), ``chain_out_per_in`` (bytes the
  answerer sent per byte of requests), ``chain_answer_kib`` (one whole answer) and
  ``chain_growth_mib`` (tracemalloc peak over the attack);
- ``chain_unread_*``: the same requests from an attacker that never reads:
  ``chain_unread_peak_mib`` (tracemalloc peak), ``chain_unread_link_closed``.

Against a version before these bounds (no ``Mesh.stream_to``) the same script
measures the old behaviour: ``python path/to/bounds.py`` (its segments are found
where that version keeps them: ``bench/belka_segments.py`` before the games' folders).
"""

from __future__ import annotations

import importlib
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.connection import SecureChannel, dial, serve_secure
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.mesh import FRAME_OVERHEAD, MAX_MESH_FRAME, Mesh
from p2pbelka.peer.seatchange.runner import RunnerOptions, SeatChangeRunner, SeatRecords
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.seatchange import (
    ChainEnd,
    ChainRecord,
    ChainRequest,
    decode_seat_change,
    encode_seat_change,
)
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.session import Table

LOCAL = "127.0.0.1"
MIB = 1 << 20
QUIET = 2.0
"""The attacker stops reading once nothing came for this long."""


def _segments() -> Any:
    """The scenario that changes seat 3's hands: this version's, or, where this script
    runs against an older checkout, that checkout's, from before the games' folders."""
    try:
        return importlib.import_module("p2pbelka.bench.games.belka.segments")
    except ModuleNotFoundError:
        return importlib.import_module("p2pbelka.bench.belka_segments")


LOST: int = _segments().LOST
"""The seat that changed hands."""


def seat_changed(seed: int) -> tuple[Table, list[Envelope]]:
    """Seat 0's table and file of the seat-change game (the steps themselves in a
    version before ``segments.seat_changed``)."""
    bs: Any = _segments()
    if hasattr(bs, "seat_changed"):
        return bs.seat_changed(seed)  # type: ignore[no-any-return]
    seats = bs._Seats(seed)
    bs._lose_seat(seats, seed)
    bs._play_segment(seats, bs._to_the_bot(seats, seed))
    return seats.tables[0], seats.file


@dataclass
class Target:
    """Seat 0 under attack: its runner, its mesh, where it listens."""

    runner: SeatChangeRunner
    mesh: Mesh
    port: int
    attacker: Identity
    records: int


@asynccontextmanager
async def target(seed: int = 1) -> AsyncIterator[Target]:
    """Seat 0 of a game whose seat ``LOST`` changed hands, listening on loopback."""
    table, file = seat_changed(seed)
    ids = [Identity.generate(f"seat {s}") for s in range(4)]
    keys = [i.public_key for i in ids]
    mesh = Mesh(ids[0], table.game_id, 0, keys, [], source=table.view.envelopes_from, wants=list)
    with tempfile.TemporaryDirectory() as tmp:
        with TranscriptWriter(Path(tmp) / "transcript.p2pb") as writer:
            assert table.state.setup is not None
            runner = SeatChangeRunner(
                ids[0],
                mesh,
                BotFrontEnd(make_bot("random", 0)),
                SeatRecords(writer, journal=None),
                RunnerOptions(
                    pause_after=10.0, give_up_after=60.0, resend_after=1.0, offer_timeout=30.0
                ),
                seed_sources=lambda segment: table.state.deals.seed_source,
                names=[s.name for s in table.state.setup.seats],
            )
            runner.start(table)
            runner.state.transcript[:] = file
            async with trio.open_nursery() as nursery:
                port = await nursery.start(
                    lambda task_status: serve_secure(
                        mesh.accept,
                        ids[0],
                        host=LOCAL,
                        context=table.game_id,
                        authorize=mesh.authorize,
                        max_frame_size=MAX_MESH_FRAME,
                        task_status=task_status,
                    )
                )
                yield Target(runner, mesh, port, ids[LOST], len(file))
                nursery.cancel_scope.cancel()


async def attacker_link(t: Target) -> SecureChannel:
    """Seat ``LOST``'s player's channel to seat 0 (as its mesh would dial it)."""
    return await dial(
        LOCAL,
        t.port,
        t.attacker,
        expected_peer_key=t.mesh.identity.public_key,
        context=t.mesh.game_id,
        max_frame_size=MAX_MESH_FRAME,
    )


def _held(t: Target) -> int:
    """Records seat 0's reclaimer holds from other peers."""
    held = t.runner.reclaim._records
    return sum(len(v) for v in held.values())


async def records_flood(count: int, size: int) -> dict[str, float]:
    """``count`` unasked records of ``size`` bytes from a seated peer."""
    async with target() as t:
        channel = await attacker_link(t)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for index in range(count):
            await channel.send(encode_seat_change(ChainRecord(index, bytes(size))))
        await channel.send(encode_seat_change(ChainEnd(count)))
        with trio.move_on_after(60):  # until seat 0 read them all (it answers a resend)
            while t.mesh.bytes_sent == 0 or (_held(t) < count and _dropped(t) < count):
                await trio.sleep(0.05)
            await trio.sleep(0.5)
        growth = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        kept = _held(t)
        await channel.aclose()
        return {"growth_mib": round(growth / MIB, 1), "kept": kept, "dropped": _dropped(t)}


def _dropped(t: Target) -> int:
    dropped = getattr(t.runner.reclaim, "dropped", None)
    return sum(dropped.values()) if dropped is not None else 0


async def chain_flood(count: int, read: bool) -> dict[str, float]:
    """``count`` chain requests from the seat that changed hands, as fast as the link
    takes them; ``read``: the attacker reads what comes back (else it never does)."""
    request = encode_seat_change(ChainRequest(0))
    async with target() as t:
        channel = await attacker_link(t)
        got = {"bytes": 0, "ends": 0, "records": 0}

        async def reader() -> None:
            while True:
                with trio.move_on_after(QUIET) as quiet:
                    try:
                        payload = await channel.receive()
                    except NetError:
                        return
                if quiet.cancelled_caught:
                    return
                got["bytes"] += len(payload) + FRAME_OVERHEAD
                try:
                    msg = decode_seat_change(payload)
                except Exception:  # an envelope or a control message of the mesh
                    continue
                got["ends"] += isinstance(msg, ChainEnd)
                got["records"] += isinstance(msg, ChainRecord)

        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        sent = 0
        async with trio.open_nursery() as nursery:
            if read:
                nursery.start_soon(reader)
            try:
                for _ in range(count):
                    await channel.send(request)
                    sent += len(request) + FRAME_OVERHEAD
            except NetError:
                pass  # seat 0 closed the link
            if not read:
                with trio.move_on_after(10):
                    while not channel.closed and t.mesh.connected():
                        await trio.sleep(0.05)
        peak = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.stop()
        closed = getattr(t.mesh, "closed_full", -1)
        await channel.aclose()
    one = t.records and got["bytes"] / max(1, got["ends"])
    return {
        "records": t.records,
        "requests": count,
        "answers": got["ends"],
        "out_per_in": round(got["bytes"] / sent, 1) if read else -1,
        "answer_kib": round(one / 1024, 1),
        "peak_mib": round(peak / MIB, 1),
        "link_closed": closed,
    }


def run(quick: bool = False) -> dict[str, object]:
    figures: dict[str, object] = {}
    n = 300 if quick else 2000
    flood = trio.run(records_flood, n, 60_000)
    figures.update({f"records_{k}": v for k, v in flood.items()})
    figures["records_sent"] = n
    chain = trio.run(chain_flood, 200 if quick else 2000, True)
    figures.update({f"chain_{k}": v for k, v in chain.items() if k != "link_closed"})
    unread = trio.run(chain_flood, 300, False)  # an older version holds them all
    figures["chain_unread_peak_mib"] = unread["peak_mib"]
    figures["chain_unread_link_closed"] = unread["link_closed"]
    return figures


if __name__ == "__main__":  # against another checkout: python path/to/bounds.py
    start = time.perf_counter()
    for key, value in run(quick="--quick" in sys.argv).items():
        print(f"{key:28} {value}")
    print(f"{'seconds':28} {time.perf_counter() - start:.0f}")
