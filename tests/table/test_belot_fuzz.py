"""No envelope a seated Belot peer can sign makes a table raise (as test_table_fuzz for
Belka): an observer replays a real Belot game's start, then gets a random well-formed
message from the seat that is due, and must refuse it or name the seat (a short run by
default, the long one under ``-m slow``)."""

from __future__ import annotations

from collections.abc import Callable

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


SHORT, LONG = 30, 120
"""Examples in the default suite, and under ``-m slow``."""


@pytest.fixture(scope="module")
def transcript() -> list[Envelope]:
    # the game's first CUT records are all the fuzz replays: played that far, no further
    tables, _ = play_sync(
        SEED, game_name="belot", players=PLAYERS, until=lambda t: len(t[0].view.transcript) >= CUT
    )
    return list(tables[0].view.transcript[:CUT])


def _fuzz(examples: int) -> Callable[..., None]:
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(cut=st.integers(1, CUT - 1), data=st.data())
    def fuzz(transcript: list[Envelope], cut: int, data: st.DataObject) -> None:
        forge_after(LocalGame.seeded(SEED, game="belot", players=PLAYERS), transcript, cut, data)

    return fuzz


test_a_signed_message_of_any_kind_never_crashes_a_belot_table = _fuzz(SHORT)
test_a_signed_message_of_any_kind_never_crashes_a_belot_table_long = pytest.mark.slow(_fuzz(LONG))
