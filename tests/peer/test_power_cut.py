"""A power cut never makes a seat sign two envelopes for one place in its chain.

A seat sends an envelope only once everything it was computed from is on its disk:
the transcript it accepted so far, the envelope itself (the signed journal) and its
secrets.  The seats here are real ``PeerDriver``s with a real ``GameStore`` in a
temporary directory, on in-memory links that answer resends as the mesh does; the
power cut is ``FakeDisk``'s: each file as its last sync left it.

The attack: the victim sends an envelope that follows an envelope of a cheater's,
and the power goes.  If that input was not on the victim's disk, the cheater (the
only other seat in a Belot for two, or a coalition of all the others) hands back a
second version of its envelope when the victim asks after it resumes: the victim,
signing its place again on it, would sign a second envelope for that place, and the
cheater's own, unmodified table would prove the honest victim.  Durable, the input
is back on the victim's disk after the cut: the second version proves the cheater.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, Transport
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.seat import resumed_table
from p2pbelka.peer.store import SEED_SIZE, GameStore
from p2pbelka.peer.sync import resign
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, open_envelope
from p2pbelka.protocol.transcript import TranscriptWriter, iter_records
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes
from tests.peer.powercut import FakeDisk, Links, Signed

SCHEDULED = {"shuffle", "lock", "shares", "reveal", "deal_end"}
"""Envelopes a seat's schedule makes by itself (no player's choice in them)."""
TRANSCRIPT = "transcript.p2pb"
JOURNAL = "signed.p2pb"
SECRETS = "secrets"
PATIENCE = 1e6
"""Virtual seconds a game may take (nobody is ever given up on here).  They pass only
while every task waits, and fast while a worker thread syncs the secrets ahead."""

WAITED = 3600.0
"""Virtual seconds a seat waits on a cheater that withholds its envelopes."""

CASES = [
    pytest.param("belot", 2, 1, 11, id="belot-2"),
    pytest.param("belot", 3, 0, 12, id="belot-3"),
    pytest.param("belka", 4, 2, 13, id="belka-4"),
]


@dataclass
class Victim:
    """The seat whose power is cut: its store, what it writes, and its disk."""

    local: LocalGame
    seat: int
    store: GameStore
    disk: FakeDisk
    fresh: Callable[[], bytes]
    handed: list[int]

    @classmethod
    def seated(
        cls, local: LocalGame, seat: int, home: Path, monkeypatch: pytest.MonkeyPatch
    ) -> Victim:
        assert local.seed_sources is not None
        store = GameStore.create(local.game_id, home)
        disk = FakeDisk(store.directory, monkeypatch)
        fresh = local.seed_sources[seat]
        victim = cls(local, seat, store, disk, fresh, [0])
        local.seed_sources[seat] = victim.counted(store)
        return victim

    @property
    def key(self) -> bytes:
        return self.local.signers[self.seat].public_key

    def counted(self, store: GameStore) -> Callable[[], bytes]:
        """The store's seed source, counting the values the table was handed."""
        source = store.seed_source(self.fresh)

        def draw() -> bytes:
            self.handed[0] += 1
            return source()

        return draw

    def driver(self, table: Table, link: Transport, bot_seed: int) -> PeerDriver:
        writer = self.store.transcript_writer()
        return _driver(table, link, bot_seed, writer, self.store)

    def resume(self) -> Table:
        """A new process after the power came back: the table from what the disk kept."""
        self.store = GameStore(self.store.directory)
        return resumed_table(self.local.signers[self.seat], self.store, self.fresh)


def _driver(
    table: Table,
    link: Transport,
    bot_seed: int,
    writer: TranscriptWriter | None = None,
    store: GameStore | None = None,
) -> PeerDriver:
    return PeerDriver(
        table,
        link,
        BotFrontEnd(make_bot("random", bot_seed)),
        pause_after=5.0,
        give_up_after=math.inf,
        transcript=writer,
        journal=store,
    )


async def _run_seat(driver: PeerDriver, store: GameStore, scope: list[trio.CancelScope]) -> None:
    """One seat's process: its driver and its secrets synced ahead, until its table is
    finished or ``scope[0]`` is cancelled (the power cut)."""
    async with trio.open_nursery() as nursery:
        scope[:] = [nursery.cancel_scope]
        nursery.start_soon(store.keep_ahead)
        await driver.run()
        nursery.cancel_scope.cancel()


async def _play_all(
    seat: Victim, tables: list[Table], links: Links, scope: list[trio.CancelScope], limit: float
) -> None:
    """Every seat plays (the victim on its store) until the victim's table is finished,
    ``scope[0]`` is cancelled or ``limit`` virtual seconds passed; the victim's store
    closed after."""
    victim = seat.seat
    with trio.move_on_after(limit):
        async with trio.open_nursery() as nursery:
            for s in range(len(tables)):
                if s != victim:
                    nursery.start_soon(_driver(tables[s], links.links[s], s).run)
            await _run_seat(
                seat.driver(tables[victim], links.links[victim], victim), seat.store, scope
            )
            nursery.cancel_scope.cancel()
    seat.store.close()


@dataclass
class Lost:
    """What the victim sent just before the power went, and the input it followed."""

    sent: Envelope
    follows: Envelope
    follows_seat: int
    offset: int
    """Bytes of the victim's transcript file before ``follows``' record."""


def _lost_input(table: Table, sent: Envelope, victim: int, path: Path) -> Lost | None:
    """The other seat's envelope ``sent`` is the first of the victim's to follow, when
    there is one a cheater can sign again (see ``_second_version``)."""
    if sent.type not in SCHEDULED or sent.deal < 1:
        return None
    transcript = list(table.view.transcript)
    before = next(
        (e for e in transcript if e.sender == sent.sender and e.seq == sent.seq - 1), None
    )
    for index in range(len(transcript) - 1, -1, -1):
        envelope = transcript[index]
        seat = table.view.seat_of(envelope.sender)
        if seat is None or seat == victim or sent.view[seat] != (envelope.seq + 1, envelope.digest):
            continue
        if envelope.view[victim][0] < 1:
            return None
        if before is None or before.view[seat][0] > envelope.seq:
            return None  # the victim's envelope before it followed it already
        records = list(iter_records(path.read_bytes()))
        offset = next(r.offset for r in records if r.envelope.digest == envelope.digest)
        return Lost(sent, envelope, seat, offset)
    return None


def _second_version(local: LocalGame, lost: Lost, victim: int, transcript: list[Envelope]) -> bytes:
    """The cheater's envelope signed again with an older view of the victim's chain: a
    valid envelope for the same place, different bytes."""
    envelope = lost.follows
    count = envelope.view[victim][0] - 1
    key = local.signers[victim].public_key
    head = next((e.digest for e in transcript if e.sender == key and e.seq == count - 1), ZERO_HASH)
    view = tuple((count, head) if s == victim else v for s, v in enumerate(envelope.view))
    return resign(local.signers[lost.follows_seat], envelope, view=view)


def _forged_answers(
    links: Links, lost: Lost, second: bytes, victim: int
) -> Callable[[int, int, list[int]], list[bytes]]:
    """A coalition's answer to the resumed victim: the game up to the input, that input's
    second version in its place, nothing after it (the victim's own envelopes above all)."""

    def answer(seat: int, asker: int, wants: list[int]) -> list[bytes]:
        if asker != victim:
            return links.answer_honestly(seat, asker, wants)
        transcript = list(links.tables[seat].view.transcript)
        upto = next(i for i, e in enumerate(transcript) if e.digest == lost.follows.digest)
        table = links.tables[seat]
        out = []
        for envelope in transcript[:upto]:
            who = table.view.seat_of(envelope.sender)
            if who is not None and who < len(wants) and envelope.seq >= wants[who]:
                out.append(envelope.raw)
        return [*out, second]

    return answer


@pytest.mark.parametrize(("game", "players", "victim", "seed"), CASES)
async def test_a_cheater_cannot_change_the_inputs_a_seat_lost_in_a_power_cut(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    autojump_clock: MockClock,
    game: str,
    players: int,
    victim: int,
    seed: int,
) -> None:
    local = LocalGame.seeded(seed, game=game, players=players)
    seat = Victim.seated(local, victim, tmp_path, monkeypatch)
    tables = local.make_tables()
    links = Links(tables)
    cheaters = [s for s in range(players) if s != victim]
    scope: list[trio.CancelScope] = []
    lost: list[Lost] = []

    def on_sent(raw: bytes) -> None:
        if lost:
            return
        found = _lost_input(
            links.tables[victim], open_envelope(raw), victim, seat.store.transcript_path
        )
        if found is not None:  # the power goes, right after the send
            lost.append(found)
            seat.disk.off = True
            links.links[victim].dead = True
            scope[0].cancel()

    links.links[victim].on_sent = on_sent
    with trio.move_on_after(PATIENCE):
        async with trio.open_nursery() as nursery:
            for s in cheaters:
                nursery.start_soon(_driver(tables[s], links.links[s], s).run)
            first = seat.driver(tables[victim], links.links[victim], victim)
            await _run_seat(first, seat.store, scope)
            assert lost, "the game ended before the power cut"
            seat.store.close()
            # The kernel may have written the transcript back by itself up to just
            # before the input: the most a cut may take unless that input was synced.
            seat.disk.cut({TRANSCRIPT: lost[0].offset})
            second = _second_version(
                local, lost[0], victim, list(tables[cheaters[0]].view.transcript)
            )
            for s in cheaters:
                links.answers[s] = _forged_answers(links, lost[0], second, victim)
            resumed = seat.resume()
            link = links.replace(victim, resumed)
            again = seat.driver(resumed, link, 1000 + victim)
            await _run_seat(again, seat.store, scope)
            await trio.sleep(60)  # the others hear what the victim's table sent last
            nursery.cancel_scope.cancel()
    seat.store.close()
    signed = Signed(seat.key)
    signed.note(links.heard)
    for table in links.tables:
        signed.note([e.raw for e in table.view.transcript])
    assert not signed.twice(), "the victim signed two envelopes for one place"
    for table in links.tables:  # the cheaters' own, unmodified tables too
        assert not [f for f in table.view.faults if f.seat == victim and f.proven]
    report = verify_bytes(seat.store.transcript_path.read_bytes())
    assert not [f for f in report.faults if f.seat == victim and f.proven], report.verdict
    # The second version reached an honest table: there, it proves the cheater.
    proven = [f.seat for f in links.tables[victim].view.faults if f.proven]
    assert proven == [lost[0].follows_seat], links.tables[victim].view.faults


@pytest.mark.parametrize(("game", "players", "victim", "seed"), CASES)
async def test_every_envelope_a_seat_sends_is_on_its_disk_with_its_inputs_first(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    autojump_clock: MockClock,
    game: str,
    players: int,
    victim: int,
    seed: int,
) -> None:
    """At every send: the envelope in the signed journal as last synced, the whole
    transcript the table accepted so far in the transcript as last synced, every
    secret the table was handed in the secrets as last synced, and all three files'
    names in the directory as last synced; one sync of the transcript and one of the
    journal for what one step signed."""
    local = LocalGame.seeded(seed, game=game, players=players)
    seat = Victim.seated(local, victim, tmp_path, monkeypatch)
    tables = local.make_tables()
    links = Links(tables)
    disk = seat.disk
    own_sent: list[str] = []
    scope: list[trio.CancelScope] = []

    def on_sent(raw: bytes) -> None:
        envelope = open_envelope(raw)
        if envelope.sender != seat.key:
            return  # a proof passed on: another seat's, signed by it
        own_sent.append(envelope.type)
        assert envelope.digest in {e.digest for e in disk.synced_records(JOURNAL)}
        accepted = [e.digest for e in links.tables[victim].view.transcript]
        synced = [e.digest for e in disk.synced_records(TRANSCRIPT)]
        assert synced[: len(accepted)] == accepted, f"{envelope.type}: inputs not synced"
        assert len(disk.synced.get(SECRETS, b"")) // SEED_SIZE >= seat.handed[0]
        assert {TRANSCRIPT, JOURNAL, SECRETS} <= disk.names
        if links.tables[victim].state.deal_id >= 3 or links.tables[victim].finished:
            scope[0].cancel()

    links.links[victim].on_sent = on_sent
    await _play_all(seat, tables, links, scope, PATIENCE)
    assert tables[victim].state.deal_id >= 3, "two deals were played"
    assert {"play", "shares", "reveal"} <= set(own_sent)
    # One flush: each file synced at most once for all that one step signed.
    flushes = seat.store.syncs_done
    assert disk.log.count(JOURNAL) == flushes
    assert disk.log.count(TRANSCRIPT) <= flushes
    assert len(own_sent) >= flushes


@pytest.mark.parametrize(("game", "players", "victim", "seed"), CASES)
async def test_a_seat_resumed_from_its_disk_needs_none_of_its_own_envelopes_back(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    autojump_clock: MockClock,
    game: str,
    players: int,
    victim: int,
    seed: int,
) -> None:
    """The power goes right after a send in the second deal; the others, honest, hand
    back everything but the victim's own envelopes.  What its disk kept is enough:
    it plays the game to its end, the same game as everyone."""
    local = LocalGame.seeded(seed, game=game, players=players)
    seat = Victim.seated(local, victim, tmp_path, monkeypatch)
    tables = local.make_tables()
    links = Links(tables)
    scope: list[trio.CancelScope] = []
    cut: list[bool] = []

    def on_sent(raw: bytes) -> None:
        envelope = open_envelope(raw)
        if not cut and envelope.sender == seat.key and envelope.deal >= 2:
            cut.append(True)
            seat.disk.off = True
            links.links[victim].dead = True
            scope[0].cancel()

    def without_its_own(s: int, asker: int, wants: list[int]) -> list[bytes]:
        raws = links.answer_honestly(s, asker, wants)
        if asker != victim:
            return raws
        return [raw for raw in raws if open_envelope(raw).sender != seat.key]

    links.links[victim].on_sent = on_sent
    others = [s for s in range(players) if s != victim]
    with trio.move_on_after(PATIENCE):
        async with trio.open_nursery() as nursery:
            for s in others:
                nursery.start_soon(_driver(tables[s], links.links[s], s).run)
            await _run_seat(
                seat.driver(tables[victim], links.links[victim], victim), seat.store, scope
            )
            assert cut, "the game ended before the power cut"
            seat.store.close()
            seat.disk.cut()
            for s in others:
                links.answers[s] = without_its_own
            resumed = seat.resume()
            link = links.replace(victim, resumed)
            await _run_seat(seat.driver(resumed, link, 1000 + victim), seat.store, scope)
            with trio.fail_after(PATIENCE):
                while not all(t.finished for t in links.tables):
                    await trio.sleep(1)
            nursery.cancel_scope.cancel()
    seat.store.close()
    assert all(t.state.over for t in links.tables)
    finals = {b"".join(e.raw for e in t.view.transcript) for t in links.tables}
    assert len(finals) == 1, "the transcripts differ"
    data = seat.store.transcript_path.read_bytes()
    assert verify_bytes(data).ok
    assert [r.envelope.raw for r in iter_records(data)] == [
        e.raw for e in links.tables[0].view.transcript
    ]


def test_a_resend_answered_while_the_driver_waits_for_the_disk_leaves_out_what_it_signed() -> None:
    """The links answer resends from the table in their own tasks, also while the driver
    waits for a slow sync in a worker thread: an envelope the table signed is not
    handed out before the driver took it to send, after its sync."""
    local = LocalGame.seeded(14)
    tables = local.make_tables()
    joiner = tables[1]
    joiner.receive(tables[0].view.transcript[0].raw)  # the table description: it sits
    (sit,) = joiner.take_signed()
    assert joiner.view.envelopes_from(1, 0, newest=True) == []
    assert joiner.take_outgoing() == [sit.raw]  # the driver synced it and sends it now
    assert joiner.view.envelopes_from(1, 0, newest=True) == [sit.raw]


@pytest.mark.parametrize(("game", "players", "victim", "seed"), CASES)
async def test_a_refused_envelope_is_on_the_disk_though_nothing_is_sent_after_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    autojump_clock: MockClock,
    game: str,
    players: int,
    victim: int,
    seed: int,
) -> None:
    """A cheater's envelope that the victim refuses when it is due (it names the next
    deal) holds the cheater's place: another version of it later is proof.  It holds
    the place only if the victim's disk has it: after a power cut the cheater could
    hand over its other version, taken without proof.  So the refused record is synced
    though the victim, waiting on the cheater, signs nothing after it."""
    local = LocalGame.seeded(seed, game=game, players=players)
    seat = Victim.seated(local, victim, tmp_path, monkeypatch)
    tables = local.make_tables()
    links = Links(tables)
    cheater = (victim + 1) % players
    signer = local.signers[cheater]
    cheat_link = links.links[cheater]
    honest_broadcast = cheat_link.broadcast
    refused: list[bytes] = []

    async def broadcast(raw: bytes) -> None:
        envelope = open_envelope(raw)
        if envelope.sender == signer.public_key and envelope.type in ("play",):
            if envelope.deal == 1 and not refused:
                refused.append(resign(signer, envelope, deal=envelope.deal + 1))
                links.links[victim]._send.send_nowait(refused[0])
            if refused:
                return  # from here on nobody hears the cheater: everyone waits on it
        await honest_broadcast(raw)

    cheat_link.broadcast = broadcast  # type: ignore[method-assign]
    links.answers[cheater] = lambda seat, asker, wants: []  # nor from its resends
    scope: list[trio.CancelScope] = []
    await _play_all(seat, tables, links, scope, WAITED)
    assert refused, "the cheater sent a refused envelope"
    digest = open_envelope(refused[0]).digest
    assert digest in {e.digest for e in tables[victim].view.transcript}, "kept as a refused record"
    assert digest in {e.digest for e in seat.disk.synced_records(TRANSCRIPT)}, "not on the disk"
