"""One fuzz step shared by the Belka and Belot table fuzz tests: an observer replays
a real game's start, then gets a random well-formed message signed by the seat that
is due (right sequence number, hash chain and view, so it reaches the handlers),
and must refuse it or name that seat."""

from __future__ import annotations

from hypothesis import strategies as st

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import Envelope, seal_envelope
from p2pbelka.table import events as ev
from p2pbelka.table import registry
from p2pbelka.table.replay import Replay
from p2pbelka.table.session import Phase, Table
from tests.protocol.strategies import BY_TYPE, MESSAGES


def forge_after(game: LocalGame, transcript: list[Envelope], cut: int, data: st.DataObject) -> None:
    table = Table(game.game_id)
    replay = Replay(table)
    for envelope in transcript[:cut]:
        replay.feed(envelope)
    seat = table.view.turn
    if seat is None:
        return
    # mostly a message of the type the phase expects, so it reaches the handlers
    step = registry.schedule(game.game).steps[table.state.phase]
    expected = sorted(step.accepts)
    likely = st.one_of(*(BY_TYPE[t] for t in expected)) if expected else MESSAGES
    msg = data.draw(st.one_of(likely, likely, likely, MESSAGES))
    deal = 0 if step.before_deals else table.state.deal_id
    seq, head = table.view.wants()[seat], table.state.chains.intake.heads()[seat]
    forged = seal_envelope(
        game.signers[seat], game.game_id, deal, seq, head, msg, table.view.accepted()
    )
    table.receive(forged.raw)
    events = table.take_events()
    if len(table.view.transcript) != cut + 1:
        assert any(isinstance(e, ev.Rejected) and e.seat == seat for e in events)
    elif table.state.phase is Phase.ABORTED:
        # a seat may end the game naming others, but never prove them at fault
        assert all(f.seat in (seat, -1) for f in table.view.faults if f.proven)
