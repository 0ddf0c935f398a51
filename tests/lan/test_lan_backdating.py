"""A seat that back-dates its certificate of the game just played (the true outcome,
dated an hour early: results.md section 4) gains nothing on the other seat's ledger,
with real peers on loopback: the exchange at the table's end brings it, the honest
seat's ledger sets it aside and keeps its own, dated when the game ended."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.ladder.certificate import Certificate, read
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.peer import results as results_module
from p2pbelka.peer.lan import NetOptions
from p2pbelka.peer.store import seat_home
from p2pbelka.protocol.envelope import Signer
from p2pbelka.table.session import Table
from tests.lan.helpers import belot_of_two, two_players


async def test_a_back_dated_certificate_does_not_move_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    players = two_players(tmp_path)
    liar = players[1].public_key
    real = results_module.certify_table

    def certify(table: Table, signer: Signer, at: int, *game: Any) -> Certificate | str:
        return real(table, signer, at - 3600 if signer.public_key == liar else at, *game)

    monkeypatch.setattr(results_module, "certify_table", certify)
    results = await belot_of_two(tmp_path, players, NetOptions(linger=2.0))
    assert all(r.finished for r in results)
    honest = results[0].shared
    assert honest is not None and honest.peers[0].came == 1, honest  # the liar's came
    with Ledger(seat_home(tmp_path, 0) / "ladder.sqlite", players[0].public_key) as ledger:
        [(_, raw)] = ledger.certificates()
        [result] = ledger.results()
    kept = read(raw)
    assert kept.by == players[0].public_key and result.at == kept.at
    assert "minutes before your own certificate" in caplog.text
