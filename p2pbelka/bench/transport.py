"""``p2pbelka bench net``: cost of the transport layer on this machine.

Figures:

- ``handshake_in_memory_ms``: the four-message handshake, both sides, no sockets;
- ``handshake_with_code_in_memory_ms``: the same with an invite code (version 2:
  SPAKE2 and its confirmations on both sides);
- ``handshake_x``, ``handshake_with_code_x``, ``invite_code_cost_x``: those two and
  their difference in yardsticks (one PyNaCl ed25519 noclamp multiplication,
  ``yardstick_us``, timed in the same run), so busy and quiet machines compare;
- ``connect_and_handshake_ms``: TCP connect on loopback plus the handshake (and
  ``connect_and_handshake_with_code_ms`` with a code);
- ``round_trip_us``: a small message out and its reply back over loopback;
- ``frames_per_s_100B`` / ``frames_per_s_64KiB``: one-way encrypted frames;
- ``beacons_checked_per_s``: beacon parse and signature check (the listener's
  cost per valid datagram).
"""

from __future__ import annotations

import time
from functools import partial

import trio

from p2pbelka.net.beacon import TableAd, encode_beacon, new_table_id
from p2pbelka.net.connection import SecureChannel, dial, serve_secure
from p2pbelka.net.directory import TableDirectory
from p2pbelka.net.guesses import GuessPolicy, InviteGuard
from p2pbelka.net.handshake import Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import normal_code
from p2pbelka.rules import registry

_HOST = "127.0.0.1"
_CTX = b"bench"
_CODE = "482 913"


def _handshakes(n: int, server: Identity, client: Identity, code: bytes | None = None) -> float:
    start = time.perf_counter()
    for _ in range(n):
        i = Handshake(
            client, Role.INITIATOR, context=_CTX, expected_peer_key=server.public_key, code=code
        )
        r = Handshake(server, Role.RESPONDER, context=_CTX, code=code)
        m2 = r.receive(i.start())
        assert m2 is not None
        m3 = i.receive(m2)
        assert m3 is not None
        m4 = r.receive(m3)
        assert m4 is not None
        i.receive(m4)
    return (time.perf_counter() - start) / n * 1e3


def _beacons(n: int, host: Identity) -> float:
    seats = registry.spec(registry.DEFAULT).default_seats
    ad = TableAd(new_table_id(), "bench", registry.DEFAULT, seats, seats - 1, 5000)
    datagrams = [encode_beacon(host, ad, seq, 0) for seq in range(1, n + 1)]
    directory = TableDirectory()
    start = time.perf_counter()
    for d in datagrams:
        directory.handle_datagram(d, _HOST, 0.0)
    return n / (time.perf_counter() - start)


async def _loopback(quick: bool, server: Identity, client: Identity) -> dict[str, object]:
    figures: dict[str, object] = {}
    counted = 0
    target = 0
    reached = trio.Event()

    async def sink(channel: SecureChannel) -> None:
        nonlocal counted
        async for msg in channel:
            if msg == b"ping":
                await channel.send(b"pong")
                continue
            counted += 1
            if counted == target:
                reached.set()

    async with trio.open_nursery() as nursery:
        port = await nursery.start(partial(serve_secure, sink, server, host=_HOST, context=_CTX))
        n = 10 if quick else 100
        start = time.perf_counter()
        for _ in range(n):
            ch = await dial(_HOST, port, client, expected_peer_key=server.public_key, context=_CTX)
            await ch.aclose()
        figures["connect_and_handshake_ms"] = round((time.perf_counter() - start) / n * 1e3, 2)
        guard = InviteGuard(_CODE, GuessPolicy(limit=10**9))
        coded = await nursery.start(
            partial(serve_secure, sink, server, host=_HOST, context=_CTX, invite=guard)
        )
        start = time.perf_counter()
        for _ in range(n):
            ch = await dial(_HOST, coded, client, context=_CTX, code=normal_code(_CODE))
            await ch.aclose()
        figures["connect_and_handshake_with_code_ms"] = round(
            (time.perf_counter() - start) / n * 1e3, 2
        )

        ch = await dial(_HOST, port, client, context=_CTX)
        n = 100 if quick else 2000
        start = time.perf_counter()
        for _ in range(n):
            await ch.send(b"ping")
            await ch.receive()
        figures["round_trip_us"] = round((time.perf_counter() - start) / n * 1e6)

        for label, size, n in (
            ("frames_per_s_100B", 100, 2000 if quick else 50_000),
            ("frames_per_s_64KiB", 65536, 100 if quick else 2000),
        ):
            counted, target, reached = 0, n, trio.Event()
            payload = b"x" * size
            start = time.perf_counter()
            for _ in range(n):
                await ch.send(payload)
            await reached.wait()
            figures[label] = round(n / (time.perf_counter() - start))
        await ch.aclose()
        nursery.cancel_scope.cancel()
    return figures


def run(quick: bool = False) -> dict[str, object]:
    from p2pbelka.bench.deal_crypto import yardstick_us

    server, client = Identity.generate("bench server"), Identity.generate("bench client")
    unit_ms = yardstick_us(200 if quick else 2000) / 1000
    plain = _handshakes(50 if quick else 500, server, client)
    coded = _handshakes(10 if quick else 100, server, client, normal_code(_CODE))
    figures: dict[str, object] = {
        "yardstick_us": round(1000 * unit_ms, 1),
        "handshake_in_memory_ms": round(plain, 3),
        "handshake_with_code_in_memory_ms": round(coded, 3),
        "handshake_x": round(plain / unit_ms, 1),
        "handshake_with_code_x": round(coded / unit_ms, 1),
        "invite_code_cost_x": round((coded - plain) / unit_ms, 1),
    }
    figures.update(trio.run(_loopback, quick, server, client))
    figures["beacons_checked_per_s"] = round(_beacons(200 if quick else 5000, server))
    return figures
