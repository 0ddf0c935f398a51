"""Transcripts of flow 2 (before the closing exchange, and before endings were taken in
their senders' chains) still verify as they did: the vectors as they were written at
flow 2, and a whole flow-2 game, which ends at its last ``deal_end`` with no ``close``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.session import Table
from tests.audit import verify_bytes

FLOW2 = Path(__file__).resolve().parent / "flow2"

VERDICTS = {
    "first-deal": ("INCOMPLETE", 76, []),
    "belot-first-deal": ("INCOMPLETE", 63, []),
    "eggs-choice": ("INCOMPLETE", 257, []),
    "proven": ("CHEATING PROVEN", 30, [(2, True)]),
    "disputed": ("DISPUTED", 75, [(1, False), (2, False)]),
}


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_flow_2_vectors_verify_as_before(name: str) -> None:
    report = verify_bytes((FLOW2 / f"{name}.p2pb").read_bytes())
    verdict, records, faults = VERDICTS[name]
    assert report.error is None, report.error
    assert report.verdict.split(":", 1)[0] == verdict
    assert report.records == records
    assert [(f.seat, f.proven) for f in report.faults] == faults


@pytest.mark.parametrize(("game", "players"), [("belka", 4), ("belot", 3)])
def test_a_whole_flow_2_game_ends_without_a_close(game: str, players: int) -> None:
    local = LocalGame.seeded(5, game=game, players=players)
    assert local.seed_sources is not None
    # Before flow 3 a table carries no nonces and names the id its host chose: seats
    # told to sit at such a table (a peer sits only at flow 3) play it as before.
    setup = replace(local.setup(), flow=2, nonces=())
    sources = local.seed_sources
    old = {"game_id": local.game_id, "oldest_flow": 2}
    tables = [Table.host(local.signers[0], setup, seed_source=sources[0], **old)]
    tables += [
        Table(local.game_id, signer=local.signers[s], seed_source=sources[s], oldest_flow=2)
        for s in range(1, players)
    ]
    run_sync(tables, [make_bot("random", s) for s in range(players)])
    for table in tables:
        assert table.state.over and table.state.flow == 2
        assert not any(isinstance(e.msg, m.CloseMsg) for e in table.view.transcript)
        assert isinstance(table.view.transcript[-1].msg, m.DealEndMsg | m.ChoiceMsg)
        report = verify_bytes(dump_transcript(table.view.transcript))
        assert report.ok, report.verdict
