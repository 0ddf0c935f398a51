"""Belot on the LAN: two or three peers meet in a host's lobby and play a whole game.

In one process over loopback sockets (trio tasks), and as OS processes through
``p2pbelka host --game belot`` and ``join``, with a seat killed and resumed.
Bots play; every process has a deadline; the transcripts must agree and verify.
"""

from __future__ import annotations

import re
import time
from functools import partial
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import LobbyEvent, LobbyRefused, NetOptions, TableOpen, host_game, join_game
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.table.verify import verify_bytes
from tests.lan.helpers import Peer, PeerSet, bot_args, verify

GAME_TIMEOUT = 120.0


SHORT_GAMES = {2: 10, 3: 6}
"""A seed per count of seats whose whole game is among the shortest of the first
dozen (a seeded game is the same each time): about a fifth shorter than seed 5's."""


@pytest.mark.parametrize("players", [2, 3])
async def test_a_loopback_belot_table_plays_a_whole_game(tmp_path: Path, players: int) -> None:
    results = await loopback_table(
        BotFrontEnd(make_bot("random", 1)),
        ["random"] * (players - 1),
        seed=SHORT_GAMES[players],
        transcript_dir=tmp_path,
        game="belot",
    )
    assert [r.seat for r in results] == list(range(players))
    assert all(r.finished and not r.aborted for r in results)
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1, "every peer saved the same transcript"
    data = files.pop()
    report = verify_bytes(data)
    assert report.ok, report.verdict
    assert b"belot" in results[0].transcript[0].raw  # the table message names the game


def _start_belot(peers: PeerSet, players: int, *extra: str) -> tuple[Peer, list[Peer]]:
    game = ("--game", "belot", "--players", str(players))
    host = peers.spawn("host", "host", "--auto-approve", "--no-announce", *game, *bot_args(*extra))
    port = host.wait_for(r"lobby port (\d+)", 20).group(1)
    joiners = [
        peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bot_args(*extra))
        for n in range(1, players)
    ]
    return host, joiners


def _check_whole_game(everyone: list[Peer], joiners: list[Peer], players: int) -> None:
    """Every seat finished, one transcript that verifies, each joiner read the game and
    its rules before it sat down, the host's seat told the end."""
    stats = [p.stats() for p in everyone]
    assert sorted(s["seat"] for s in stats) == list(range(players))
    assert all(s["finished"] and s["deals"] > 0 for s in stats)
    data = {Path(s["transcript"]).read_bytes() for s in stats}
    assert len(data) == 1, "the transcripts differ"
    assert verify(Path(stats[0]["transcript"])).startswith("OK")
    for joiner in joiners:
        text = joiner.text()
        shown = text.index(f"table: Belot for {players}; rules: classic")
        assert shown < text.index("(you: seat")
    assert re.search(r"game over: .+ wins?; score: ", everyone[0].text()), everyone[0].dump()
    assert "Traceback" not in "".join(p.log() for p in everyone)


def test_belot_processes_play_a_whole_game(tmp_path: Path) -> None:
    """Two processes; three are in the next test, with a seat killed and resumed."""
    with PeerSet(tmp_path) as peers:
        host, joiners = _start_belot(peers, 2)
        everyone = [host, *joiners]
        codes = peers.wait(everyone, GAME_TIMEOUT)
        assert codes == [0, 0], "\n".join(p.dump() for p in everyone)
        _check_whole_game(everyone, joiners, 2)


def _belot_bytes(peer: Peer) -> int:
    files = list(peer.home.glob("games/*/transcript.p2pb"))
    return files[0].stat().st_size if files else 0


def test_a_killed_belot_peer_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    """Three processes play a whole game, a seat killed in the first deals and resumed."""
    with PeerSet(tmp_path) as peers:
        host, joiners = _start_belot(peers, 3)
        everyone = [host, *joiners]
        victim = joiners[1]
        seat = victim.seat()
        deadline = time.monotonic() + 60
        while _belot_bytes(victim) < 8_000:  # in the first deals: a game can end early
            assert time.monotonic() < deadline and victim.proc.poll() is None, victim.dump()
            time.sleep(0.02)
        victim.kill()
        back = peers.spawn("resumed", "resume", *bot_args(), home=victim.home)
        everyone[2] = back
        codes = peers.wait(everyone, GAME_TIMEOUT)
        assert codes == [0, 0, 0], "\n".join(p.dump() for p in everyone)
        assert "resuming game" in back.text() and back.stats()["seat"] == seat
        # the checks of a whole game of three processes, made on this one (one transcript
        # that verifies; the killed joiner read the rules too, before it first sat down)
        _check_whole_game(everyone, joiners, 3)


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--game", "belot", "--players", "4"], "Belot is played by 2 or 3, not 4"),
        (["--players", "3"], "Belka is played by 4, not 3"),
        (["--game", "belot", "--preset", "eyes"], "Belot has no preset 'eyes'"),
        (["--game", "belot", "--option", "eggs=double"], "unknown option 'eggs'"),
    ],
)
def test_host_refuses_a_table_the_game_is_not_played_as(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from p2pbelka.cli.main import main

    assert main(["host", "--auto-approve", "--no-announce", *argv]) == 2
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err


def test_host_refuses_a_bot_level_belot_has_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from p2pbelka.cli.main import main

    monkeypatch.setenv("P2PBELKA_HOME", str(tmp_path))
    argv = ["host", "--auto-approve", "--no-announce", "--game", "belot", "--bot", "strong+"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "unknown bot level 'strong+'" in err and "Traceback" not in err


async def test_a_bot_joiner_sits_only_where_the_game_has_its_level(tmp_path: Path) -> None:
    """A joiner's ``--bot`` is read before it knows the game: at a Belot table, ``strong+``
    (Belka's only) is refused in the lobby, before the joiner sits down."""
    host = Identity.generate("host")
    opened = trio.Event()
    ports: list[int] = []

    def net(name: str) -> NetOptions:
        return NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path / name)

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            ports.append(event.lobby_port)
            opened.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            partial(
                host_game,
                host,
                "Belot table",
                BotFrontEnd(make_bot("random", 0)),
                net=net("host"),
                on_lobby=on_lobby,
                game="belot",
                players=2,
            )
        )
        await opened.wait()
        with pytest.raises(LobbyRefused, match=re.escape("unknown bot level 'strong+'")):
            await join_game(
                Identity.generate("joiner"),
                "127.0.0.1",
                ports[0],
                BotFrontEnd(make_bot("strong+")),
                host_key=host.public_key,
                net=net("joiner"),
                bot="strong+",
            )
        nursery.cancel_scope.cancel()
