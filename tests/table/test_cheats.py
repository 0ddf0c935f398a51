"""A dishonest peer, one for each way to cheat: the honest peers catch it, name the seat,
keep the signed evidence, and none of them crashes.

Each cheater is a real table with its own keys whose messages are validly signed;
only what it computes is wrong.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots.belka.base import make_belka_bot
from p2pbelka.cards import CARDS
from p2pbelka.fairdeal import FAIRDEAL_VERSION, group_for
from p2pbelka.peer.local import LocalGame, play_local_game
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka.track import BelkaPhase, BelkaTrack
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Phase, Table
from p2pbelka.table.state import TableState
from tests.audit import verify_bytes
from tests.table.helpers import faults_of, play_sync

CHEATER = 2
GROUP = group_for(FAIRDEAL_VERSION)
SCALAR = GROUP.scalar_from_64(bytes(range(64)))


def assert_caught(tables: list[Table], events: list[list[ev.Event]], what: str) -> None:
    for seat, table in enumerate(tables):
        if seat == CHEATER:
            continue
        assert table.state.phase is Phase.ABORTED, f"seat {seat} did not stop the game"
        faults = faults_of(events[seat])
        assert any(f.seat == CHEATER and what in f.what for f in faults), faults
        assert all(f.evidence or f.seat == CHEATER for f in faults)
    # the evidence is in every honest transcript, and verify reaches the same verdict
    report = verify_bytes(dump_transcript(tables[0].view.transcript))
    assert report.error is None and report.aborted
    assert any(f.seat == CHEATER for f in report.faults)


class DuplicateCard(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg):
            return m.ShuffleMsg((msg.deck[0], *msg.deck[:-1]), msg.input)
        return msg


class ReplaceCard(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg):
            return m.ShuffleMsg((GROUP.mult(SCALAR, msg.deck[0]), *msg.deck[1:]), msg.input)
        return msg


class WrongLock(TableState):
    FACTOR = SCALAR  # put on position 5 of its lock, beside the seed's own

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.LockMsg):
            deck = list(msg.deck)
            deck[5] = GROUP.mult(self.FACTOR, deck[5])
            return m.LockMsg(tuple(deck), msg.input)
        return msg


class WrongShare(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg):
            first = msg.shares[0]
            return m.SharesMsg((m.Opening(first.pos, SCALAR), *msg.shares[1:]))
        return msg


class PlaysAnotherSeatsCard(TableState):
    def compose(self) -> m.Message | Question | None:
        if self.phase is Phase.PLAY:
            deck = self.round.deck
            assert deck.local is not None
            pos = next(
                p for p in range(32) if deck.owners[p] != self.me and p not in self.round.played
            )
            return m.PlayMsg(pos, deck.local.share(pos))
        return super().compose()


class HidesTheJack(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg):
            return m.TrumpMsg(None, True)
        return msg


class FalseRedeal(TableState):
    def compose(self) -> m.Message | Question | None:
        if self.phase is BelkaPhase.READY:
            deck = self.round.deck
            return m.RedealMsg(tuple(deck.my_opening(p) for p in sorted(self.round.my_hand)))
        return super().compose()


class NeverReveals(TableState):
    def compose(self) -> m.Message | Question | None:
        if self.phase is Phase.REVEAL:
            return None
        return super().compose()


class Reneges(TableState):
    """Plays another suit while holding the led one whenever it can."""

    def compose(self) -> m.Message | Question | None:
        if self.phase is not Phase.PLAY:
            return super().compose()
        deck = self.round.deck
        unplayed = {p: c for p, c in self.round.my_hand.items() if p not in self.round.played}
        legal = {c.index for c in self._legal_for_cheat()}
        illegal = [p for p, c in unplayed.items() if c not in legal]
        pos = illegal[0] if illegal else min(unplayed, key=lambda p: (unplayed[p] not in legal, p))
        return m.PlayMsg(pos, deck.my_opening(pos).key)

    def _legal_for_cheat(self) -> list[object]:
        assert isinstance(self.track, BelkaTrack) and self.me is not None
        deal = self.track.deal
        mask = sum(1 << c for p, c in self.round.my_hand.items() if p not in self.round.played)
        return list(
            replace(
                deal, hands=tuple(mask if s == self.me else h for s, h in enumerate(deal.hands))
            ).legal_cards(self.me)
        )

    def handle(self, seat: int, msg: m.Message) -> None:
        if isinstance(msg, m.PlayMsg) and seat == self.me:
            # forget our own hand, so our own engine judges us as the others do
            track = self.track
            assert isinstance(track, BelkaTrack)
            deal = track.deal
            hands = tuple(None if s == self.me else h for s, h in enumerate(deal.hands))
            track._game = replace(track.game, deal=replace(deal, hands=hands))
        super().handle(seat, msg)


class UncommittedDealEnd(TableState):
    """At flow 2, a deal_end without the commitment for the next deal."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        return m.DealEndMsg() if isinstance(msg, m.DealEndMsg) else msg


def test_a_shuffle_that_duplicates_a_card() -> None:
    tables, events = play_sync(31, states={CHEATER: DuplicateCard})
    assert_caught(tables, events, "duplicated card")


def test_a_shuffle_that_replaces_a_card() -> None:
    tables, events = play_sync(32, states={CHEATER: ReplaceCard})
    assert_caught(tables, events, "shuffle check failed")


def test_a_wrong_lock_pass() -> None:
    tables, events = play_sync(33, states={CHEATER: WrongLock})
    assert_caught(tables, events, "lock check failed")


def test_a_wrong_key_share() -> None:
    tables, events = play_sync(34, states={CHEATER: WrongShare})
    assert_caught(tables, events, "share check failed")


def test_a_deal_end_without_the_next_commitment() -> None:
    tables, events = play_sync(35, states={CHEATER: UncommittedDealEnd})
    assert_caught(tables, events, "its deal_end carries no commitment")


def test_playing_a_card_it_was_not_dealt() -> None:
    tables, events = play_sync(35, states={CHEATER: PlaysAnotherSeatsCard})
    assert_caught(tables, events, "was not dealt to this seat")


def test_lying_about_the_jack_of_clubs() -> None:
    # find a seed where the cheater is dealt the J♣ in the first deal
    for seed in range(40, 80):
        tables, events = play_sync(seed, states={CHEATER: HidesTheJack})
        hands = [e for e in events[CHEATER] if isinstance(e, ev.HandDealt)]
        if CARDS[4] in hands[0].cards:
            assert_caught(tables, events, "held the J♣ and said it did not")
            return
    pytest.fail("no seed dealt the J♣ to the cheater")


def test_a_false_redeal_claim() -> None:
    for seed in range(80, 120):
        tables, events = play_sync(seed, states={CHEATER: FalseRedeal})
        if tables[0].state.phase is Phase.ABORTED:
            assert_caught(tables, events, "does not allow one")
            return
    pytest.fail("the cheater only ever held hands that allow a re-deal")


def test_refusing_to_reveal_its_seed() -> None:
    tables, _ = play_sync(36, states={CHEATER: NeverReveals})
    for seat, table in enumerate(tables):
        if seat != CHEATER:
            assert table.state.phase is Phase.REVEAL and table.view.missing() == [CHEATER]
            table.abandon(table.view.missing(), "did not reveal its seed")
            assert table.state.phase is Phase.ABORTED
            assert table.view.faults[0].seat == CHEATER and "reveal" in table.view.faults[0].what


async def test_refusing_to_reveal_over_trio_times_out(autojump_clock: MockClock) -> None:
    # Virtual seconds (no real I/O here): the silence before giving up takes no time.
    game = LocalGame.seeded(37)
    tables = game.make_tables()
    assert game.seed_sources is not None
    tables[CHEATER] = Table(
        game.game_id,
        signer=game.signers[CHEATER],
        seed_source=game.seed_sources[CHEATER],
        state=NeverReveals,
    )
    with trio.fail_after(20):
        results = await play_local_game(game, tables=tables, silence_timeout=0.5)
    for seat, result in enumerate(results):
        if seat != CHEATER:
            assert result.aborted
            aborted = next(e for e in result.events if isinstance(e, ev.GameAborted))
            assert [f.seat for f in aborted.faults] == [CHEATER]


def test_a_renege_is_charged_and_the_game_goes_on() -> None:
    tables, events = play_sync(38, states={CHEATER: Reneges})
    for seat in range(4):
        assert tables[seat].state.phase is Phase.OVER
    reneges = [f for f in faults_of(events[0]) if "renege" in f.what]
    assert reneges and all(f.seat == CHEATER and not f.fatal for f in reneges)
    report = verify_bytes(dump_transcript(tables[0].view.transcript))
    assert report.ok and "renege" in report.verdict
    charged = [d.summary for d in report.deals if d.summary.offenses]
    assert charged
    for deal in charged:
        # classic count: the other team gets a game point per renege
        assert deal.awarded[1 - CHEATER % 2] >= len(deal.offenses)


def test_garbage_and_foreign_envelopes_do_not_disturb_a_game() -> None:
    stranger = LocalGame.seeded(99)

    def noise(seat: int, raw: bytes) -> list[bytes]:
        foreign = seal_envelope(
            stranger.signers[0], stranger.game_id, 0, 0, bytes(32), m.ReadyMsg()
        )
        return [b"\x00garbage", raw[:-1], foreign.raw, raw]

    tables, events = play_sync(40, tamper=noise)
    assert all(t.state.phase is Phase.OVER for t in tables)
    assert verify_bytes(dump_transcript(tables[1].view.transcript)).ok
    reasons = {e.reason.split(":")[0] for e in events[1] if isinstance(e, ev.Rejected)}
    assert reasons == {"malformed envelope", "envelope of another game"}


def test_bots_only_see_their_own_hand() -> None:
    seen: list[object] = []

    class Spy:
        def __init__(self, seat: int) -> None:
            self.inner = make_belka_bot("random", seat)

        def play(self, game, seat):  # type: ignore[no-untyped-def]
            seen.append([h is None for s, h in enumerate(game.deal.hands) if s != seat])
            return self.inner.play(game, seat)

        def claim_redeal(self, game, seat):  # type: ignore[no-untyped-def]
            return False

        def choose_eggs(self, game, seat):  # type: ignore[no-untyped-def]
            return "plus4"

    from p2pbelka.bots.belka.seat import BelkaSeatBot
    from p2pbelka.bots.common.seat import as_bot
    from p2pbelka.peer.sync import run_sync

    def two_deals(events: list[list[ev.Event]]) -> bool:
        # two deals: every card a bot plays in them is one look at the deal it is shown
        return sum(isinstance(e, ev.DealAudited) for e in events[0]) >= 2

    game = LocalGame.seeded(41)
    bots = [as_bot(BelkaSeatBot(Spy(s))) for s in range(4)]
    run_sync(game.make_tables(), bots, until=two_deals)
    assert len(seen) >= 32 and all(all(unknown) for unknown in seen)  # type: ignore[arg-type]


class LocksItOut(WrongLock):
    """Takes :class:`WrongLock`'s factor back out of position 5 in its own lock."""

    FACTOR = GROUP.scalar_invert(SCALAR)


def test_deviations_that_cancel_change_no_card_and_only_every_pass_names_them() -> None:
    """Seats 1 and 3 each break their lock pass, and the two breaks cancel through the
    honest seats' locks (a lock multiplies each position by a factor of its own), so
    every card is where the seeds put it: the table plays on, ``verify`` finds the
    game sound, and ``verify --every-pass`` names both seats, and no honest one."""
    tables, events = play_sync(54, states={1: WrongLock, 3: LocksItOut}, give_up=True)
    for seat, table in enumerate(tables):
        assert table.state.over and not table.state.aborted, faults_of(events[seat])
    data = dump_transcript(tables[0].view.transcript)
    assert verify_bytes(data).ok
    forensic = verify_bytes(data, every_pass=True)
    # the whole file is read (the game went on, as every seat accepted each deal):
    # CHEATING PROVEN, never "envelope after the end of the game"
    assert forensic.error is None and forensic.finished, forensic.verdict
    assert forensic.proven and forensic.verdict.startswith("CHEATING PROVEN")
    assert {f.seat for f in forensic.faults if f.proven} == {1, 3}
