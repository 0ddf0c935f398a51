"""A remaining seat's peer refuses to sign an offered continuation whose segment id
any earlier segment of the game had (the game's first id included), naming why; the
proposer draws a fresh id (``SeatChange``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.peer.seatchange.runner import SeatChangeRunner
from p2pbelka.protocol.seatchange import Offer
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.segments import observe_segments, previous_of, propose
from p2pbelka.table.session import Table
from tests.peer.seatrunners import unlinked_runner
from tests.table.seatloss import bot_then_back

LOST, SIGNER, PROPOSER = 2, 1, 0
NONCE = bytes(range(100, 116))


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[TranscriptWriter]:
    with TranscriptWriter(tmp_path / "transcript.p2pb") as opened:
        yield opened


def _runner(table: Table, writer: TranscriptWriter) -> SeatChangeRunner:
    return unlinked_runner(table, SIGNER, "Seat 1", writer, bot_seed=1)[0]


@pytest.mark.parametrize("reused", ["first", "second"])
def test_an_offer_under_an_earlier_segments_id_is_not_signed(
    writer: TranscriptWriter, reused: str
) -> None:
    game, first_id, second_id, player = bot_then_back("belka", 4, LOST)
    table = game.tables[SIGNER]
    assert table.view.missing() == [LOST]
    proposer = game.tables[PROPOSER]._signer
    assert proposer is not None
    runner = _runner(table, writer)
    rebuilt = previous_of(observe_segments(game.files[PROPOSER]))

    def offer(segment: bytes | None) -> Offer:
        return Offer(*propose(rebuilt, LOST, player.public_key, "Back", NONCE, proposer, segment))

    segment = first_id if reused == "first" else second_id
    problem = runner.change.offer_problem(PROPOSER, offer(segment), table)
    assert "a continuation must have a segment id of its own" in problem
    assert segment.hex()[:16] in problem
    assert runner.change.offer_problem(PROPOSER, offer(None), table) == ""  # its derived id


def test_an_offer_under_an_id_not_derived_from_it_is_not_signed(writer: TranscriptWriter) -> None:
    """A fresh id the proposer chose (not the one the continuation derives): refused,
    since a proposer that chooses ids can choose one a seat signed under before."""
    game, _first_id, _second_id, player = bot_then_back("belka", 4, LOST)
    table = game.tables[SIGNER]
    proposer = game.tables[PROPOSER]._signer
    assert proposer is not None
    runner = _runner(table, writer)
    rebuilt = previous_of(observe_segments(game.files[PROPOSER]))
    chosen = Offer(
        *propose(rebuilt, LOST, player.public_key, "Back", NONCE, proposer, bytes(range(16)))
    )
    problem = runner.change.offer_problem(PROPOSER, chosen, table)
    assert "is not the one its table derives" in problem, problem


def test_an_offer_under_an_id_this_peer_has_seen_is_not_signed(writer: TranscriptWriter) -> None:
    """The derived id of an offer is one this peer's list of ids holds (it sat in a
    segment of that id before): not signed, whatever else holds."""
    game, _first_id, _second_id, player = bot_then_back("belka", 4, LOST)
    table = game.tables[SIGNER]
    proposer = game.tables[PROPOSER]._signer
    assert proposer is not None
    runner = _runner(table, writer)
    rebuilt = previous_of(observe_segments(game.files[PROPOSER]))
    offer = Offer(*propose(rebuilt, LOST, player.public_key, "Back", NONCE, proposer))
    runner.known.remember(offer.segment)
    assert "has seen that id before" in runner.change.offer_problem(PROPOSER, offer, table)
