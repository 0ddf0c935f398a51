"""What one seated peer can make another hold or send, on a real link (loopback).

Seat 0 of a game whose seat 3 changed hands listens with its seat-change runner;
seat 3's player dials it with its own key (``p2pbelka/bench/games/belka/bounds.py``) and sends
what a peer that ignores the protocol could: unasked ``seat_record``s, and
``seat_chain`` requests as fast as its link takes them, read or never read.

The floods run under trio's mock clock: the sockets are real, but the seconds the
attacker waits (for a silent link, for the answerer to try again) pass at once.
"""

from __future__ import annotations

import trio
from trio.testing import MockClock

from p2pbelka.bench.games.belka.bounds import (
    attacker_link,
    chain_flood,
    records_flood,
    target,
)
from p2pbelka.peer.mesh import MAX_OUTBOX_BYTES
from p2pbelka.peer.seatchange.reclaim import ANSWER_EVERY, MAX_CHAIN_BYTES, MAX_STRAYS
from p2pbelka.peer.seatchange.runner import MAX_PENDING, MAX_PENDING_BYTES
from p2pbelka.protocol.seatchange import (
    ChainEnd,
    ChainRecord,
    ChainRequest,
    decode_seat_change,
    encode_seat_change,
)

MIB = 1 << 20


async def test_unasked_records_are_dropped_and_counted_not_kept() -> None:
    """2,000 records of 60 KB (117 MiB held before): none kept, every one counted."""
    figures = await records_flood(2000, 60_000)
    assert figures["kept"] == 0
    assert figures["dropped"] == 2001  # and the end of the answer, unasked too
    assert figures["growth_mib"] < 8


async def test_a_fetch_keeps_only_its_askers_records_in_order_and_within_the_cap() -> None:
    async with target() as t:
        reclaim = t.runner.reclaim
        reclaim._open({1, 2})
        record = bytes(1000)
        reclaim.heard(3, ChainRecord(0, record))  # not asked
        reclaim.heard(1, ChainRecord(0, record))
        reclaim.heard(1, ChainRecord(5, record))  # not the next
        assert reclaim._records == {1: [record]}
        big = bytes(60_000)
        for index in range(MAX_CHAIN_BYTES // len(big) + 2):
            reclaim.heard(2, ChainRecord(index, big))
        assert 2 not in reclaim._records  # past the cap: seat 2's answer is given up
        assert reclaim.dropped["unasked"] >= 1 and reclaim.dropped["out of order"] == 1
        assert reclaim.dropped["past the caps"] == 1
        reclaim._close()
        reclaim.heard(1, ChainRecord(1, record))
        assert reclaim._records == {}


async def test_chain_requests_as_fast_as_a_link_takes_them_are_answered_at_a_rate(
    autojump_clock: MockClock,
) -> None:
    """One whole answer (the game, every record, as a returning player needs it) per
    ``ANSWER_EVERY``, the rest dropped: what comes back is a small multiple of what
    was asked, however long the attack."""
    start = trio.current_time()
    figures = await chain_flood(2000, read=True)
    elapsed = trio.current_time() - start
    assert 1 <= figures["answers"] <= 2 + elapsed / ANSWER_EVERY
    assert figures["answer_kib"] > 50  # the whole game each time: 167 records
    assert figures["peak_mib"] < 16


async def test_an_asker_that_never_reads_costs_a_bounded_outbox(autojump_clock: MockClock) -> None:
    figures = await chain_flood(300, read=False)
    assert figures["peak_mib"] < MAX_OUTBOX_BYTES / MIB


async def test_a_single_request_gets_the_whole_game() -> None:
    async with target() as t:
        channel = await attacker_link(t)
        await channel.send(encode_seat_change(ChainRequest(0)))
        records = 0
        with trio.fail_after(60):
            while True:
                payload = await channel.receive()
                if b"seat_" not in payload:
                    continue  # the mesh's own control messages (its resend request)
                msg = decode_seat_change(payload)
                if isinstance(msg, ChainEnd):
                    assert msg.total == t.records
                    break
                assert isinstance(msg, ChainRecord) and msg.index == records
                records += 1
        assert records == t.records
        await channel.aclose()


async def test_envelopes_of_made_up_segments_are_held_within_bounds() -> None:
    """Envelopes of segments nobody agreed to wait for their segment, but only so
    many, and each made-up segment asks whether our seat changed hands at most
    ``MAX_STRAYS`` times in all."""
    async with target() as t:
        runner = t.runner
        first = runner.state.transcript[-1]
        for n in range(MAX_PENDING + 500):
            game = n.to_bytes(16, "big")
            runner._route(first.raw.replace(first.game, game))
        held = list(runner._pending.values())
        assert sum(len(v) for v in held) <= MAX_PENDING
        assert sum(len(r) for v in held for r in v) <= MAX_PENDING_BYTES
        assert len(runner.reclaim._strays) <= MAX_STRAYS
