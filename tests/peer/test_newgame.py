"""The start of a new game at one seat (``peer/newgame.py``), shared by the host, a
joiner and a table seated up front: each seat's files, table and meta, for every game
and seat count the tables take."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer.lan.events import GameStarting
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.newgame import Seating, host_seat, join_seat
from p2pbelka.peer.seat import NetOptions, signer_of
from p2pbelka.peer.store import GameIdUsed, GameStore

TABLES = [("belka", 4), ("belot", 3), ("belot", 2)]


def _table(game: str, players: int) -> tuple[list[Identity], LocalGame]:
    ids = [Identity.from_seed(bytes([seat + 1]) * 32, f"P{seat}") for seat in range(players)]
    local = LocalGame([signer_of(i) for i in ids], [i.name for i in ids], "classic", {}, game=game)
    return ids, local


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_every_seat_starts_the_same_game_from_the_hosts_description(
    game: str, players: int, tmp_path: Path
) -> None:
    ids, local = _table(game, players)
    setup = local.setup()
    peers = [(f"10.0.0.{seat}", 7000 + seat) for seat in range(players)]
    nets = [NetOptions(home=tmp_path / f"seat{seat}", sync=False) for seat in range(players)]

    def seating(seat: int) -> Seating:
        return Seating(local.game_id, setup, peers, 7000 + seat, None, "Kitchen")

    host = host_seat(ids[0], nets[0], seating(0))
    described = host.table.view.transcript[0].raw
    # the host's description is on its disk before anyone else has it
    assert [e.raw for e in host.store.saved_signed()] == [described]
    seats = [host] + [
        join_seat(ids[s], nets[s], seating(s), local.nonces[s], described)
        for s in range(1, players)
    ]
    assert [new.seat for new in seats] == list(range(players))
    for seat, new in enumerate(seats):
        assert new.table.game_id == local.game_id
        assert new.table.view.transcript[0].raw == described
        saved = GameStore(new.store.directory).load_meta()
        assert saved == new.meta
        assert (saved.seat, saved.peers, saved.listen_port) == (seat, peers, 7000 + seat)
        assert saved.table_name == "Kitchen"
        starting = GameStarting.of(new, 7000 + seat)
        assert starting == GameStarting(
            local.game_id,
            seat,
            tuple(i.name for i in ids),
            tuple(fingerprint(i.public_key) for i in ids),
            7000 + seat,
        )


def test_a_seat_never_starts_a_game_under_an_id_its_machine_kept(tmp_path: Path) -> None:
    ids, local = _table("belot", 2)
    seating = Seating(local.game_id, local.setup(), [("", 1), ("", 2)], 1, None, "t")
    net = NetOptions(home=tmp_path, sync=False)
    described = host_seat(ids[0], net, seating).table.view.transcript[0].raw
    with pytest.raises(GameIdUsed):
        join_seat(ids[1], net, seating, local.nonces[1], described)
