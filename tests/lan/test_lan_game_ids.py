"""A game id no host chooses, through the real lobby on loopback.  A place is judged by
(game id, seat, seq), so a host that could reuse the id of a game a joiner played
could make the joiner's old envelopes count again.  The id is derived from every
seat's fresh nonce (the joiner's comes in its ``hello``), and the joiner checks,
before it sits and so before it signs anything, that the host's ``table`` names the
id its nonces give and carries the joiner's own nonce at its seat: a host that
signs its table under the old id, or puts the old game's nonces in it to derive
that id, is refused, and the joiner's old files are never touched.  A host that
merely names its lobby as the old game was named starts a game of a new id."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.lan.hostlobby import HostLobby
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.peer.seat import signer_of
from p2pbelka.peer.store import GameStore, id_used_reason, known_game, seat_home
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, open_envelope, seal_envelope
from p2pbelka.table import session

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


def _old_nonces(home: Path, game_id: bytes) -> tuple[bytes, ...]:
    """The old game's nonces, as anyone who saw its first record knows them."""
    opening = GameStore(home / "games" / game_id.hex()).saved_transcript()[0].msg
    assert isinstance(opening, m.TableMsg)
    return opening.nonces


async def _join_a_hostile_host(
    tmp_path: Path, game: str, players: int, *, moved: bool = False, aim: str
) -> str:
    """The victim joins a host that aims at its old game's id (``aim``: "sign" its table
    under it; "derive" it, with the old nonces in the table; "name" its lobby after
    it, and play honestly); what the victim's ``join_game`` says (it may be refused)."""
    game_id, home, victim = await _played(tmp_path, game, players)
    old = home / "games" / game_id.hex()
    before = {p.name: p.read_bytes() for p in old.iterdir()}
    nonces = _old_nonces(home, game_id)
    if moved:  # the old game's directory moved aside: its id is still known
        shutil.move(old, tmp_path / "aside")
    assert known_game(game_id, home)
    attacker = Identity.generate("attacker")
    opened = trio.Event()
    ports: list[int] = []
    said = ""

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            ports.append(event.lobby_port)
            opened.set()

    with pytest.MonkeyPatch.context() as patch:
        if aim == "sign":  # the host signs its table again, under the old id
            honest_start = HostLobby.start

            async def forged_start(lobby: HostLobby, table_raw: bytes) -> None:
                table = open_envelope(table_raw)
                forged = seal_envelope(signer_of(attacker), game_id, 0, 0, ZERO_HASH, table.msg)
                await honest_start(lobby, forged.raw)

            patch.setattr(HostLobby, "start", forged_start)
        elif aim == "derive":  # the old game's nonces in the new table
            honest = lb.SeatingPlan.setup
            patch.setattr(
                lb.SeatingPlan, "setup", lambda plan: replace(honest(plan), nonces=nonces)
            )
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
                        table_id=game_id,  # the lobby named as the victim's old game
                        give_up_after=5,
                    ),
                    on_lobby=on_lobby,
                    game=game,
                    players=players,
                )
            )
            await opened.wait()
            seated = trio.Event()

            async def victim_events(event: LobbyEvent) -> None:
                if isinstance(event, SeatsChanged) and event.me is not None:
                    seated.set()

            async def join_victim() -> None:
                nonlocal said
                try:
                    result = await join_game(
                        victim,
                        "127.0.0.1",
                        ports[0],
                        BotFrontEnd(make_bot("random", 2)),
                        host_key=attacker.public_key,
                        net=NetOptions(listen_host="127.0.0.1", announce=False, home=home),
                        on_lobby=victim_events,
                    )
                except LobbyRefused as exc:
                    said = str(exc)
                else:
                    assert result.finished and result.game_id != game_id
                    assert not any(r for r in result.transcript if r.game == game_id)
                    said = "played"
                nursery.cancel_scope.cancel()

            async def join_filler(n: int) -> None:
                # the table's other seats: fresh players of their own (they refuse a
                # forged table too, and play an honest one)
                try:
                    await join_game(
                        Identity.generate(f"other {n}"),
                        "127.0.0.1",
                        ports[0],
                        BotFrontEnd(make_bot("random", 3 + n)),
                        host_key=attacker.public_key,
                        net=NetOptions(
                            listen_host="127.0.0.1", announce=False, home=tmp_path / f"o{n}"
                        ),
                    )
                except LobbyRefused:
                    pass

            nursery.start_soon(join_victim)
            await seated.wait()  # seat 1 is the victim's
            for n in range(2, players):
                nursery.start_soon(join_filler, n)
    where = tmp_path / "aside" if moved else old
    assert {p.name: p.read_bytes() for p in where.iterdir()} == before, "old files touched"
    assert not moved or not old.exists(), "a directory was made for the old id"
    return said


@pytest.mark.parametrize(("game", "players"), [("belka", 4), ("belot", 2)])
async def test_a_host_signing_under_the_victims_old_id_is_refused_before_it_sits(
    tmp_path: Path, game: str, players: int
) -> None:
    said = await _join_a_hostile_host(tmp_path, game, players, aim="sign")
    assert "is not the one the seats' nonces give" in said, said


async def test_a_host_deriving_the_old_id_from_the_old_nonces_is_refused(
    tmp_path: Path,
) -> None:
    said = await _join_a_hostile_host(tmp_path, "belot", 2, aim="derive", moved=True)
    assert f"does not carry this seat's nonce at seat {VICTIM}" in said, said


async def test_a_lobby_named_as_the_old_game_plays_a_game_of_a_new_id(tmp_path: Path) -> None:
    said = await _join_a_hostile_host(tmp_path, "belot", 2, aim="name")
    assert said == "played"


def test_a_derived_id_the_joiner_knows_is_refused_before_it_sits(tmp_path: Path) -> None:
    """All but impossible with the joiner's fresh nonce in it, and refused all the
    same: the lobby's last check, on a table that passes every other."""
    from p2pbelka.peer.lan.join import checked_setup
    from p2pbelka.peer.local import LocalGame
    from p2pbelka.protocol.lobby import LobbyState, SeatView, Start

    ids = [Identity.generate("host"), Identity.generate("joiner")]
    local = LocalGame([signer_of(i) for i in ids], ["host", "joiner"], game="belot")
    setup = local.setup()
    host_table = session.Table.host(local.signers[0], setup)
    GameStore.create(local.game_id, tmp_path)  # this machine kept a game under the id
    views = tuple(SeatView(s.key, s.name, True) for s in setup.seats)
    lobby = LobbyState(bytes(16), "t", setup.preset, setup.options, views, "belot")
    start = Start(host_table.view.transcript[0].raw, (("", 1), ("", 2)))
    with pytest.raises(LobbyRefused, match=re.escape(id_used_reason(local.game_id))):
        checked_setup(ids[1], lobby, start, ids[0].public_key, local.nonces[1], tmp_path)
    # the same table, to a joiner that does not know the id: taken
    fresh = tmp_path / "elsewhere"
    taken, game_id = checked_setup(ids[1], lobby, start, ids[0].public_key, local.nonces[1], fresh)
    assert game_id == local.game_id and taken == setup
