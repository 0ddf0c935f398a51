"""A seat lost for good: a bot takes it in a continuation segment, the score carries on,
the player can take it back, and ``verify`` checks every change (or names the seat
whose agreement is missing or forged, or the wrong carried score)."""

from __future__ import annotations

import os
from dataclasses import replace

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer, seal_envelope
from p2pbelka.protocol.ids import segment_id_of
from p2pbelka.protocol.seatchange import sign_agreement, with_agreements
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.segments import (
    SeatChanged,
    observe_segments,
    previous_of,
    propose,
    resume_segments,
)
from p2pbelka.table.session import Table
from tests.audit import verify_bytes
from tests.table.crash import catch_up
from tests.table.seatloss import (
    Crash,
    Game,
    audited,
    crash_a_deal_after_the_change,
    first_seed,
    hand_over,
    handed_to_a_bot,
    lose_seat,
    seat_1_recorded,
    seeded_bot,
    start,
)

LOST = 2


def _lost_game(seed: int = 5, after_deals: int = 1) -> Game:
    game, _local = start(seed)
    lose_seat(game, LOST, after_deals=after_deals)
    stuck = [game.tables[s] for s in (0, 1, 3)]
    assert all(not t.finished and t.view.missing() == [LOST] for t in stuck)
    return game


def test_a_bot_takes_the_lost_seat_and_the_game_finishes() -> None:
    game = _lost_game()
    before = game.tables[0]
    score, voided = before.state.track.standing().points, before.state.deal_id
    dealer = before.state.track.dealer
    assert voided == audited(before) + 1, "a deal is under way at the cut"
    bot = Signer.generate()
    hand_over(game, LOST, bot, "Bot for Saule")
    game.settle([0, 1, 2, 3])
    assert all(t.state.over for t in game.tables), [t.state.phase for t in game.tables]
    # the first deal of the new segment starts from the carried score, same deal id
    started = [e for e in game.events[0] if isinstance(e, ev.DealStarted)]
    again = [e for e in started if e.deal_id == voided]
    assert len(again) == 2 and again[1].score.points == score and again[1].dealer == dealer
    changed = [e for e in game.events[1] if isinstance(e, SeatChanged)]
    assert changed == [], "the event is made by the peer layer, not the table"
    files = {game.file(s) for s in (0, 1, 3)}
    assert len(files) == 1, "the remaining seats' transcripts differ"
    report = verify_bytes(files.pop())
    assert report.ok, report.verdict
    assert report.change_lines == [
        f"seat 2 (Saule) replaced by Bot for Saule [{_fp(bot)}] from deal {voided},"
        f" agreed by seats 0, 1, 3; deal {voided}, unfinished, voided"
    ]
    assert [d.deal_id for d in report.deals] == list(range(1, len(report.deals) + 1))


def _bot_until_two_deals_on(seed: int) -> tuple[Game, int, Signer] | None:
    """Seat 2 lost and given to a bot that hands it back before deal ``at``, two deals
    on: the game, ``at`` and the player's signer; None if the game ended before."""
    game = _lost_game(seed=seed)
    original = game.tables[LOST]
    player = original._signer
    assert player is not None
    at = game.tables[0].state.deal_id + 2
    bot = seeded_bot(seed)
    hand_over(
        game,
        LOST,
        bot.signer,
        "Bot for Saule",
        seed_sources={LOST: bot.seed_source},
        nonce=bot.nonce,
    )
    game.tables[LOST].stop_at_deal(at)  # the bot hands over before deal `at`
    game.settle([0, 1, 2, 3])
    return None if game.tables[0].finished else (game, at, player)


def test_the_player_takes_the_seat_back_between_deals() -> None:
    game, at, player = first_seed(
        _bot_until_two_deals_on, range(8, 40), "a game still on when the player comes back"
    )
    assert game.tables[0].state.deal_id == at and game.tables[0].view.missing() == [LOST]
    assert audited(game.tables[0]) == at - 1, "no card of deal `at` is dealt"
    # The player rebuilds the game from a remaining seat's transcript (observer replay).
    rebuilt = observe_segments(game.files[1])
    assert previous_of(rebuilt) == previous_of(game.tables[1])
    hand_over(game, LOST, player, "Saule", previous_table=rebuilt)
    game.settle([0, 1, 2, 3])
    assert all(t.state.over for t in game.tables)
    report = verify_bytes(game.file(0))
    assert report.ok, report.verdict
    assert len(report.change_lines) == 2
    assert report.change_lines[1].startswith(f"seat 2 handed back to Saule [{_fp(player)}]")
    assert (
        f"from deal {at}, agreed by seats 0, 1, 3; deal {at} starts over, no card of it dealt yet"
        in (report.change_lines[1])
    )
    assert report.changes[1].back and not report.changes[0].back


def test_a_belot_seat_changes_hands() -> None:
    game, _ = start(4, game_name="belot", players=3)
    lose_seat(game, 1, after_deals=1, plays=2)
    hand_over(game, 1, Signer.generate(), "Bot")
    game.settle([0, 1, 2])
    assert all(t.state.over for t in game.tables)
    report = verify_bytes(game.file(0))
    assert report.ok, report.verdict
    assert "agreed by seats 0, 2" in report.change_lines[0]


# -- what verify and the tables refuse ---------------------------------------------------------


def _continuation(game: Game, change: object = None) -> tuple[bytes, m.TableMsg, list[Signer]]:
    """The honest proposal of the lost seat's bot, every remaining seat's signer."""
    signers = [t._signer for t in game.tables]
    assert all(s is not None for s in signers)
    keys = [s for s in signers if s is not None]
    previous = previous_of(game.tables[0])
    bot = Signer.generate().public_key
    segment, table = propose(previous, LOST, bot, "Bot", os.urandom(16), keys[0])
    agreed = dict(table.after.agreed) if table.after else {}
    for s in (1, 3):
        agreed[s] = sign_agreement(keys[s], segment, table)
    return segment, with_agreements(table, agreed), keys


def _verify_with(game: Game, table: m.TableMsg, host: Signer) -> str:
    envelope = seal_envelope(host, segment_id_of(table), 0, 0, bytes(32), table)
    report = verify_bytes(dump_transcript([*game.files[0], envelope]))
    return report.verdict


def _refused_live(game: Game, table: m.TableMsg, host: Signer) -> str:
    """What seat 1's live table says of this continuation from seat 0."""
    segment = segment_id_of(table)
    envelope = seal_envelope(host, segment, 0, 0, bytes(32), table)
    live = Table(segment, signer=game.tables[1]._signer, previous=previous_of(game.tables[1]))
    live.receive(envelope.raw)
    assert live.state.setup is None
    return " ".join(e.reason for e in live.take_events() if isinstance(e, ev.Rejected))


def test_the_honest_continuation_is_accepted() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    assert _verify_with(game, table, keys[0]).startswith("INCOMPLETE")


def test_a_forged_agreement_is_refused_naming_the_seat() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    assert table.after is not None
    # seat 0 signs in seat 1's name with its own key
    forged = dict(table.after.agreed)
    forged[1] = sign_agreement(keys[0], segment_id_of(table), table)
    bad = with_agreements(table, forged)
    verdict = _verify_with(game, bad, keys[0])
    assert verdict.startswith("INVALID") and "seat 1's agreement is not its signature" in verdict
    assert "seat 1's agreement" in _refused_live(game, bad, keys[0])


def test_an_agreement_made_for_another_change_is_refused() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    assert table.after is not None
    other = replace(
        table, seats=(*table.seats[:2], m.SeatInfo(table.seats[2].key, "X"), table.seats[3])
    )
    agreed = dict(table.after.agreed)
    agreed[3] = sign_agreement(keys[3], segment_id_of(table), other)
    verdict = _verify_with(game, with_agreements(table, agreed), keys[0])
    assert "seat 3's agreement is not its signature on this change" in verdict


def test_a_change_signed_by_only_some_seats_is_refused() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    assert table.after is not None
    some = {s: sig for s, sig in table.after.agreed if s != 3}
    verdict = _verify_with(game, with_agreements(table, some), keys[0])
    assert verdict.startswith("INVALID")
    assert "seat 3 did not sign the change (signed by 0, 1)" in verdict
    assert "seat 3 did not sign" in _refused_live(game, with_agreements(table, some), keys[0])


def test_a_wrong_carried_score_is_refused() -> None:
    game = _lost_game()
    _, honest, keys = _continuation(game)
    assert honest.after is not None
    score = (honest.after.score[0] + 1, *honest.after.score[1:])
    lie = replace(honest, after=replace(honest.after, score=score, agreed=()))
    # every remaining seat signs the lie: the score is still not what the deals give
    agreed = {s: sign_agreement(keys[s], segment_id_of(lie), lie) for s in (0, 1, 3)}
    verdict = _verify_with(game, with_agreements(lie, agreed), keys[0])
    assert verdict.startswith("INVALID")
    assert f"seat 0's continuation carries score {list(score)}" in verdict
    assert f"audited deals give score {list(honest.after.score)}" in verdict


def test_a_cut_that_is_not_where_the_segment_ends_is_refused() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    shorter = game.files[0][:-1]
    envelope = seal_envelope(keys[0], segment_id_of(table), 0, 0, bytes(32), table)
    verdict = verify_bytes(dump_transcript([*shorter, envelope])).verdict
    assert verdict.startswith("INVALID") and "it cuts seat" in verdict and "but segment" in verdict


def test_the_seat_that_changes_hands_cannot_host_or_agree() -> None:
    game = _lost_game()
    _, table, keys = _continuation(game)
    assert table.after is not None
    agreed = dict(table.after.agreed)
    agreed[LOST] = sign_agreement(keys[LOST], segment_id_of(table), table)
    verdict = _verify_with(game, with_agreements(table, agreed), keys[0])
    assert "seat 2, the seat that changes hands, cannot agree" in verdict


def test_a_continuation_with_no_segment_before_it_is_refused() -> None:
    game = _lost_game()
    segment, table, keys = _continuation(game)
    envelope = seal_envelope(keys[0], segment, 0, 0, bytes(32), table)
    verdict = verify_bytes(dump_transcript([envelope])).verdict
    assert verdict.startswith("INVALID") and "no segment comes before it" in verdict


def _fp(signer: Signer) -> str:
    from p2pbelka.net.identity import fingerprint

    return fingerprint(signer.public_key)


def _resume_seat_1(crash: Crash) -> None:
    """Seat 1 rebuilt from its transcript and each segment's secrets, caught up, and
    played to the end with the others: the same file as theirs, and it verifies."""
    game, signer, recorded = crash.game, crash.signer, crash.recorded
    resumed = resume_segments(signer, game.files[1], seed_sources=recorded.replaying())
    assert resumed.state.previous is not None and resumed.game_id == game.tables[1].game_id
    catch_up(resumed, [t for s, t in enumerate(game.tables) if s != 1])
    resumed.release()
    game.tables[1] = resumed
    game.settle([0, 1, 2, 3])
    assert all(t.state.over for t in game.tables), [t.state.phase for t in game.tables]
    assert game.file(1) == game.file(0)
    assert verify_bytes(game.file(1)).ok


def test_a_remaining_seat_resumed_after_the_change_replays_every_segment() -> None:
    """A crash after the change: the seat rebuilds both segments from its transcript
    and its secrets (each segment's drawn in the same order), catches up and plays to
    the end."""
    crash = first_seed(crash_a_deal_after_the_change, range(12, 44), "a game on at the crash")
    _resume_seat_1(crash)


def test_a_seed_drawn_ahead_before_the_cut_is_never_used_in_the_next_segment() -> None:
    """A seat's driver draws its next deal's seed ahead (``Table.prepare``; at flow 2
    and later its last ``deal_end`` committed to it); the cut voids that deal, and
    the new segment draws every secret fresh: no seed drawn for the segment before
    (revealed or only committed) is used in it.  Resumed from its files after the
    change, the seat still replays both segments and plays on."""
    crash = first_seed(_crash_after_a_seed_drawn_ahead, range(12, 44), "a game on at the crash")
    _resume_seat_1(crash)


def _crash_after_a_seed_drawn_ahead(seed: int) -> Crash | None:
    """Seat 1 draws its next deal's seed ahead before seat 2 is handed to a bot; the
    new segment's first deal is audited at seat 1; None if the game ended before."""
    game, local, recorded = seat_1_recorded(seed)
    lose_seat(game, LOST, after_deals=1)
    while game.tables[1].prepare():  # what an idle driver does during the deal
        pass
    ahead = game.tables[1].state.deals.next_local
    assert ahead is not None
    before = list(recorded.first.drawn)
    assert ahead.seed in before
    at = handed_to_a_bot(game, seed, recorded)
    game.settle([0, 1, 2, 3], until=lambda tables: tables[1].state.deals.round is not None)
    local_seat = game.tables[1].state.round.deck.local
    assert local_seat is not None
    assert local_seat.seed != ahead.seed, "the seed drawn ahead for the voided deal was used"
    assert local_seat.seed not in before, "a seed drawn for the segment before was used"
    game.settle([0, 1, 2, 3], until=lambda tables: audited(tables[1]) >= at)
    table = game.tables[1]
    drawn_here = set(recorded.later[0].drawn)
    assert drawn_here and not drawn_here & set(before)
    revealed = {e.msg.seed for e in table.view.transcript if isinstance(e.msg, m.RevealMsg)}
    mine = {
        e.msg.seed
        for e in table.view.transcript
        if isinstance(e.msg, m.RevealMsg) and e.sender == local.signers[1].public_key
    }
    assert mine and mine <= drawn_here and not revealed & set(before)
    return None if table.finished else Crash(game, local.signers[1], recorded)
