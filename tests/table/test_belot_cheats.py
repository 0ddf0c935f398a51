"""Dishonest Belot peers: a card not held, a false declaration, a false claim of 1001, a
wrong share of the turned card (or of the three more), a renege, equivocation.  Each
cheater is a real table with its own keys and validly signed messages; the honest peers
name it, keep the evidence, and verify agrees."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.fairdeal import FAIRDEAL_VERSION, group_for
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import open_envelope, seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import DealState
from p2pbelka.table import events as ev
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.table.games.belot.track import BelotPhase, BelotTrack
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Phase, Table
from p2pbelka.table.state import TableState
from tests.audit import verify_bytes
from tests.table.helpers import faults_of, play_sync

CHEATER = 1
GROUP = group_for(FAIRDEAL_VERSION)
SCALAR = GROUP.scalar_from_64(bytes(range(64)))


def play_belot(
    seed: int, cheat: type[TableState], players: int
) -> tuple[list[Table], list[list[ev.Event]]]:
    return play_sync(seed, game_name="belot", players=players, states={CHEATER: cheat})


def assert_caught(tables: list[Table], events: list[list[ev.Event]], what: str) -> None:
    for seat, table in enumerate(tables):
        if seat == CHEATER:
            continue
        assert table.state.phase is Phase.ABORTED, f"seat {seat} did not stop the game"
        faults = faults_of(events[seat])
        assert any(f.seat == CHEATER and what in f.what for f in faults), faults
        assert all(f.evidence or f.seat in (CHEATER, -1) for f in faults)
    report = verify_bytes(dump_transcript(tables[0].view.transcript))
    assert report.error is None and report.aborted
    assert any(f.seat == CHEATER and what in f.what for f in report.faults)
    assert "CHEATING PROVEN" in report.verdict


def _at_my_lead(table: TableState) -> bool:
    if table.phase is not Phase.PLAY:
        return False
    track = table.track
    assert isinstance(track, BelotTrack)
    return track.deal.at_lead and track.deal.leader == table.me


def _unplayed(table: TableState) -> dict[int, int]:
    rnd = table.round
    return {p: c for p, c in rnd.my_hand.items() if p not in rnd.played}


class PlaysAnotherSeatsCard(TableState):
    def compose(self) -> m.Message | Question | None:
        if self.phase is Phase.PLAY:
            deck = self.round.deck
            assert deck.local is not None
            pos = next(p for p in range(32) if deck.owners[p] != self.me)
            return m.PlayMsg(pos, deck.local.share(pos))
        return super().compose()


class DeclaresNothing(TableState):
    """At its first lead, shows three of its cards that make no combination."""

    def compose(self) -> m.Message | Question | None:
        if _at_my_lead(self):
            track = self.track
            assert isinstance(track, BelotTrack) and track.deal.trump is not None
            trump, fours = int(track.deal.trump), track.game.options.fours
            for trio_ in combinations(sorted(_unplayed(self).items()), 3):
                mask = sum(1 << c for _, c in trio_)
                if core.combination(mask, trump, fours) is None:
                    return m.DeclareMsg(tuple(self.round.deck.my_opening(p) for p, _ in trio_))
        return super().compose()


class ClaimsTooSoon(TableState):
    """Claims 1001 the first time it may speak after taking a trick."""

    def compose(self) -> m.Message | Question | None:
        if _at_my_lead(self):
            track = self.track
            assert isinstance(track, BelotTrack)
            if 1 <= len(track.deal.tricks) <= 8:
                return m.ClaimMsg()
        return super().compose()


class WrongTurnedShare(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TurnedMsg):
            return m.TurnedMsg(m.Opening(msg.share.pos, SCALAR), msg.hand_ok)
        return msg


class WrongExtraShare(TableState):
    """Gives a wrong share for another seat's three more: that seat cannot read them."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.phase is BelotPhase.EXTRA:
            first = msg.shares[0]
            return m.SharesMsg((m.Opening(first.pos, SCALAR), *msg.shares[1:]))
        return msg


@pytest.mark.parametrize("players", [2, 3])
def test_playing_a_card_it_was_not_dealt(players: int) -> None:
    tables, events = play_belot(51, PlaysAnotherSeatsCard, players)
    assert_caught(tables, events, "was not dealt to this seat")


@pytest.mark.parametrize("players", [2, 3])
def test_a_false_declaration(players: int) -> None:
    tables, events = play_belot(52, DeclaresNothing, players)
    assert_caught(tables, events, "false declaration")


@pytest.mark.parametrize("players", [2, 3])
def test_a_false_claim_of_1001(players: int) -> None:
    tables, events = play_belot(53, ClaimsTooSoon, players)
    assert_caught(tables, events, "false claim of 1001")


@pytest.mark.parametrize("players", [2, 3])
def test_a_wrong_share_for_the_turned_card(players: int) -> None:
    tables, events = play_belot(54, WrongTurnedShare, players)
    assert_caught(tables, events, "share check failed")
    # nobody saw the turned card: the deal went straight to the reveal and the audit
    assert not any(isinstance(e, belot_ev.CardTurned) for e in events[0])


@pytest.mark.parametrize("players", [2, 3])
def test_a_wrong_share_for_the_three_more(players: int) -> None:
    # the victim says so at its turn; the audit names the cheater, not the victim
    tables, events = play_belot(55, WrongExtraShare, players)
    assert_caught(tables, events, "share check failed")
    assert all(f.seat == CHEATER for f in tables[0].view.faults)


class Reneges(TableState):
    """Plays another suit (or a lower trump) when the rules forbid it, whenever it can.
    Nobody knows its hand during play, so the audit catches it."""

    def compose(self) -> m.Message | Question | None:
        if self.phase is Phase.PLAY:
            deal = self._deal()
            if deal.trick and deal.turn == self.me and deal.hands[CHEATER] is not None:
                legal = deal.legal_mask(CHEATER)
                unplayed = _unplayed(self)
                illegal = [p for p, c in sorted(unplayed.items()) if not legal >> c & 1]
                if illegal:
                    return m.PlayMsg(illegal[0], self.round.deck.my_opening(illegal[0]).key)
        return super().compose()

    def handle(self, seat: int, msg: m.Message) -> None:
        if not (isinstance(msg, m.PlayMsg) and seat == self.me):
            super().handle(seat, msg)
            return
        # judge our own card as the others do, with our hand unknown, then take it back
        track = self.track
        assert isinstance(track, BelotTrack)
        hand = self._deal().hands[CHEATER]
        assert hand is not None
        track._game = replace(track.game, deal=self._with_hand(None))
        super().handle(seat, msg)
        card = self.round.my_hand[msg.pos]
        if track.game.deal is not None:
            track._game = replace(track.game, deal=self._with_hand(hand & ~(1 << card)))

    def _deal(self) -> DealState:
        track = self.track
        assert isinstance(track, BelotTrack)
        return track.deal

    def _with_hand(self, hand: int | None) -> DealState:
        deal = self._deal()
        hands = tuple(hand if s == CHEATER else h for s, h in enumerate(deal.hands))
        return replace(deal, hands=hands)


@pytest.mark.parametrize("players", [2, 3])
def test_a_renege_is_found_by_the_audit(players: int) -> None:
    tables, events = play_belot(56, Reneges, players)
    assert_caught(tables, events, "the audited deal breaks the rules")
    assert tables[0].view.faults[0].seat == CHEATER


def test_telling_different_peers_different_things() -> None:
    """The cheater keeps two consistent hash chains: seat 2 gets its first shares in
    another order and every later envelope re-chained to match; the deal-end
    comparison of chain heads names it."""
    game = LocalGame.seeded(57, game="belot", players=3)
    signer = game.signers[CHEATER]
    tables = game.make_tables()
    forked: dict[str, bytes] = {}

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        if source != CHEATER or dest != 2:
            return raw
        envelope = open_envelope(raw)
        msg = envelope.msg
        if isinstance(msg, m.SharesMsg) and "prev" not in forked:
            msg = m.SharesMsg(tuple(reversed(msg.shares)))
        elif "prev" not in forked:
            return raw
        prev = forked.get("prev", envelope.prev)
        twin = seal_envelope(signer, envelope.game, envelope.deal, envelope.seq, prev, msg)
        forked["prev"] = twin.digest
        return twin.raw

    events = run_sync(tables, [make_bot("random", s) for s in range(3)], deliver=deliver)
    for seat in (0, 2):
        assert tables[seat].state.phase is Phase.ABORTED
        faults = faults_of(events[seat])
        assert any(f.seat == CHEATER and f.proven and "two different" in f.what for f in faults), (
            faults
        )
