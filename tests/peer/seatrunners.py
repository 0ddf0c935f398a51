"""A peer's ``SeatChangeRunner`` on a mesh with no links, for tests that hand it seat-change
messages directly (a fixed configuration: short pauses, a long offer timeout)."""

from __future__ import annotations

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.runner import RunnerOptions, SeatChangeRunner, SeatRecords
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.session import Table


def unlinked_runner(
    table: Table, seat: int, name: str, writer: TranscriptWriter, bot_seed: int
) -> tuple[SeatChangeRunner, Mesh]:
    """``table``'s seat ``seat`` with its seat-change runner, on a mesh that reaches nobody."""
    assert table.state.setup is not None
    keys = [s.key for s in table.state.setup.seats]
    identity = Identity.generate(name)
    mesh = Mesh(
        identity,
        table.game_id,
        seat,
        keys,
        [],
        source=table.view.envelopes_from,
        wants=table.view.wants,
    )
    runner = SeatChangeRunner(
        identity,
        mesh,
        BotFrontEnd(make_bot("random", bot_seed)),
        SeatRecords(writer, journal=None),
        RunnerOptions(pause_after=1.0, give_up_after=5.0, resend_after=1.0, offer_timeout=30.0),
        seed_sources=lambda segment: table.state.deals.seed_source,
        names=[s.name for s in table.state.setup.seats],
    )
    runner.change.strict = True  # an undeclared transition fails the test
    return runner, mesh
