"""Sans-IO resume: a seat rebuilt from its transcript and saved secrets continues its game.

The network is a plain queue here; a "crash" drops the seat's table (what it had
sent stays in flight, what is sent to it while down is lost) and the resumed
table catches up from the others with ``wants``/``envelopes_from``, as the LAN
mesh's resend request does.
"""

from __future__ import annotations

from collections import deque

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import answer, pump, run_sync
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import OrderError, Table
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.table.crash import Recorded


def _owes_itself(table: Table) -> bool:
    """True when the seat has sent envelopes it has not processed yet (the hard case:
    after the crash it must take them back from the others, not sign new ones)."""
    assert table.state.me is not None
    mine = sum(1 for e in table.view.transcript if table.view.seat_of(e.sender) == table.state.me)
    return table.view.wants()[table.state.me] > mine


def _catch_up(table: Table, others: list[Table]) -> None:
    for other in others:
        for seat, seq in enumerate(table.view.wants()):
            for raw in other.view.envelopes_from(seat, seq):
                table.receive(raw)


@pytest.mark.parametrize(
    ("victim", "crash_after", "downtime"),
    [
        (2, 40, 1),
        (1, 200, 0),
        pytest.param(3, 300, 2, marks=pytest.mark.slow),
        pytest.param(2, 450, 50, marks=pytest.mark.slow),
    ],
)
def test_a_crashed_seat_resumes_and_the_game_finishes(
    victim: int, crash_after: int, downtime: int
) -> None:
    game = LocalGame.seeded(77)
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    bots = [make_bot("random", s) for s in range(4)]
    logs: list[list[ev.Event]] = [[] for _ in range(4)]
    queue: deque[tuple[int, bytes]] = deque()
    down = False
    crashed_at = -1
    deliveries = 0
    while True:
        for seat, table in enumerate(tables):
            if not (down and seat == victim):
                queue.extend((seat, raw) for raw in pump(table, bots[seat], logs[seat]))
        if deliveries >= crash_after and crashed_at < 0 and _owes_itself(tables[victim]):
            down = True
            crashed_at = deliveries
            saved: list[Envelope] = list(tables[victim].view.transcript)
            blocker = tables[victim].view.turn
            # What the seat sent just before it died reaches the others first.
            for _, raw in [item for item in queue if item[0] == victim]:
                for seat, table in enumerate(tables):
                    if seat != victim:
                        table.receive(raw)
            queue = deque(item for item in queue if item[0] != victim)
        # Back after ``downtime`` deliveries, or once the others are stuck waiting for it.
        if down and (deliveries == crashed_at + downtime or not queue):
            down = False
            tables[victim] = Table.resume(
                game.signers[victim], saved, seed_source=recorded.replaying()
            )
            assert tables[victim].state.held
            # The peer it waits for is not reachable yet: the seat takes back its own
            # envelopes from the others and must reuse them, not sign new ones.
            unreachable = blocker if blocker != victim else (victim + 1) % 4
            others = [t for s, t in enumerate(tables) if s not in (victim, unreachable)]
            _catch_up(tables[victim], others)
            tables[victim].release()
            continue
        if not queue:
            # Quiet: every peer asks the others for what it lacks (the driver does this).
            before = [len(t.view.transcript) for t in tables]
            for seat, table in enumerate(tables):
                _catch_up(table, [t for s, t in enumerate(tables) if s != seat])
            if [len(t.view.transcript) for t in tables] == before:
                if all(t.finished for t in tables):
                    break
                stuck = [len(t.view.transcript) for t in tables]
                raise AssertionError(f"the game is stuck: transcript lengths {stuck}")
            continue
        source, raw = queue.popleft()
        deliveries += 1
        for seat, table in enumerate(tables):
            if seat != source and not (down and seat == victim):
                table.receive(raw)
    assert crashed_at >= crash_after, "the game ended before the crash"
    assert all(t.state.over for t in tables), [t.state.phase for t in tables]
    data = {dump_transcript(t.view.transcript) for t in tables}
    assert len(data) == 1
    assert verify_bytes(data.pop()).ok
    assert not [e for e in logs[(victim + 2) % 4] if isinstance(e, ev.Rejected)]


def test_resume_refuses_a_transcript_that_does_not_replay() -> None:
    game = LocalGame.seeded(5)
    with pytest.raises(OrderError):
        Table.resume(game.signers[1], [], seed_source=lambda: bytes(32))
    tables = game.make_tables()
    host_envelope = tables[0].view.transcript[0]
    table = Table.resume(game.signers[0], [host_envelope], seed_source=lambda: bytes(32))
    assert table.view.wants() == [1, 0, 0, 0]
    assert table.view.envelopes_from(0, 0) == [host_envelope.raw]
    with pytest.raises(OrderError):
        Table.resume(game.signers[0], [host_envelope, host_envelope], seed_source=bytes)


def test_a_table_sends_before_processing_and_changes_nothing_else() -> None:
    """A table stops after producing an envelope (``deferred``) until ``proceed``, so
    what it signed can leave first; the game is played as ever: the peers agree and
    the transcript verifies."""
    tables = LocalGame.seeded(31).make_tables()
    bots = [make_bot("random", s) for s in range(4)]
    queue: deque[tuple[int, bytes]] = deque()
    stopped = 0
    while True:
        for seat, table in enumerate(tables):
            while True:
                out = table.take_outgoing()
                queue.extend((seat, raw) for raw in out)
                asked = [e for e in table.take_events() if isinstance(e, ev.ChoiceNeeded)]
                for question in asked:
                    table.apply(answer(bots[seat], table, question))
                if table.deferred:
                    stopped += 1
                    table.proceed()
                elif not asked:
                    break
        if not queue:
            break
        source, raw = queue.popleft()
        for seat, table in enumerate(tables):
            if seat != source:
                table.receive(raw)
    assert stopped > 0
    assert all(t.state.over for t in tables)
    data = {dump_transcript(t.view.transcript) for t in tables}
    assert len(data) == 1
    assert verify_bytes(data.pop()).ok


def test_a_resumed_seat_waits_for_its_own_chain_and_never_signs_a_place_again() -> None:
    """A seat that lost almost its whole transcript gets its own envelopes back only up
    to place ``K`` (and the newest, as an answer to a resend ends): when place ``K``
    is due, it waits for it rather than sign another; then it signs nothing at all,
    every place it reaches was filled before."""
    victim, cut = 1, 40
    game = LocalGame.seeded(78)
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    run_sync(tables, [make_bot("random", s) for s in range(4)])
    assert all(t.state.over for t in tables)
    whole = list(tables[0].view.transcript)
    key = game.signers[victim].public_key
    own = [e for e in whole if e.sender == key]
    assert len(own) > cut + 64  # more than one answer carries
    resumed = Table.resume(game.signers[victim], whole[:8], seed_source=recorded.replaying())
    bot = make_bot("random", 5)

    def answer(own_up_to: int) -> None:
        """What the others send back to a resend: their own chains whole, ours only up
        to ``own_up_to`` but ending with the newest (as a cut answer does)."""
        for seat, seq in enumerate(resumed.view.wants()):
            chain = [e for e in whole if e.sender == game.signers[seat].public_key]
            sent = [e for e in chain if e.seq >= seq][:64]
            if seat == victim:
                sent = [e for e in sent if e.seq < own_up_to] + chain[-1:]
            for envelope in sent:
                resumed.receive(envelope.raw)

    def settle(own_up_to: int) -> None:
        for _ in range(200):
            before = len(resumed.view.transcript)
            answer(own_up_to)
            pump(resumed, bot, [])
            assert not resumed.take_signed(), "a place of its own chain was signed again"
            if len(resumed.view.transcript) == before:
                return

    answer(cut)
    resumed.release()
    settle(cut)
    assert resumed.view.short_of_own and resumed.view.wants()[victim] == cut
    assert not resumed.finished
    settle(len(own))
    assert resumed.state.over
    assert [e.raw for e in resumed.view.transcript] == [e.raw for e in whole]
