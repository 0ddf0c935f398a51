"""No envelope a seated peer can sign makes a table raise.

An observer replays the first part of a real game, then receives a random but
well-formed message from the seat that is due, with the right sequence number
and hash chain, so it reaches the table's handlers rather than the codec's
checks.  Whatever it says, the table must refuse it or name the seat.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import Envelope
from tests.table.fuzz import forge_after
from tests.table.helpers import play_sync

SEED = 51


@pytest.fixture(scope="module")
def transcript() -> list[Envelope]:
    tables, _ = play_sync(SEED)
    return list(tables[0].view.transcript[:160])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(1, 159), data=st.data())
def test_a_signed_message_of_any_kind_never_crashes_a_table(
    transcript: list[Envelope], cut: int, data: st.DataObject
) -> None:
    forge_after(LocalGame.seeded(SEED), transcript, cut, data)
