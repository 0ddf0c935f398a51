"""Every game ends: a table that cannot make progress stops within a bounded time,
with the reason on every seat's events and, where the seat may sign, in its
transcript.  (A person deciding on a card is waited for; see test_driver.py.)"""

from __future__ import annotations

import secrets

import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, Transport
from p2pbelka.peer.local import LocalGame, MemoryTransport, memory_transports
from p2pbelka.peer.sync import resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from tests.audit import verify_bytes
from tests.table.crash import Recorded

GIVE_UP_AFTER = 2.0


class ConflictingChain:
    """Seat 3's transport: from its first card on it sends, again and again, an envelope
    for its next place that does not follow its own chain, and never a valid one
    (``vary``: a new one each time, else the same one again)."""

    def __init__(self, inner: Transport, signer: Signer, vary: bool = False) -> None:
        self.inner, self.signer = inner, signer
        self.vary = vary
        self.forged = 0
        self.started = trio.Event()
        self.first: bytes | None = None

    async def broadcast(self, raw: bytes) -> None:
        if self.first is None and open_envelope(raw).type == "play":
            self.first = raw
            self.started.set()
            return
        if self.first is None:
            await self.inner.broadcast(raw)

    async def receive(self) -> bytes:
        return await self.inner.receive()

    async def keep_sending(self) -> None:
        await self.started.wait()
        assert self.first is not None
        envelope = open_envelope(self.first)
        forged = resign(self.signer, envelope, prev=secrets.token_bytes(32))
        while True:
            self.forged += 1
            await self.inner.broadcast(forged)
            await trio.sleep(0.1)
            if self.vary:
                forged = resign(self.signer, envelope, prev=secrets.token_bytes(32))


async def _play_against(
    vary: bool,
) -> tuple[list[Table], list[BotFrontEnd], ConflictingChain]:
    game = LocalGame.seeded(64)
    tables = game.make_tables()
    transports = memory_transports(4)
    rogue = ConflictingChain(transports[3], game.signers[3], vary)
    front_ends = [BotFrontEnd(make_bot("random", s)) for s in range(4)]
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(rogue.keep_sending)
            async with trio.open_nursery() as players:
                for seat in range(4):
                    driver = PeerDriver(
                        tables[seat],
                        rogue if seat == 3 else transports[seat],
                        front_ends[seat],
                        pause_after=0.5,
                        give_up_after=GIVE_UP_AFTER,
                    )
                    players.start_soon(driver.run)
            nursery.cancel_scope.cancel()
    return tables, front_ends, rogue


async def test_a_peer_that_keeps_sending_a_refused_envelope_is_given_up_on(
    autojump_clock: MockClock,
) -> None:
    """The one envelope, refused when due, is kept at its place; the same one again is
    a copy: nothing is proven, and the others give up on seat 3, naming why."""
    # Virtual seconds (no real I/O here): they pass only while every peer waits, so
    # the silence before giving up takes no time and a busy machine adds none to it.
    tables, front_ends, rogue = await _play_against(vary=False)
    assert rogue.forged > 3
    assert all(t.state.aborted for t in tables)
    for seat in range(3):
        (ended,) = [e for e in front_ends[seat].events if isinstance(e, ev.GameAborted)]
        assert [f.seat for f in ended.faults] == [3]
        assert "refused" in ended.faults[0].what
        verdict = verify_bytes(dump_transcript(tables[seat].view.transcript)).verdict
        assert verdict.startswith("DISPUTED") and "seat 3" in verdict, verdict
    # The rogue's own table heard why it was given up on.
    (ended,) = [e for e in front_ends[3].events if isinstance(e, ev.GameAborted)]
    assert "refused" in str(ended.faults[0])


async def test_a_peer_that_sends_conflicting_envelopes_for_one_place_is_proven(
    autojump_clock: MockClock,
) -> None:
    """A second, different envelope for the place the refused one is kept at is two
    signatures for one place: every honest seat proves seat 3, and its file says so."""
    tables, _, rogue = await _play_against(vary=True)
    assert rogue.forged >= 2
    for seat in range(3):
        assert tables[seat].view.proven, (seat, tables[seat].view.faults)
        assert {f.seat for f in tables[seat].view.faults if f.fatal} == {3}
        verdict = verify_bytes(dump_transcript(tables[seat].view.transcript)).verdict
        assert verdict.startswith("CHEATING PROVEN") and "seat 3" in verdict, verdict


async def test_a_resumed_seat_nobody_answers_ends_its_game_and_signs_nothing(
    autojump_clock: MockClock,
) -> None:
    """Held until the others send back what it signed before it stopped: if none of
    them ever answers, the seat gives up, says why, and signs nothing: its game stops
    unfinished (``left``), blaming nobody, as its file reads, and can be resumed."""
    victim = 2
    game = LocalGame.seeded(65)
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    run_sync(tables, [make_bot("random", s) for s in range(4)])
    whole = list(tables[0].view.transcript)
    key = game.signers[victim].public_key
    # Stopped right after its first card: its transcript ends before that card.
    cut = next(i for i, e in enumerate(whole) if e.sender == key and e.type == "play")
    resumed = Table.resume(game.signers[victim], whole[:cut], seed_source=recorded.replaying())
    (alone,) = memory_transports(1)
    front_end = BotFrontEnd(make_bot("random", victim))
    driver = PeerDriver(resumed, alone, front_end, pause_after=0.5, give_up_after=GIVE_UP_AFTER)
    with trio.fail_after(60):
        await driver.run()
    assert resumed.finished and not resumed.state.aborted and not resumed.take_signed()
    assert not resumed.view.faults
    assert resumed.view.transcript[-1].raw == whole[cut - 1].raw
    (ended,) = [e for e in front_end.events if isinstance(e, ev.GameAborted)]
    assert victim in [f.seat for f in ended.faults]
    assert "could not get back" in ended.faults[0].what
    assert "can be resumed" in ended.faults[0].what and not ended.faults[0].fatal


class DisputeForOne:
    """The cheater's transport: its first shares go to ``victim`` as a dispute naming
    seat 0, and to the others as they are."""

    def __init__(self, inner: MemoryTransport, seat: int, victim: int, signer: Signer) -> None:
        self.inner, self.signer = inner, signer
        self.dests = [s for s in range(len(inner.outboxes) + 1) if s != seat]
        self.victim = victim
        self.sent = False

    async def broadcast(self, raw: bytes) -> None:
        envelope = open_envelope(raw)
        if self.sent or not isinstance(envelope.msg, m.SharesMsg):
            await self.inner.broadcast(raw)
            return
        self.sent = True
        dispute = resign(self.signer, envelope, msg=m.DisputeMsg((0,), "made up"))
        for dest, outbox in zip(self.dests, self.inner.outboxes, strict=True):
            await outbox.send(dispute if dest == self.victim else raw)

    async def receive(self) -> bytes:
        return await self.inner.receive()


async def test_a_finished_table_is_still_fed_and_the_proof_reaches_its_file(
    autojump_clock: MockClock,
) -> None:
    """The victim ends on the cheater's dispute; the others hold the cheater's shares
    for that place and prove it.  What they send then reaches the victim after its
    end, because its driver keeps feeding the finished table while the peer stays:
    its transcript ends with the proof record and its evidence."""
    cheater, victim = 1, 2
    game = LocalGame.seeded(60)
    tables = game.make_tables()
    transports: list[Transport] = list(memory_transports(4))
    inner = transports[cheater]
    assert isinstance(inner, MemoryTransport)
    transports[cheater] = DisputeForOne(inner, cheater, victim, game.signers[cheater])
    files: list[list[Envelope]] = [[] for _ in range(4)]
    drivers = [
        PeerDriver(
            tables[seat],
            transports[seat],
            BotFrontEnd(make_bot("random", seat)),
            pause_after=0.5,
            give_up_after=GIVE_UP_AFTER,
            transcript=Sink(files[seat]),
        )
        for seat in range(4)
    ]

    async def play(driver: PeerDriver) -> None:
        await driver.run()
        await driver.after_end()

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for driver in drivers:
                nursery.start_soon(play, driver)
            while not all(t.finished for t in tables):
                await trio.sleep(0.5)
            await trio.sleep(10 * GIVE_UP_AFTER)
            nursery.cancel_scope.cancel()
    ended = tables[victim]
    assert ended.view.proven and {f.seat for f in ended.view.faults} == {cheater}, ended.view.faults
    saved = files[victim]
    assert isinstance(saved[-1].msg, m.EvidenceMsg) and isinstance(saved[-2].msg, m.SharesMsg)
    report = verify_bytes(dump_transcript(saved))
    assert report.proven and {f.seat for f in report.faults} == {cheater}, report.verdict


class Sink:
    def __init__(self, into: list[Envelope]) -> None:
        self.into = into

    def append(self, envelope: Envelope) -> None:
        self.into.append(envelope)
