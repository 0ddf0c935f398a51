"""No envelope a seated Belot peer can sign makes a table raise (as test_table_fuzz for
Belka): an observer replays a real Belot game's start, then gets a random well-formed
message from the seat that is due, and must refuse it or name the seat."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import Envelope, seal_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.games import SCHEDULES
from p2pbelka.table.session import Phase, Table
from tests.protocol.strategies import BY_TYPE, MESSAGES
from tests.table.helpers import play_sync

SEED = 61
PLAYERS = 3
CUT = 200


@pytest.fixture(scope="module")
def transcript() -> list[Envelope]:
    tables, _ = play_sync(SEED, game_name="belot", players=PLAYERS)
    return list(tables[0].transcript[:CUT])


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(1, CUT - 1), data=st.data())
def test_a_signed_message_of_any_kind_never_crashes_a_belot_table(
    transcript: list[Envelope], cut: int, data: st.DataObject
) -> None:
    game = LocalGame.seeded(SEED, game="belot", players=PLAYERS)
    table = Table(game.game_id)
    for envelope in transcript[:cut]:
        table.replay(envelope)
    seat = table.turn
    if seat is None:
        return
    step = SCHEDULES["belot"].steps[table.phase]
    expected = sorted(step.accepts)
    likely = st.one_of(*(BY_TYPE[t] for t in expected)) if expected else MESSAGES
    msg = data.draw(st.one_of(likely, likely, likely, MESSAGES))
    deal = 0 if step.before_deals else table.deal_id
    seq, head = table.wants()[seat], table.chain_heads()[seat]
    view = table.view()
    forged = seal_envelope(game.signers[seat], game.game_id, deal, seq, head, msg, view)
    table.receive(forged.raw)
    events = table.take_events()
    if len(table.transcript) != cut + 1:
        assert any(isinstance(e, ev.Rejected) and e.seat == seat for e in events)
    elif table.phase is Phase.ABORTED:
        # a seat may end the game naming others, but never prove them at fault
        assert all(f.seat in (seat, -1) for f in table.faults if f.proven)
