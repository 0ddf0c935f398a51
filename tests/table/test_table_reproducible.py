"""What a peer sends before its journal's sync must be what a restart signs again.

A peer waits for the disk only before sending an envelope that a restart could not
sign again byte for byte (``Table.reproducible``).  So for every envelope the table
calls reproducible, a seat that lost it (a power cut before the sync) and resumes
from everything before its place, with the others' envelopes handed back, must sign
exactly the same bytes: anything else would be two envelopes for one place.
"""

from __future__ import annotations

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import pump, run_sync
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import Table
from p2pbelka.table import events as ev
from tests.table.crash import Recorded


def _play(game: LocalGame, victim: int, deals: int) -> tuple[Table, list[Envelope], Recorded]:
    """The first ``deals`` deals; what ``victim`` signed that its table calls
    reproducible, and its seed source's record."""
    assert game.seed_sources is not None
    recorded = Recorded(game.seed_sources[victim])
    game.seed_sources[victim] = recorded
    tables = game.make_tables()
    bots = [make_bot("random", s) for s in range(len(tables))]
    reproducible: list[Envelope] = []

    def until(events: list[list[ev.Event]]) -> bool:
        table = tables[victim]
        reproducible.extend(e for e in table.take_signed() if table.reproducible(e))
        return table.deal_id > deals or table.finished

    run_sync(tables, bots, until=until)
    return tables[victim], reproducible, recorded


@pytest.mark.parametrize(
    ("game", "players", "victim", "seed", "deals"),
    [
        ("belka", 4, 1, 3, 2),
        ("belka", 4, 3, 4, 2),
        ("belot", 3, 2, 5, 2),
        ("belot", 2, 1, 6, 2),
        pytest.param("belka", 4, 2, 7, 1000, marks=pytest.mark.slow),  # whole games
        pytest.param("belot", 3, 1, 8, 1000, marks=pytest.mark.slow),
    ],
)
def test_a_seat_resumed_before_a_reproducible_envelope_signs_it_again_unchanged(
    game: str, players: int, victim: int, seed: int, deals: int
) -> None:
    local = LocalGame.seeded(seed, game=game, players=players)
    table, reproducible, recorded = _play(local, victim, deals)
    kinds = {e.type for e in reproducible}
    assert {"shuffle", "lock", "shares", "reveal", "deal_end"} <= kinds, kinds
    assert "play" in kinds, "no forced card in two deals"
    whole = list(table.transcript)
    key = local.signers[victim].public_key
    bot = make_bot("random", 99)
    for envelope in reproducible:
        place = next(i for i, e in enumerate(whole) if e.digest == envelope.digest)
        # Everything before its place in the canonical order: in a parallel phase,
        # other seats' envelopes of the phase that were accepted after it was signed.
        resumed = Table.resume(
            local.signers[victim], whole[:place], seed_source=recorded.replaying()
        )
        # The others hand back what they hold, ours from its place on excepted (lost).
        for other in whole[place:]:
            if other.sender != key:
                resumed.receive_envelope(other)
        resumed.release()
        pump(resumed, bot, [])
        again = resumed.take_signed()
        assert again, f"nothing signed again for {envelope.type} at seq {envelope.seq}"
        assert again[0].raw == envelope.raw, (
            f"{envelope.type} at seq {envelope.seq} signed differently after a restart"
        )
