"""A game id is used once on a machine: a host that reuses the id of a game a joiner
played before is refused by the joiner before it sits (and so before it signs
anything), since a place is judged by (game id, seat, seq) and the joiner's old
envelopes would count again; its old game's files are never opened for the new one."""

from __future__ import annotations

import re
import shutil
from functools import partial
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import LobbyEvent, LobbyRefused, NetOptions, TableOpen, host_game, join_game
from p2pbelka.peer.loopback import loopback_table, seat_home
from p2pbelka.peer.store import id_used_reason, known_game

VICTIM = 1


async def _played(tmp_path: Path, game: str, players: int) -> tuple[bytes, Path, Identity]:
    """A whole game played: its id, the victim's home and identity."""
    victim = Identity.generate("victim")
    identities = [Identity.generate("host"), victim, *(Identity.generate("o") for _ in range(2))]
    results = await loopback_table(
        BotFrontEnd(make_bot("random", 1)),
        ["random"] * (players - 1),
        seed=7,
        transcript_dir=tmp_path / "first",
        game=game,
        identities=identities[:players],
    )
    assert all(r.finished for r in results)
    home = seat_home(tmp_path / "first", VICTIM)
    (directory,) = [d for d in (home / "games").iterdir() if d.is_dir()]
    return bytes.fromhex(directory.name), home, victim


async def _join_reused(tmp_path: Path, game: str, players: int, *, moved: bool) -> None:
    game_id, home, victim = await _played(tmp_path, game, players)
    old = home / "games" / game_id.hex()
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    if moved:  # the old game's directory moved aside: the id is still known
        shutil.move(old, tmp_path / "aside")
    assert known_game(game_id, home)
    attacker = Identity.generate("attacker")
    opened = trio.Event()
    ports: list[int] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            ports.append(event.lobby_port)
            opened.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            partial(
                host_game,
                attacker,
                "Same id again",
                BotFrontEnd(make_bot("random", 0)),
                net=NetOptions(
                    listen_host="127.0.0.1",
                    announce=False,
                    home=tmp_path / "attacker",
                    game_id=game_id,  # the victim's earlier game's id
                ),
                on_lobby=on_lobby,
                game=game,
                players=players,
            )
        )
        await opened.wait()
        with pytest.raises(LobbyRefused, match=re.escape(id_used_reason(game_id))):
            await join_game(
                victim,
                "127.0.0.1",
                ports[0],
                BotFrontEnd(make_bot("random", 2)),
                host_key=attacker.public_key,
                net=NetOptions(listen_host="127.0.0.1", announce=False, home=home),
            )
        nursery.cancel_scope.cancel()
    where = tmp_path / "aside" if moved else old
    assert {p.name: p.read_bytes() for p in where.iterdir()} == before, "old files touched"
    assert not moved or not old.exists(), "a directory was made for the reused id"


@pytest.mark.parametrize(("game", "players"), [("belka", 4), ("belot", 2)])
async def test_a_host_reusing_the_victims_game_id_is_refused_before_it_sits(
    tmp_path: Path, game: str, players: int
) -> None:
    await _join_reused(tmp_path, game, players, moved=False)


async def test_the_id_of_a_game_moved_aside_is_still_refused(tmp_path: Path) -> None:
    await _join_reused(tmp_path, "belot", 2, moved=True)
