"""Ratings beside the names in a lobby: each seated player's from this machine's ledger,
nothing for a key it does not know, read in a worker thread once for each change of who
sits (saying ready reads nothing again), and no ledger made where there was none."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import trio

from p2pbelka.bench.ladder import club, member_seed
from p2pbelka.ladder import ledger as ledger_module
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.ratings import ladder
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.lan import NetOptions
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui import ladder as ui_ladder
from p2pbelka.ui.ladder import lobby_ratings
from p2pbelka.ui.lan import LanSession
from p2pbelka.ui.words.i18n import set_language
from p2pbelka.ui.words.lobbylog import LobbyPrinter, event_line, rating_word

MEMBERS = [Identity.from_seed(member_seed(4, n)).public_key for n in range(12)]
STRANGER = Identity.from_seed(b"\x07" * 32).public_key


def _ledger(home: Path) -> dict[bytes, float]:
    """A ledger of 60 Belka games in ``home``; every member's rating in it."""
    with Ledger(home / "ladder.sqlite") as ledger:
        for c in club(60, 4):
            ledger.add(c.raw, "given")
        return {r.keys[0]: r.rating for r in ladder(ledger.results("belka"))}


def _state(keys: list[bytes], ready: bool = False) -> LobbyState:
    seats = tuple(SeatView(k, f"player {n}", ready) for n, k in enumerate(keys))
    return LobbyState(bytes(16), "Kitchen", "classic", {}, seats, "belka")


async def test_the_seated_players_ratings_and_nothing_for_a_stranger(tmp_path: Path) -> None:
    rated = _ledger(tmp_path)
    seated = [*MEMBERS[:3], STRANGER]
    found = await lobby_ratings(tmp_path, "belka", seated)
    assert found == {k: rated[k] for k in MEMBERS[:3]}
    assert await lobby_ratings(tmp_path, "belot", seated) == {}  # no Belot game counted


async def test_no_ledger_no_ratings_and_none_made(tmp_path: Path) -> None:
    assert await lobby_ratings(tmp_path, "belka", MEMBERS[:4]) == {}
    assert not (tmp_path / "ladder.sqlite").exists()


async def test_a_ledger_that_cannot_be_read_now_gives_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ledger(tmp_path)
    db = sqlite3.connect(tmp_path / "ladder.sqlite")
    db.execute("BEGIN EXCLUSIVE")  # another program writing it: a read waits, then fails
    monkeypatch.setattr(ledger_module, "BUSY_WAIT", 0.01)
    assert await lobby_ratings(tmp_path, "belka", MEMBERS[:4]) == {}
    db.rollback()
    assert len(await lobby_ratings(tmp_path, "belka", MEMBERS[:4])) == 4


def test_the_lobby_reads_once_for_each_change_of_who_sits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rated = _ledger(tmp_path)
    reads: list[tuple[bytes, ...]] = []
    real = ui_ladder.seat_ratings

    def counted(games: Path, game: str, keys: tuple[bytes, ...]) -> dict[bytes, float]:
        reads.append(keys)
        return real(games, game, keys)

    monkeypatch.setattr(ui_ladder, "seat_ratings", counted)
    session = LanSession("host", Identity.generate("Asel"), NetOptions(home=tmp_path), game="belka")

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            session._nursery = nursery
            await session.on_lobby(lan.SeatsChanged(_state(MEMBERS[:2]), 0))
        assert session.lobby.ratings == {k: rated[k] for k in MEMBERS[:2]}
        async with trio.open_nursery() as nursery:
            session._nursery = nursery
            await session.on_lobby(lan.SeatsChanged(_state(MEMBERS[:2], ready=True), 0))
            await session.on_lobby(lan.SeatsChanged(_state([*MEMBERS[:2], STRANGER]), 0))

    trio.run(main)
    assert reads == [tuple(MEMBERS[:2]), (*MEMBERS[:2], STRANGER)]
    assert session.lobby.ratings == {k: rated[k] for k in MEMBERS[:2]}


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
def test_the_text_mode_seats_line_says_each_known_rating(tmp_path: Path, lang: str) -> None:
    set_language(lang)
    rated = _ledger(tmp_path)
    printer = LobbyPrinter(tmp_path)
    state = _state([MEMBERS[0], STRANGER])
    trio.run(printer._rate, state)
    line = event_line(lan.SeatsChanged(state, 0), printer._ratings)
    assert line is not None and rating_word(rated[MEMBERS[0]]) in line
    assert line.count(rating_word(0.0).split()[0]) == 1, line  # none for the stranger
