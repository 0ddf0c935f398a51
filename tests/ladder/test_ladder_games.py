"""Real games keep their results: every seat of a loopback table (real sockets, real
peers) writes the certificate beside its saved game and counts it in its ledger."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.files import IN_A_DIRECTORY
from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.loopback import loopback_table

pytestmark = pytest.mark.usefixtures("one_process")  # every seat in this process


async def test_every_seat_keeps_the_result_of_a_loopback_game(tmp_path: Path) -> None:
    results = await loopback_table(
        BotFrontEnd(make_bot("random", 1)),
        ["random"],
        seed=5,
        transcript_dir=tmp_path,
        game="belot",
    )
    assert all(r.finished for r in results)
    outcomes = set()
    for r in results:
        made = cert.read((r.store.directory / IN_A_DIRECTORY).read_bytes())
        assert made.maker_seat == r.seat and made.game_id == r.game_id
        outcomes.add(made.outcome)
        with Ledger(ledger_path(r.store.directory.parent)) as ledger:
            assert [x.game_id for x in ledger.results()] == [r.game_id]
            assert not ledger.notes
    assert len(outcomes) == 1
