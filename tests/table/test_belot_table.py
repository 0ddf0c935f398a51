"""Belot at the table: whole games for 2 and 3 seats, synchronously and over memory
channels; every transcript verifies, and the record verify exports is the referee's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.cli import main as cli
from p2pbelka.peer.local import LocalGame, play_local_game
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules.belot.core import deal_pattern
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.table import events as ev
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.table.games.belot.track import extra_positions, first_positions, turned_position
from p2pbelka.table.verify import VerifiedDeal
from tests.audit import verify_bytes
from tests.table.crash import play_with_a_crash
from tests.table.helpers import faults_of, play_sync, played


def _score_of(events: list[ev.Event]) -> tuple[int, ...]:
    over = [e for e in events if isinstance(e, ev.GameOver)]
    assert len(over) == 1, [e for e in events if isinstance(e, ev.GameAborted)]
    return over[0].score


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 1)])
def test_a_whole_belot_game_over_run_sync(players: int, seed: int) -> None:
    game = played(seed, "belot", players)
    events = [list(log) for log in game.events]
    assert all(game.over)
    assert all(t == game.transcripts[0] for t in game.transcripts)
    assert not any(faults_of(e) for e in events)
    score = _score_of(events[0])
    assert max(score) >= 1001
    # every seat saw the same deals, and each was dealt and audited
    audited = [[e.summary for e in log if isinstance(e, ev.DealAudited)] for log in events]
    assert all(a == audited[0] for a in audited)
    kinds = {d.played.result for d in audited[0] if d.played is not None}
    assert kinds & {"made", "bait"}
    report = verify_bytes(dump_transcript(game.transcripts[0]))
    assert report.ok, report.verdict
    assert report.score == score
    assert isinstance(report.game, BelotGame) and report.game.players == players
    assert report.deals == [VerifiedDeal(i + 1, d) for i, d in enumerate(audited[0])]
    assert [d.to_json() for d in report.deals] == [
        {"deal_id": i + 1, **d.to_json()} for i, d in enumerate(audited[0])
    ]


def test_each_seat_sees_only_its_own_cards_until_the_audit() -> None:
    events = played(1, "belot", 3).events  # the game of Belot for three above
    for seat, log in enumerate(events):
        dealt = [e for e in log if isinstance(e, ev.HandDealt)]
        assert dealt and all(e.seat == seat for e in dealt)
        # six, then nine after the bidding (unless the deal was void)
        assert {len(e.cards) for e in dealt} <= {6, 9}
    turned = [e.card for e in events[0] if isinstance(e, belot_ev.CardTurned)]
    assert turned == [e.card for e in events[1] if isinstance(e, belot_ev.CardTurned)]
    summaries = [e.summary for e in events[0] if isinstance(e, ev.DealAudited)]
    assert [str(s.turned) for s in summaries] == [str(c) for c in turned]


def test_the_position_schedule_follows_the_rules_deal_pattern() -> None:
    for players in (2, 3):
        for dealer in range(players):
            owners = deal_pattern(players, dealer)
            assert all(owners[p] >= 0 for p in first_positions(players))
            assert owners[turned_position(players)] == -1
            assert all(owners[p] >= 0 for p in extra_positions(players))
            stock = [p for p, o in enumerate(owners) if o == -2]
            assert len(stock) == 32 - 9 * players - 1
            for seat in range(players):
                assert sum(owners[p] == seat for p in first_positions(players)) == 6
                assert sum(owners[p] == seat for p in extra_positions(players)) == 3


def test_void_deals_are_audited_and_the_next_seat_deals() -> None:
    # 12: the first seed from 10 on with a void deal, tried first (the search goes on
    # if it no longer has one)
    for seed in [12, *range(10, 30)]:
        _, events = play_sync(seed, game_name="belot", players=2)
        deals = [e.summary for e in events[0] if isinstance(e, ev.DealAudited)]
        voids = [k for k, d in enumerate(deals) if d.void]
        if voids:
            k = voids[0]
            assert list(deals[k].bids) == ["pass"] * 4 and deals[k].cards_checked == 32
            if k + 1 < len(deals):
                assert deals[k + 1].dealer == (deals[k].dealer + 1) % 2
            return
    pytest.fail("no seed gave a void deal")


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12)])
async def test_a_whole_belot_game_over_memory_channels(
    players: int, seed: int, autojump_clock: MockClock
) -> None:
    # Virtual seconds (no real I/O here): they pass only while every peer waits.
    game = LocalGame.seeded(seed, game="belot", players=players)
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    with trio.fail_after(300):
        results = await play_local_game(game, bots)
    assert all(r.finished and not r.aborted for r in results)
    assert all(r.transcript == results[0].transcript for r in results)
    report = verify_bytes(dump_transcript(results[0].transcript))
    assert report.ok, report.verdict
    assert report.score == _score_of(results[0].events)


def test_verify_exports_the_record_the_referee_scores_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played(1, "belot", 3)  # the game of Belot for three above
    events = game.events
    transcript = tmp_path / "game.p2pb"
    transcript.write_bytes(dump_transcript(game.transcripts[0]))
    record = tmp_path / "game.json"
    assert cli.main(["verify", str(transcript), "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "OK: every deal was dealt fairly" in out and "turned" in out
    assert cli.main(["referee", str(record)]) == 0
    refereed = json.loads(capsys.readouterr().out)
    audited = [e.summary for e in events[0] if isinstance(e, ev.DealAudited)]
    assert refereed["score"] == list(_score_of(events[0]))
    assert refereed["winner"] == next(e.winner for e in events[0] if isinstance(e, ev.GameOver))
    assert [d["score"] for d in refereed["deals"] if not d["void"]] == [
        list(d.score) for d in audited if not d.void
    ]
    assert json.loads(record.read_text())["players"] == 3


def test_selfplay_plays_belot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.p2pb"
    argv = ["selfplay", "--game", "belot", "--players", "2", "--seed", "4"]
    assert cli.main([*argv, "--transcript", str(path), "--quiet"]) == 0
    assert "seat" in capsys.readouterr().out
    assert verify_bytes(path.read_bytes()).ok
    assert cli.main(["selfplay", "--game", "belot", "--players", "4"]) == 2


@pytest.mark.parametrize(
    ("players", "victim", "crash_after", "phase"),
    [(3, 1, 40, "play"), (2, 0, 150, "bid"), (3, 2, 60, "turn")],
)
def test_a_crashed_belot_seat_resumes_and_the_game_finishes(
    players: int, victim: int, crash_after: int, phase: str
) -> None:
    game = LocalGame.seeded(77, game="belot", players=players)
    tables, crashed_in = play_with_a_crash(game, victim, crash_after, {phase})
    assert crashed_in == phase
    assert all(t.state.over for t in tables), [t.state.phase for t in tables]
    data = {dump_transcript(t.view.transcript) for t in tables}
    assert len(data) == 1
    assert verify_bytes(data.pop()).ok
