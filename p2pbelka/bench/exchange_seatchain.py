"""Exchange vector of the answer to ``seat_chain`` (protocol/SPEC.md section 9.5) as the
reference runs it: seat 0's ``Reclaimer`` answering through its ``Mesh`` (the answer
streamed as the link drains), over ``exchange_live``'s channels under a mock clock.

The game is ``hand-back.json``'s: seat 3 lost after the first deal, a bot seated by a
continuation that seat 0 runs; seat 0 holds both segments.  Seat 3's player (its own
key, which the mesh pins) and seat 1 each have a link to seat 0:

- at 1 s seat 3 asks from record 0: every record of the game, each a ``seat_record``
  (``index`` counting from ``start``), then ``seat_chain_end`` with the count;
- at 1.5 s it asks again: dropped, unanswered (an answer begun less than 1 s ago);
- at 2.5 s it asks from the first record of the bot's segment (a watching player's
  top-up): the records from there, then ``seat_chain_end`` with the whole count;
- at 3 s seat 1, whose seat never changed hands, asks: ``seat_chain_end`` 0 alone.

Only the three lines that hand a decoded ``seat_chain`` to the reclaimer are this
module's (the runner's ``_on_control`` does the same, inside a game it runs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import trio

from p2pbelka.bench.exchange_game import lost_game
from p2pbelka.bench.exchange_handback import _continuation
from p2pbelka.bench.exchange_live import Cases, Probe, channel_pair, now, run_cases
from p2pbelka.bench.exchange_machine import _machine
from p2pbelka.net.identity import Identity
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.peer.seatchange.reclaim import Reclaimer
from p2pbelka.peer.seatchange.state import SeatState
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import TranscriptWriter

PLAYER, OTHER = 3, 1


def identities_of(signers: list[Signer]) -> list[Identity]:
    """Each seat's transport identity: the key it signs with."""
    return [Identity(s._key, f"seat {n}") for n, s in enumerate(signers)]


def hub_of(
    me: int, signers: list[Signer], first: bytes, transcript: list[Envelope], change: SeatChange
) -> SeatState:
    """A seat's hold on the game: its mesh (pinning every seat's first key), its
    transcript of every segment, its seat-change machine (the table in play)."""
    keys = [s.public_key for s in signers]
    peers = [("", 6000 + s) for s in range(len(keys))]
    mesh = Mesh(identities_of(signers)[me], change.segment, me, keys, peers,
                source=lambda *a, **k: [], wants=list)  # fmt: skip
    # the answer and the top-up read the mesh, the table and the transcript; no file
    writer = cast(TranscriptWriter, None)
    return SeatState(mesh, signers[me], me, first, writer, transcript, change)


def reclaimer_of(
    hub: SeatState,
    feed: Callable[[bytes], None] = lambda raw: None,
    retry: Callable[[], None] = lambda: None,
) -> Reclaimer:
    """The seat's reclaimer, the game-record messages its mesh hears handed to it (as
    the runner's ``_on_control`` does inside a game)."""
    reclaimer = Reclaimer(hub, new_nonce=bytes, watch=lambda table: None, retry=retry, feed=feed)

    def on_control(seat: int, payload: bytes) -> bool:
        msg = sc.decode_seat_change(payload)
        assert isinstance(msg, sc.ChainRequest | sc.ChainRecord | sc.ChainEnd)
        reclaimer.heard(seat, msg)
        return True

    hub.mesh.on_control = on_control
    return reclaimer


def _seat_0() -> tuple[SeatState, list[Identity]]:
    """Seat 0 as it holds the game: both segments, its mesh pinning the game's keys."""
    local, following, _seed, _segment = _continuation()
    _local, first_segment, _seed = lost_game()  # the same seeded game, as seat 0 kept it
    table = following[0]
    transcript: list[Envelope] = [*first_segment[0].view.transcript, *table.view.transcript]
    change = _machine(table, 0, local.signers[0])
    hub = hub_of(0, local.signers, local.game_id, transcript, change)
    return hub, identities_of(local.signers)


async def _answers() -> dict[str, Any]:
    hub, identities = _seat_0()
    reclaimer = reclaimer_of(hub)
    first = next(i for i, e in enumerate(hub.transcript) if e.game == hub.segment)
    links: dict[str, Probe] = {}
    async with trio.open_nursery() as probes:
        async with trio.open_nursery() as nursery:
            for seat in (PLAYER, OTHER):
                ours, theirs = await channel_pair(
                    identities[0], identities[seat], hub.mesh.game_id, f"10.77.0.{seat}:1"
                )
                nursery.start_soon(hub.mesh.serve_channel, seat, ours)
                links[f"seat {seat}"] = Probe(f"seat {seat}", theirs)
                probes.start_soon(links[f"seat {seat}"].read_all)
            for at, seat, start in ((1.0, PLAYER, 0), (1.5, PLAYER, 0), (2.5, PLAYER, first),
                                    (3.0, OTHER, 0)):  # fmt: skip
                await trio.sleep(at - now())
                await links[f"seat {seat}"].send(sc.encode_seat_change(sc.ChainRequest(start)))
            await trio.sleep(1.0)
            nursery.cancel_scope.cancel()
    return {
        "records": len(hub.transcript),
        "segments": [hub.transcript[0].game.hex(), hub.segment.hex()],
        "first_of_segment": first,
        "dropped": dict(reclaimer.dropped),
        "links": {name: links[name].written() for name in sorted(links)},
    }


CASES: Cases = {
    "answer": (
        "seat 3's player asks from record 0 (answered: every record, then "
        "`seat_chain_end`), again 0.5 s later (dropped), then from the bot's segment "
        "(a top-up: answered); seat 1, whose seat never changed hands: `seat_chain_end` 0",
        _answers,
    )
}


def seat_chain() -> dict[str, Any]:
    return {
        "about": "SPEC.md section 9.5, the answer to `seat_chain` as the reference's seat "
        "0 runs it (its reclaimer and mesh, over real secure channels on in-memory "
        "streams, under a mock clock from 0 s): hand-back.json's game, seat 0 holding "
        "the first segment and the bot's continuation (`segments`, `records` in all, "
        "the bot's segment from record `first_of_segment`); each link's payloads as "
        "the asker saw them (`dir` from seat 0 or to it, `at` in seconds, `t`, bytes); "
        "`dropped`: the requests seat 0 did not answer, by why",
        "keys": [k.hex() for k in _keys()],
        "cases": run_cases(CASES),
    }


def _keys() -> list[bytes]:
    local, _following, _seed, _segment = _continuation()
    return [s.public_key for s in local.signers]
