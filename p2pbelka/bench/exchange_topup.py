"""Exchange vector of a watching player's top-up (protocol/SPEC.md section 9.5), both
ends the reference's: the player of seat 3, watching the bot's segment, asks seat 0
for the records since that segment began (``Reclaimer.top_up``); seat 0's reclaimer
answers through its mesh; the player's mesh hands each record to its reclaimer, which
hands it to the player's table as if the mesh brought it (a copy it holds is dropped),
and tries the continuation again at ``seat_chain_end``.  Over ``exchange_live``'s
channel, under a mock clock.

The game is ``hand-back.json``'s, the bot's segment played to the next deal, where
the bot stops.  The player holds the first segment and the bot's segment's first
record only (the rest was lost with a link).  At 1 s it tops up (answered: the
segment from its first record); at 1.5 s it would again, but a top-up goes at most
every 2 s (nothing sent); at 3.5 s it does (answered again: every record a copy now).
"""

from __future__ import annotations

from typing import Any

import trio

from p2pbelka.bench.exchange_game import LOST, bots_of, lost_game
from p2pbelka.bench.exchange_handback import _continuation
from p2pbelka.bench.exchange_live import Cases, Probe, channel_pair, now, run_cases
from p2pbelka.bench.exchange_machine import _machine
from p2pbelka.bench.exchange_seatchain import hub_of, identities_of, reclaimer_of
from p2pbelka.peer.seatchange import effects as fx
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.table.segments import observe_segments

HELD = 1
"""Records of the bot's segment the player holds when it tops up."""


async def _top_up() -> dict[str, Any]:
    local, following, seed, _segment = _continuation()
    _local, first_segment, _seed = lost_game()  # the same seeded game
    setup = following[0].state.setup
    assert setup is not None and setup.after is not None
    following[LOST].stop_at_deal(setup.after.deal + 1)
    run_sync(following, bots_of(seed, [0, 1, 2, 3]))
    game = [*first_segment[0].view.transcript, *following[0].view.transcript]
    seat_0 = hub_of(0, local.signers, local.game_id, game,
                    _machine(following[0], 0, local.signers[0]))  # fmt: skip
    answering = reclaimer_of(seat_0)

    held: list[Envelope] = game[: len(first_segment[0].view.transcript) + HELD]
    watched = observe_segments(held)  # the player's table: an observer's
    change = _machine(first_segment[LOST], LOST, local.signers[LOST])
    change.watch(watched)
    (switch,) = change.take()  # the runner enters the segment it is told to
    assert isinstance(switch, fx.Switch)
    change.enter(switch.table, {})
    player = hub_of(LOST, local.signers, local.game_id, list(held), change)
    fed: list[bytes] = []

    def feed(raw: bytes) -> None:
        fed.append(raw)
        watched.receive_envelope(open_envelope(raw))

    retried: list[float] = []
    asking = reclaimer_of(player, feed, lambda: retried.append(now()))
    identities = identities_of(local.signers)
    ours, theirs = await channel_pair(
        identities[0], identities[LOST], seat_0.segment, "10.77.0.5:1"
    )
    link = Probe("seat 3", theirs)
    before = len(watched.view.transcript)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(seat_0.mesh.serve_channel, LOST, ours)
        nursery.start_soon(player.mesh.serve_channel, 0, link.tap())
        for at in (1.0, 1.5, 3.5):
            await trio.sleep(at - now())
            asking.top_up(0)
        await trio.sleep(1.0)
        nursery.cancel_scope.cancel()
    return {
        "segment_records": len(following[0].view.transcript),
        "held_before": before,
        "held_after": len(watched.view.transcript),
        "fed": len(fed),
        "retried_at": retried,
        "answerer_dropped": dict(answering.dropped),
        "player_dropped": dict(asking.dropped),
        "links": {"seat 3": link.written()},
    }


CASES: Cases = {
    "top-up": (
        "a watching player lacking all but the first record of the bot's segment tops "
        "up from seat 0 at 1 s (answered, its table then holds the segment), at 1.5 s "
        "(too soon: nothing sent) and at 3.5 s (answered: copies, dropped)",
        _top_up,
    )
}


def top_up() -> dict[str, Any]:
    return {
        "about": "SPEC.md section 9.5, a watching player's top-up, both ends the "
        "reference's (seat 0's reclaimer and mesh; seat 3's player's reclaimer, mesh "
        "and observer table), over a real secure channel on in-memory streams under a "
        "mock clock from 0 s: hand-back.json's game, the bot's segment played to the "
        "next deal (`segment_records`); the player held `held_before` records of it "
        "and `held_after` after; `fed`: the records handed to its table; `retried_at`: "
        "when it tried the continuation again (at each `seat_chain_end`); the link as "
        "the player's end saw it (`dir` `to` seat 0 or `from` it, `at`, `t`, bytes)",
        "cases": run_cases(CASES),
    }
