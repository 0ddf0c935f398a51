"""A table of known seats over loopback TCP without a lobby (``tests/peer/meshtable.py``):
whole Belot games between bot peers on the real mesh, each peer with its own keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.peer.meshtable import mesh_table, seeded_identities


@pytest.mark.parametrize("players", [2, 3])
async def test_a_whole_belot_game_over_the_mesh_on_loopback(players: int, tmp_path: Path) -> None:
    names = ["Asel", "Bolat", "Saule"][:players]
    ids, nonces, fresh = seeded_identities(names, 11)
    bots = [BotFrontEnd(make_bot("random", seat)) for seat in range(players)]
    results = await mesh_table(
        ids, bots, game="belot", home=tmp_path, nonces=nonces, fresh_seeds=fresh
    )
    assert [r.seat for r in results] == list(range(players))
    assert all(r.finished and not r.aborted for r in results)
    assert all(r.transcript == results[0].transcript for r in results)
    assert all(r.bytes_sent > 0 for r in results)  # they did talk over sockets
    over = [e for e in bots[0].events if isinstance(e, ev.GameOver)]
    assert over and max(over[0].score) >= 1001
    # each seat kept its game on disk, as after a lobby, and it verifies
    path = tmp_path / "game.transcript"
    with TranscriptWriter(path) as writer:
        for envelope in results[0].transcript:
            writer.append(envelope)
    report = verify_bytes(path.read_bytes())
    assert report.ok and report.names == tuple(names)
    assert all((tmp_path / f"seat{seat}").is_dir() for seat in range(players))


async def test_the_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    games = []
    for run in ("one", "two"):
        ids, nonces, fresh = seeded_identities(["Asel", "Bolat"], 5)
        bots = [BotFrontEnd(make_bot("random", seat)) for seat in range(2)]
        results = await mesh_table(
            ids, bots, game="belot", home=tmp_path / run, nonces=nonces, fresh_seeds=fresh
        )
        games.append([envelope.raw for envelope in results[0].transcript])
    assert games[0] == games[1]
