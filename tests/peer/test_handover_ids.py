"""A remaining seat's peer refuses to sign an offered continuation whose segment id
any earlier segment of the game had (the game's first id included), naming why; the
proposer draws a fresh id (``offer_change``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.peer.handover import Handover
from p2pbelka.protocol.handover import Offer
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.segments import observe_segments, previous_of, propose
from p2pbelka.table.session import Table
from tests.peer.handovers import unlinked_handover
from tests.table.handover import bot_then_back

LOST, SIGNER, PROPOSER = 2, 1, 0


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[TranscriptWriter]:
    with TranscriptWriter(tmp_path / "transcript.p2pb") as opened:
        yield opened


def _handover(table: Table, writer: TranscriptWriter) -> Handover:
    return unlinked_handover(table, SIGNER, "Seat 1", writer, bot_seed=1)[0]


@pytest.mark.parametrize("reused", ["first", "second"])
def test_an_offer_under_an_earlier_segments_id_is_not_signed(
    writer: TranscriptWriter, reused: str
) -> None:
    game, first_id, second_id, player = bot_then_back("belka", 4, LOST)
    table = game.tables[SIGNER]
    assert table.missing() == [LOST]
    proposer = game.tables[PROPOSER]._signer
    assert proposer is not None
    handover = _handover(table, writer)
    rebuilt = previous_of(observe_segments(game.files[PROPOSER]))

    def offer(segment: bytes) -> Offer:
        return Offer(segment, propose(rebuilt, LOST, player.public_key, "Back", proposer, segment))

    segment = first_id if reused == "first" else second_id
    problem = handover._offer_problem(PROPOSER, offer(segment), table)
    assert "a continuation must have a segment id of its own" in problem
    assert segment.hex()[:16] in problem
    assert handover._offer_problem(PROPOSER, offer(bytes(range(16))), table) == ""
