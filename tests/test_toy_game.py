"""A third game, Toy (``tests/toygame/``), joins every layer through the registries alone:
no shared file names it, yet the table deals it fairly, bots play it, every peer
audits every deal, and ``verify`` checks the saved transcript."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.bench import registry as bench_registry
from p2pbelka.bots import registry as bots_registry
from p2pbelka.cli.main import main
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules import registry as rules_registry
from p2pbelka.table import events as ev
from p2pbelka.table import registry as table_registry
from p2pbelka.table.phase import ENDS, FIRST, Phase
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes
from tests import toygame
from tests.table.test_machine import reachable
from tests.toygame.rules import game as rules
from tests.toygame.rules.summary import ToySummary


@pytest.fixture
def toy() -> Iterator[None]:
    toygame.register()
    try:
        yield
    finally:
        toygame.unregister()


def play_toy(
    seed: int, levels: tuple[str, str] = ("lowest", "random"), deals: str = "2"
) -> tuple[list[Table], list[list[ev.Event]]]:
    game = LocalGame.seeded(seed, "plain", {"deals": deals}, game=rules.NAME, players=2)
    tables = game.make_tables()
    bots = [bots_registry.make_bot(level, seed * 10 + s) for s, level in enumerate(levels)]
    events = run_sync(tables, bots)
    return tables, events


def test_toy_is_known_to_every_layer_once_registered(toy: None) -> None:
    assert rules_registry.spec("toy").seat_counts == (2,)
    assert "toy" in rules_registry.names() and "toy" in table_registry.names()
    assert bots_registry.levels("toy") == ("random", "lowest")
    machine = table_registry.machine("toy")
    assert Phase.PLAY in machine[Phase.SHARES]
    assert bench_registry.game_part("rules", "toy") is not None
    assert bench_registry.game_part("deal", "toy") is None  # measured by the shared code


def test_toy_s_own_benchmark_joins_the_shared_one(
    toy: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "rules", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["toy_deals_per_s"] > 0 and figures["fast_core_deals_per_s"] > 0


def test_toy_is_unknown_when_not_registered() -> None:
    for lookup in (rules_registry.spec, table_registry.track_class, bots_registry.bots_of):
        with pytest.raises(ValueError, match="toy"):
            lookup("toy")
    with pytest.raises(ValueError, match="toy"):
        bench_registry.game_part("rules", "toy")


@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_a_whole_toy_game_and_every_peer_audits_every_deal(toy: None, seed: int) -> None:
    tables, events = play_toy(seed)
    for table, log in zip(tables, events, strict=True):
        assert table.finished and table.state.phase == Phase.OVER
        audited = [e for e in log if isinstance(e, ev.DealAudited)]
        assert [e.deal_id for e in audited] == [1, 2]
        assert all(isinstance(e.summary, ToySummary) for e in audited)
        assert sum(sum(e.summary.won) for e in audited) == 2 * rules.HAND
        assert not [e for e in log if isinstance(e, ev.FaultFound)]
        over = [e for e in log if isinstance(e, ev.GameOver)]
        assert len(over) == 1
    # every peer holds the same transcript, byte for byte
    assert len({dump_transcript(t.view.transcript) for t in tables}) == 1


def test_verify_checks_a_saved_toy_game(toy: None) -> None:
    tables, _ = play_toy(3, deals="1")
    data = dump_transcript(tables[0].view.transcript)
    report = verify_bytes(data)
    assert report.error is None and not report.faults, report.verdict
    assert report.verdict.startswith("OK"), report.verdict
    assert [d.deal_id for d in report.deals] == [1]
    summary = report.deals[0].summary
    assert ToySummary.from_json(summary.to_json()) == summary
    # a flipped byte is found and named
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 1
    broken = verify_bytes(bytes(flipped))
    assert broken.verdict.startswith("INVALID: byte ") and "(record " in broken.verdict


def test_the_verify_command_checks_a_toy_transcript(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables, _ = play_toy(4, deals="1")
    saved = tmp_path / "toy.p2pb"
    saved.write_bytes(dump_transcript(tables[0].view.transcript))
    record = tmp_path / "toy.json"
    assert main(["verify", str(saved), "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "OK: every deal was dealt fairly and played legally" in out
    assert "deal 1: tricks" in out
    assert json.loads(record.read_text())["game"] == "toy"


def test_toy_s_machine_is_whole_and_its_games_take_only_declared_transitions(toy: None) -> None:
    machine = table_registry.machine(rules.NAME)
    assert reachable(machine, FIRST) == set(machine) | ENDS
    assert set(machine) == {p for p in Phase if p not in ENDS}  # no phase of its own
    game = LocalGame.seeded(5, "plain", {"deals": "2"}, game=rules.NAME, players=2)
    tables = game.make_tables()
    taken: set[tuple[str, str]] = set()
    for table in tables:
        table.state.on_transition = lambda before, after: taken.add((str(before), str(after)))
    run_sync(tables, [bots_registry.make_bot("random", s) for s in range(2)])
    assert all(t.state.phase == Phase.OVER for t in tables)
    for before, after in taken:
        assert Phase(after) in machine[Phase(before)], f"{before} -> {after} is not declared"
    # flow 3: a won game ends with the closing exchange
    assert {
        ("shares", "play"),
        ("play", "reveal"),
        ("deal_end", "close"),
        ("close", "over"),
    } <= taken
