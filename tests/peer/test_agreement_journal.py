"""A seat that crashes after it agreed to a seat change: what it signed binds it still.

The agreement is kept (``Agreed``, ``GameStore.keep_agreement``) before it is sent,
as every envelope a seat signs is; a seat resumed after a crash reads it back
(``SeatChange.restore``).  A crash here is the machine's memory lost: a new
``SeatChange`` on the seat's table, which stands at the cut as a resumed table does
(the table signed nothing after it: it was frozen).  Real tables and signatures,
the made-up network of ``seatnet.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.peer.seatchange.drivers import CHANGE, FETCH
from p2pbelka.peer.seatchange.effects import RESEND_EVERY, Agreed, Effect
from p2pbelka.peer.seatchange.machine import SeatChange, Stage
from p2pbelka.peer.store import GameStore
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.seatchange import (
    Agree,
    Decline,
    Offer,
    decode_seat_change,
    encode_seat_change,
)
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.segments import previous_of, propose
from tests.peer.seatnet import Net, Node, machine_of
from tests.peer.seatrunners import unlinked_runner
from tests.table.seatloss import Game, lose_seat, start

LOST = 2


class JournaledNet(Net):
    """``Net``, with every seat's effects in the order its runner does them, and the
    agreements each kept (its journal, which a crash leaves)."""

    def __init__(self, nodes: list[Node]) -> None:
        super().__init__(nodes)
        self.effects: dict[int, list[Effect]] = {n.seat: [] for n in nodes}
        self.kept: dict[int, list[Agreed]] = {n.seat: [] for n in nodes}

    def _do(self, node: Node, effect: object) -> None:
        self.effects.setdefault(node.seat, []).append(effect)  # type: ignore[arg-type]
        if isinstance(effect, Agreed):
            self.kept.setdefault(node.seat, []).append(effect)
        super()._do(node, effect)

    def crash(self, seat: int, game: Game, known: set[bytes] | None = None) -> Node:
        """``seat``'s peer stops and resumes: a new machine, its journal read back
        (``known``: the ids it remembered before it stopped)."""
        change = machine_of(game.tables[seat], seat, bot_seed=2)  # fresh draws after it
        change.ids.seen_ids.update(known or ())
        change.restore(list(self.kept[seat]), self.now)
        node = Node(seat, change)
        self.nodes[seat] = node
        self.settle()
        return node


def _lost() -> tuple[Game, JournaledNet]:
    for seed in range(5, 35):
        game, _local = start(seed, game_name="belka", players=4)
        lose_seat(game, LOST, after_deals=1)
        stuck = [t for s, t in enumerate(game.tables) if s != LOST]
        if all(not t.finished and not t.view.closing and t.view.missing() == [LOST] for t in stuck):
            nodes = [Node(s, machine_of(t, s)) for s, t in enumerate(game.tables) if s != LOST]
            return game, JournaledNet(nodes)
    raise AssertionError("no seed leaves a game stuck on the lost seat")


def _second_offer(game: Game, proposer: int) -> Offer:
    """The proposer's second continuation of the same cut: a fresh bot and nonce."""
    signer = game.tables[proposer]._signer
    assert signer is not None
    bot = Signer.from_seed(bytes(32))
    previous = previous_of(game.tables[proposer])
    segment, table = propose(previous, LOST, bot.public_key, "Bot", bytes(range(16)), signer)
    return Offer(segment, table)


def _kept_before_sent(effects: list[Effect], agreed: Agreed) -> None:
    """The agreement was journaled before any control message carrying it left."""
    at = effects.index(agreed)
    for effect in effects[:at]:
        payload = getattr(effect, "payload", None)
        if payload is not None:
            msg = decode_seat_change(payload)
            assert not (isinstance(msg, Agree | Offer) and msg.segment == agreed.segment)


def test_a_seat_resumed_after_agreeing_declines_a_second_continuation_and_follows_the_first() -> (
    None
):
    game, net = _lost()
    proposer, signer = 0, 1
    net.deaf.add(proposer)  # no agreement reaches it yet: nothing is sealed before the crash
    net.lost(LOST)
    assert net.node(signer).change.stage is Stage.AGREED
    (agreed,) = net.kept[signer]
    first = net.node(proposer).sent[0]
    assert isinstance(first, Offer) and agreed.segment == first.segment
    assert not agreed.proposed and agreed.previous == game.tables[signer].game_id
    _kept_before_sent(net.effects[signer], agreed)
    agreement = net.node(signer).sent[-1]
    assert agreement == Agree(first.segment, agreed.sig)

    resumed = net.crash(signer, game)
    # it waits for the continuation it agreed to, as before the crash: frozen, the
    # same agreement sent again (its proposer may have lost it)
    assert resumed.change.stage is Stage.AGREED and resumed.frozen
    assert resumed.sent == [agreement]
    second = _second_offer(game, proposer)
    assert second.segment != first.segment
    net.deliver(proposer, second, to=[signer])
    decline = resumed.sent[-1]
    assert isinstance(decline, Decline) and "signs one only" in decline.why, decline
    assert not resumed.asked and net.kept[signer] == [agreed]  # nothing more signed
    net.deliver(proposer, first, to=[signer])  # the first offer again: the same agreement
    assert resumed.sent[-1] == agreement and not resumed.asked

    net.deaf.discard(proposer)
    net.run(5.0)  # the agreements are sent again; the proposer seals the first
    assert resumed.switched is not None, resumed.change.stage
    assert resumed.switched.table.game_id == first.segment
    assert {n.switched.table.game_id for n in net.nodes.values() if n.switched} == {first.segment}


def test_a_seat_resumed_after_its_agreement_sealed_the_change_follows_the_continuation() -> None:
    """Found by hand (issue 36, fault 4, through the real program): the proposer seals
    with seat 1's agreement, and seat 1's program, which took the continuation in and
    remembered its id, stops before it sits there.  Resumed, it stands at the cut again
    and sends its agreement again; the proposer, in the continuation now, answers with
    its ``table``, and seat 1 follows it although it knows the id (nothing it signed
    there left: a seat sits only once the continuation is on its disk, and it would
    stand in it then).  It had stayed frozen, and the others named it."""
    game, net = _lost()
    proposer, signer = 0, 1
    net.lost(LOST)
    sealed = net.node(proposer).switched
    assert sealed is not None and net.node(signer).switched is not None
    segment = sealed.table.game_id
    assert net.node(signer).remembered == [segment]
    # the proposer's runner enters the continuation (the made-up network keeps the
    # switch only): its machine stands in it
    net.node(proposer).change.enter(sealed.table, {seat: bot for bot, seat in sealed.bots})
    resumed = net.crash(signer, game, known={segment})  # its list of ids, on the disk
    # its agreement again, and the continuation's table back: it follows at once
    assert resumed.switched is not None, resumed.change.stage
    assert resumed.switched.table.game_id == segment
    assert resumed.remembered == []  # remembered before it stopped: not twice


def test_without_the_journal_a_resumed_seat_would_sign_twice() -> None:
    """What the journal prevents: the same crash with nothing read back."""
    game, net = _lost()
    proposer, signer = 0, 1
    net.deaf.add(proposer)
    net.lost(LOST)
    forgetful = machine_of(game.tables[signer], signer)
    net.nodes[signer] = node = Node(signer, forgetful)
    forgetful.lost([LOST], 5.0, net.now)
    net.settle()
    net.deliver(proposer, _second_offer(game, proposer), to=[signer])
    assert isinstance(node.sent[-1], Agree)


def test_a_proposer_resumed_after_offering_offers_no_second_continuation_of_the_cut() -> None:
    game, net = _lost()
    proposer = 0
    net.deaf.update({1, 3})  # the offer reaches nobody before the crash
    net.lost(LOST)
    (own,) = net.kept[proposer]
    first = net.node(proposer).sent[0]
    assert isinstance(first, Offer) and own.proposed and own.segment == first.segment
    _kept_before_sent(net.effects[proposer], own)

    resumed = net.crash(proposer, game)
    assert not resumed.frozen and resumed.change.stage is Stage.IDLE  # its own: no wait
    resumed.change.lost([LOST], 5.0, net.now)  # its driver gives up on the seat again
    net.settle()
    assert not resumed.sent, resumed.sent  # no second offer of the same cut left
    assert [c.why for c in resumed.closed] and "signs one only" in resumed.closed[0].why
    assert resumed.switched is None


def test_a_proposer_offers_at_a_cut_it_made_no_offer_from() -> None:
    """The rule is one continuation per cut: a proposer that went on after its offer
    failed cuts elsewhere, and may offer there (memory and journal alike)."""
    _game, net = _lost()
    change: SeatChange = net.node(0).change
    agreed = Agreed(b"s" * 32, b"c" * 32, b"x" * 32, LOST, b"", proposed=True)
    change.restore([agreed], net.now)  # another cut of another segment
    net.lost(LOST)
    assert net.node(0).sent and isinstance(net.node(0).sent[0], Offer)


def test_the_store_keeps_agreements_and_skips_a_torn_line(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    first = Agreed(b"\x01" * 32, b"\x02" * 32, b"\x03" * 32, 2, b"\x04" * 64)
    second = Agreed(b"\x05" * 32, b"\x06" * 32, b"\x07" * 32, 1, b"\x08" * 64, proposed=True)
    store.keep_agreement(first)
    store.keep_agreement(second)
    assert GameStore(tmp_path).saved_agreements() == [first, second]
    with store.agreements_path.open("ab") as f:
        f.write(b"0102 03")  # a write torn by a power cut: never sent
    assert GameStore(tmp_path).saved_agreements() == [first, second]
    assert store.agreements_path.read_bytes().endswith(b"0102 03")  # left as it was


@pytest.mark.parametrize("proposed", [False, True])
def test_an_agreement_of_a_segment_left_long_ago_does_not_freeze_the_table(
    proposed: bool,
) -> None:
    game, _net = _lost()
    agreed = Agreed(b"s" * 32, b"c" * 32, b"x" * 32, LOST, b"", proposed=proposed)
    resumed = Node(1, machine_of(game.tables[1], 1))
    resumed.change.restore([agreed], 0.0)
    assert not resumed.change.take() and resumed.change.stage is Stage.IDLE


def test_an_agreement_at_a_cut_the_table_went_past_does_not_freeze_it() -> None:
    """A seat that signed a hand-back another seat said no to went on in the segment
    (released); crashed later in that segment, its journal still holds the agreement,
    of this segment but of a cut its table has left: it goes on, not frozen (frozen,
    it would wait for a continuation nobody seals and end the game at the offer's time)."""
    game, _net = _lost()
    segment = game.tables[1].game_id
    agreed = Agreed(segment, b"c" * 32, b"x" * 32, LOST, b"\x04" * 64)
    resumed = Node(1, machine_of(game.tables[1], 1))
    resumed.change.restore([agreed], 0.0)
    assert not resumed.change.take() and resumed.change.stage is Stage.IDLE
    # and it still signs no second continuation of the cut it signed at
    assert resumed.change._cuts[(segment, b"c" * 32)] == b"x" * 32


async def test_a_resumed_runner_reads_its_agreement_back_and_declines_a_second(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Through the runner and the game's files: the agreement kept in the store binds
    the seat's ``SeatChangeRunner`` after a restart (frozen, the same agreement sent again,
    a second continuation of the cut declined)."""
    game, net = _lost()
    proposer, signer = 0, 1
    net.deaf.add(proposer)
    net.lost(LOST)
    (agreed,) = net.kept[signer]
    store = GameStore(tmp_path)
    store.keep_agreement(agreed)  # what the runner's effect wrote before it sent
    table = game.tables[signer]
    with TranscriptWriter(tmp_path / "transcript.p2pb") as writer:
        runner, mesh = unlinked_runner(table, signer, "Signer", writer, bot_seed=3)
        runner.agreements = GameStore(tmp_path)  # read back, as after a restart
        sent: list[object] = []

        async def broadcast(payload: bytes) -> None:
            sent.append(decode_seat_change(payload))

        mesh.broadcast = broadcast  # type: ignore[method-assign]
        driver = runner.start(table)
        assert runner.change.stage is Stage.AGREED and driver.frozen
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner.play)
            await trio.sleep(RESEND_EVERY + 1)
            assert Agree(agreed.segment, agreed.sig) in sent  # sent again
            assert mesh.on_control is not None
            mesh.on_control(proposer, encode_seat_change(_second_offer(game, proposer)))
            await trio.sleep(1)
            nursery.cancel_scope.cancel()
    declines = [m for m in sent if isinstance(m, Decline)]
    assert declines and "signs one only" in declines[0].why
    assert GameStore(tmp_path).saved_agreements() == [agreed]  # nothing more signed


async def test_a_fetch_that_finds_our_seat_ours_leaves_a_signed_cut_held(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A seat that signed a cut holds its table there; back from an outage it asks
    whether its own seat changed hands, which holds the table too.  The answer "still
    yours" lets go of that question's hold only: the table signs nothing past the cut
    it signed (the simulator's Belot-3 seed 300171: a proposer played a card, then
    sealed its offer one envelope short, and its copy was INVALID)."""
    game, net = _lost()
    proposer, signer = 0, 1
    net.deaf.add(proposer)
    net.lost(LOST)
    (agreed,) = net.kept[signer]
    GameStore(tmp_path).keep_agreement(agreed)
    table = game.tables[signer]
    with TranscriptWriter(tmp_path / "transcript.p2pb") as writer:
        runner, _mesh = unlinked_runner(table, signer, "Signer", writer, bot_seed=3)
        runner.agreements = GameStore(tmp_path)
        driver = runner.start(table)
        assert runner.change.stage is Stage.AGREED and driver.frozen
        driver.freeze(FETCH)  # did our seat change hands?
        driver.thaw(FETCH)  # no
        assert driver.frozen
        driver.thaw(CHANGE)  # the offer closed: the seat change lets go, the table goes on
        assert not driver.frozen
