"""No envelope a seated peer can sign makes a table raise (a short run by default, the
long one under ``-m slow``).

An observer replays the first part of a real game, then receives a random but
well-formed message from the seat that is due, with the right sequence number
and hash chain, so it reaches the table's handlers rather than the codec's
checks.  Whatever it says, the table must refuse it or name the seat.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import Envelope
from tests.table.fuzz import forge_after
from tests.table.helpers import play_sync

SEED = 51


SHORT, LONG = 40, 150
"""Examples in the default suite, and under ``-m slow``."""


@pytest.fixture(scope="module")
def transcript() -> list[Envelope]:
    # the game's first 160 records are all the fuzz replays: played that far, no further
    tables, _ = play_sync(SEED, until=lambda t: len(t[0].view.transcript) >= 160)
    return list(tables[0].view.transcript[:160])


def _fuzz(examples: int) -> Callable[..., None]:
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(cut=st.integers(1, 159), data=st.data())
    def fuzz(transcript: list[Envelope], cut: int, data: st.DataObject) -> None:
        forge_after(LocalGame.seeded(SEED), transcript, cut, data)

    return fuzz


test_a_signed_message_of_any_kind_never_crashes_a_table = _fuzz(SHORT)
test_a_signed_message_of_any_kind_never_crashes_a_table_long = pytest.mark.slow(_fuzz(LONG))
