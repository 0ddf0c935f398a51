"""A seat never signs twice for one place in its chain, even across a crash.

What a seat signs is kept (``GameStore.keep``) before it is sent.  Here the seat
dies right after sending what it signed to one peer only, before it processed
it itself (so it is not in its transcript), and that peer stays out of reach
while the seat resumes: only the kept envelopes can tell it what it signed.
Signing anew would name other envelopes in its view (the others' arrived
meanwhile): two signatures for one place, proof against an honest seat.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.store import GameStore
from p2pbelka.peer.sync import pump
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes
from tests.table.crash import Recorded, catch_up


@pytest.mark.parametrize("crash_after", [30, 140])
def test_a_seat_resumed_after_a_crash_reuses_what_it_signed(
    tmp_path: Path, crash_after: int
) -> None:
    victim, witness = 2, 3
    game = LocalGame.seeded(91)
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    store = GameStore.create(game.game_id, tmp_path)
    bots = [make_bot("random", s) for s in range(4)]
    logs: list[list[ev.Event]] = [[] for _ in range(4)]
    queue: deque[tuple[int, bytes]] = deque()
    signed_before: dict[int, bytes] = {}
    crashed = False
    for deliveries in range(200_000):
        for seat, table in enumerate(tables):
            out = pump(table, bots[seat], logs[seat])
            if seat == victim:
                kept = table.take_signed()
                if kept:
                    store.keep(kept)
                    signed_before.update({e.seq: e.raw for e in kept})
                accepted = {e.digest for e in table.view.transcript}
                unprocessed = [k for k in kept if k.digest not in accepted]
                if deliveries >= crash_after and not crashed and unprocessed:
                    # sent to one peer only, not yet processed by itself: then it dies
                    crashed = True
                    for raw in out:
                        tables[witness].receive(raw)
                    transcript = list(table.view.transcript)
                    store.close()
                    resumed = Table.resume(
                        game.signers[victim], transcript, seed_source=recorded.replaying()
                    )
                    for envelope in store.saved_signed():
                        resumed.receive_envelope(envelope)
                    reachable = [t for s, t in enumerate(tables) if s not in (victim, witness)]
                    catch_up(resumed, reachable)
                    resumed.release()
                    tables[victim] = resumed
                    continue
            queue.extend((seat, raw) for raw in out)
        if not queue:
            before = [len(t.view.transcript) for t in tables]
            for seat, table in enumerate(tables):
                catch_up(table, [t for s, t in enumerate(tables) if s != seat])
            if [len(t.view.transcript) for t in tables] == before:
                break
            continue
        source, raw = queue.popleft()
        if source == victim and crashed:
            envelope = open_envelope(raw)
            if envelope.sender == game.signers[victim].public_key:
                known = signed_before.get(envelope.seq)
                assert known is None or known == raw, "signed twice for one place"
        for seat, table in enumerate(tables):
            if seat != source:
                table.receive(raw)
    assert crashed, "the game ended before the crash"
    assert all(t.state.over for t in tables), [t.state.phase for t in tables]
    data = {dump_transcript(t.view.transcript) for t in tables}
    assert len(data) == 1
    assert verify_bytes(data.pop()).ok
