"""A seat killed during the closing exchange resumes from its files.

Every peer passes another seat's close on to every seat the first time it comes.
A seat whose transcript held such a close (killed after it was written, before
the game was over for it) could not replay its own files: the close, relayed
again while replaying, waited in the outbox, and the runner lets its own sends
out before it processes more, so the replay stopped there ("not accepted").  The
files a kill leaves are the transcript up to a record, so each prefix that ends
with a close is one such kill, at the exact point."""

from __future__ import annotations

import pytest

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol import messages as m
from p2pbelka.table.session import Table
from tests.table.helpers import play_sync, short_seed

GAMES = [("belka", 4), ("belot", 3), ("belot", 2)]


@pytest.mark.parametrize(("game", "players"), GAMES, ids=lambda c: str(c))
def test_a_seat_killed_after_any_close_resumes(game: str, players: int) -> None:
    # a short game: every seat resumes each prefix that ends with a close, replaying it
    seed = short_seed((game, players))
    tables, _ = play_sync(seed, game_name=game, players=players)
    assert all(t.finished for t in tables)
    for seat, table in enumerate(tables):
        transcript = list(table.view.transcript)
        kills = [k for k, e in enumerate(transcript, 1) if isinstance(e.msg, m.CloseMsg)]
        assert len(kills) == players, f"seat {seat} holds every seat's close"
        for kill in kills:
            fresh = LocalGame.seeded(seed, game=game, players=players)
            assert fresh.seed_sources is not None
            resumed = Table.resume(
                fresh.signers[seat], transcript[:kill], seed_source=fresh.seed_sources[seat]
            )
            assert list(resumed.view.transcript) == transcript[:kill], (seat, kill)
