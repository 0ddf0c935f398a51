"""No envelope a seated Belot peer can sign makes a table raise (as test_table_fuzz for
Belka): an observer replays a real Belot game's start, then gets a random well-formed
message from the seat that is due, and must refuse it or name the seat."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import Envelope
from tests.table.fuzz import forge_after
from tests.table.helpers import play_sync

SEED = 61
PLAYERS = 3
CUT = 200


@pytest.fixture(scope="module")
def transcript() -> list[Envelope]:
    tables, _ = play_sync(SEED, game_name="belot", players=PLAYERS)
    return list(tables[0].view.transcript[:CUT])


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(1, CUT - 1), data=st.data())
def test_a_signed_message_of_any_kind_never_crashes_a_belot_table(
    transcript: list[Envelope], cut: int, data: st.DataObject
) -> None:
    forge_after(LocalGame.seeded(SEED, game="belot", players=PLAYERS), transcript, cut, data)
