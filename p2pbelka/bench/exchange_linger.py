"""Exchange vectors of a game's end on the mesh (protocol/SPEC.md section 7.3: ``done``
and the linger after it), as the reference's trio code runs it: seat 0's ``Mesh``
(``serve_channel``, ``linger``) over ``exchange_live``'s channels under a mock clock,
its links to seats 1 and 2 probes.  Seat 0's table is finished at 1 s and lingers
with the reference's 5 s.

Each link opens with seat 0's ``resend`` (what its table holds: 2, 0, 0), which the
other seat answers with ``resent``.

- ``all-done``: both links get ``done`` at once; seat 1 asks a ``resend`` meanwhile
  and is answered (seat 0's two envelopes, ``resent``); once seats 1 and 2 said
  ``done`` (at 2 s and 3 s) the linger ends and the links close;
- ``one-silent``: seat 2's link comes up only after the end (``done`` right after
  its ``resend``) and seat 2 never says ``done``: the linger ends 5 s after seat 0's
  ``done``, and the links close.
"""

from __future__ import annotations

from typing import Any

import trio

from p2pbelka.bench.exchange_live import Cases, Probe, channel_pair, now, run_cases
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.mesh import Mesh

GAME = bytes(range(0x40, 0x50))
SEEDS = (0x21, 0x22, 0x23)
LINGER = 5.0
"""The reference's linger (``--linger``, 5 s)."""
CHAIN = (b"\x92" + b"\xa0" * 8, b"\x92" + b"\xa1" * 8)
"""Stand-ins for seat 0's two envelopes: the mesh passes a chain's bytes on unread."""
DONE = lb.encode_control(lb.Done())


def _identity(seat: int) -> Identity:
    return Identity.from_seed(bytes([SEEDS[seat]]) * 32)


def _source(seat: int, seq: int, *, newest: bool = False) -> list[bytes]:
    return list(CHAIN[seq:]) if seat == 0 else []


def _mesh() -> Mesh:
    keys = [_identity(s).public_key for s in range(3)]
    peers = [("", 6000), ("10.77.0.3", 6001), ("10.77.0.4", 6002)]
    # what seat 0's table holds of each chain: every link opens with this ``resend``
    return Mesh(_identity(0), GAME, 0, keys, peers, source=_source, wants=lambda: [2, 0, 0])


async def _link(mesh: Mesh, seat: int, links: trio.Nursery, probes: trio.Nursery) -> Probe:
    ours, theirs = await channel_pair(_identity(0), _identity(seat), GAME, f"10.77.0.{seat + 2}:1")
    links.start_soon(mesh.serve_channel, seat, ours)
    probe = Probe(f"seat {seat}", theirs)
    probe.replies["resend"] = lb.encode_control(lb.Resent())  # it holds nothing we lack
    probes.start_soon(probe.read_all)
    return probe


async def _after(delay: float, probe: Probe, *payloads: bytes) -> None:
    await trio.sleep(delay)
    for payload in payloads:
        await probe.send(payload)


async def _case(seat_2_says_done: bool) -> dict[str, Any]:
    mesh = _mesh()
    links: dict[str, Probe] = {}

    async def late_link(nursery: trio.Nursery, probes: trio.Nursery) -> None:
        await trio.sleep(1.0)
        links["seat 2"] = await _link(mesh, 2, nursery, probes)

    async with trio.open_nursery() as probes:
        async with trio.open_nursery() as nursery:
            links["seat 1"] = await _link(mesh, 1, nursery, probes)
            if seat_2_says_done:
                links["seat 2"] = await _link(mesh, 2, nursery, probes)
            await trio.sleep(1.0)
            resend = lb.encode_control(lb.Resend((0, 0, 0)))
            async with trio.open_nursery() as talk:
                talk.start_soon(_after, 1.0, links["seat 1"], resend, DONE)
                if seat_2_says_done:
                    talk.start_soon(_after, 2.0, links["seat 2"], DONE)
                else:
                    talk.start_soon(late_link, nursery, probes)
                begun = now()
                await mesh.linger(LINGER)
                ended = now()
                talk.cancel_scope.cancel()
            done_from = sorted(mesh._done)
            nursery.cancel_scope.cancel()  # the seat's program goes on to its end
    return {
        "linger_began": begun,
        "linger_ended": ended,
        "done_from": done_from,
        "links": {name: links[name].written() for name in sorted(links)},
    }


CASES: Cases = {
    "all-done": (
        "seat 0 finished at 1 s: `done` on both links at once; seat 1's `resend` "
        "answered meanwhile; seats 1 and 2 say `done` (2 s, 3 s): the linger ends then",
        lambda: _case(True),
    ),
    "one-silent": (
        "seat 2's link comes up after seat 0's end (`done` right after its `resend`) and "
        "seat 2 never says `done`: the linger ends 5 s after seat 0's `done`",
        lambda: _case(False),
    ),
}


def linger() -> dict[str, Any]:
    return {
        "about": "SPEC.md section 7.3, `done` and the linger after it, as the reference "
        "seat's mesh runs it: seat 0 of a three-seat game (key seeds 0x21, 0x22, 0x23 "
        "x 32; game id 40..4f) with links to seats 1 and 2 over real secure channels on "
        "in-memory streams, under a mock clock from 0 s; each link opens with seat 0's "
        "`resend` (its table holds 2, 0, 0), answered `resent`; its table is finished at 1 s "
        "(`linger_began`) and it lingers 5 s at most (the reference's `--linger`); "
        "`linger_ended` is when it stops waiting, `done_from` the seats whose `done` it "
        "heard; each link's payloads as the other seat saw them (`dir` from seat 0 or "
        "to it, `at` in seconds, `t`, bytes), `closed_at` when seat 0 closed it (its "
        "program ends once the linger is over).  The two envelopes of seat 0's chain "
        "are stand-ins (the mesh passes them unread)",
        "keys": [_identity(s).public_key.hex() for s in range(3)],
        "cases": run_cases(CASES),
    }
