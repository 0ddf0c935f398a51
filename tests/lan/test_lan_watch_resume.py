"""``p2pbelka watch`` as OS processes over loopback, beside a game of four processes
whose host's program is killed mid-game and resumed, twice, in one game.

Watchers: one from before the start, one that comes only after a resume (it catches
up on the whole game), one killed mid-game, one that floods, and one given 3 s for a
host that comes back.  The first time the host is killed it is resumed only once the
watcher given 3 s has stopped (for it the host never came back: one line, exit status
1, its file INCOMPLETE), and it reopens its lobby on the port it had; the second time
its port is taken meanwhile by another program, so it listens on another, its beacons
say which, and the watchers find it there by its key.  The watcher that was following
comes back each time and is fed exactly the rest; the game goes on as without the
watchers; the files of the watchers that stay to the end are the host's transcript
byte for byte and verify OK, the killed one's is the start of it and INCOMPLETE.

A second p2pbelka on a running seat's home (the person's ``resume --text``, the
host's ``resume --bot``, as by a player who forgot the game was open) is refused
before it reads or writes the game: one line naming the program that has it, exit
status 3.  Reading the game meanwhile (``verify``, ``games``) works, and at the end
``games`` says how many deals it had.

One seat is a person in text mode (the test types the first choice offered), so the
game waits for that seat while the host is away and while a watcher comes in: a game
of bots alone may be over before a process has started."""

from __future__ import annotations

import contextlib
import io
import re
import socket
from pathlib import Path

import pytest

from p2pbelka.cli.main import main
from tests.lan.helpers import (
    Peer,
    PeerSet,
    WatchedTable,
    bot_args,
    transcript_of,
    verify,
    watched_table,
    when,
)

GAME_TIMEOUT = 240.0


def _grown(watcher: Peer, size: int) -> bool:
    file = transcript_of(watcher)
    return file.exists() and file.stat().st_size > size


def _kill_host_at(table: WatchedTable, size: int) -> None:
    """Kill the host once the watcher holds ``size`` bytes of the game; the watcher
    says the host is away (the game waits for the person's next card meanwhile)."""
    typist, watcher = table.typist, table.watcher
    typist.until(when(lambda: _grown(watcher, size)), f"{size} bytes", GAME_TIMEOUT, watcher)
    table.host.kill()
    watcher.wait_for(r"The host is away: waiting up to 120 s", 60)


def _to_the_end(peers: PeerSet, table: WatchedTable, watchers: list[Peer]) -> bytes:
    """Play to the end; every file (the seats', the watchers') is the host's transcript,
    which verifies OK: the transcript's bytes."""
    everyone = [table.host, *table.joiners]
    over = when(lambda: all(p.proc.poll() is not None for p in everyone))
    table.typist.until(over, "the game's end", GAME_TIMEOUT, table.host)
    codes = peers.wait(everyone, 30)
    assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
    assert peers.wait(watchers, 60) == [0] * len(watchers), "\n".join(p.dump() for p in watchers)
    game = table.host.transcript().read_bytes()
    assert verify(table.host.transcript()).startswith("OK")
    assert {p.transcript().read_bytes() for p in table.joiners} == {game}
    for watcher in watchers:
        saved = transcript_of(watcher)
        assert saved.read_bytes() == game, watcher.dump()  # nothing skipped or twice
        assert verify(saved).startswith("OK")
        text = watcher.text()
        assert "verified: the shuffle was fair and every card checked" in text
        assert "the game's verdict: OK" in text and " plays " in text
        assert "Traceback" not in watcher.log()
    assert "Traceback" not in "".join(p.log() for p in everyone)
    return game


def _told_watching(seat: Peer) -> list[str]:
    """The lines in which a seat heard the host's seat name the watcher Wall."""
    return re.findall(r"\d watching: [^\n]*Wall", seat.text())


def _comebacks(watcher: Peer) -> list[int]:
    """The records the watcher held each time the host took it back."""
    return [int(k) for k in re.findall(r"following again from record (\d+)", watcher.text())]


def _loopback_beacons() -> tuple[str, ...]:
    """Beacons to loopback on a free port: where the host announces its table, and
    where the watchers listen for it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        beacon = str(probe.getsockname()[1])
    return ("--group", "127.0.0.1", "--beacon-port", beacon)


def _short_watcher_stops(table: WatchedTable, short: Peer, peers: PeerSet) -> None:
    """A watcher given 3 s for the host to come back stops after them, with one line,
    exit status 1 and its file INCOMPLETE, the start of the host's transcript."""
    assert peers.wait([short], 60) == [1], short.dump()  # stopped before the end
    lines = short.text().splitlines()
    assert "The host is away: waiting up to 3 s for it to come back" in short.text()
    stop = [ln for ln in lines if "did not come back" in ln]
    assert len(stop) == 1 and stop[0].startswith("watch: the host did not come back within 3 s")
    assert re.search(r"the watch stops, \d+ records kept$", stop[0]), stop
    assert "the game's verdict: INCOMPLETE" in short.text()
    saved = transcript_of(short)
    assert verify(saved).startswith("INCOMPLETE")
    assert transcript_of(table.host).read_bytes().startswith(saved.read_bytes())


def _refused(peers: PeerSet, name: str, holder: Peer, *args: str) -> str:
    """Run ``p2pbelka ARGS`` with ``holder``'s home; its one line, checked."""
    second = peers.spawn(name, *args, home=holder.home)
    (code,) = peers.wait([second], 60)
    assert code == 3, second.dump()
    lines = second.log().splitlines()
    assert len(lines) == 1, second.dump()
    game = transcript_of(holder).parent.name
    said = re.fullmatch(
        rf"p2pbelka resume: game {game[:12]} is open in another p2pbelka"
        r" \(pid (\d+), `(p2pbelka [^`]*)`, since \d\d:\d\d\): continue it there",
        lines[0],
    )
    assert said, lines[0]
    assert int(said.group(1)) == holder.proc.pid, (said.group(1), holder.proc.pid)
    assert said.group(2).startswith(("p2pbelka host ", "p2pbelka join "))
    assert "resuming game" not in second.text() and "your move" not in second.text()
    return lines[0]


def _run(argv: list[str]) -> tuple[int, str]:
    """``p2pbelka ARGV`` run here, not in a process of its own (what only reads the
    game: another process holds it all the same, and a start-up costs ~0.3 CPU-s):
    its exit status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    return code, out.getvalue()


def _games(directory: Path) -> str:
    """What ``p2pbelka games --dir DIRECTORY`` prints."""
    code, said = _run(["games", "--dir", str(directory)])
    assert code == 0, said
    return said


def _resume(peers: PeerSet, table: WatchedTable, name: str, where: tuple[str, ...]) -> None:
    table.host = peers.spawn(name, "resume", *bot_args(*where), home=table.host.home)


def test_a_host_resumed_twice_takes_back_its_watcher_and_a_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # games' cache, not yours
    where = _loopback_beacons()
    with PeerSet(tmp_path) as peers:
        table = watched_table(peers, where)
        early, typist = table.watcher, table.typist
        named = when(lambda: _told_watching(typist.peer))  # the host's seat named Wall
        typist.until(named, "/watching", GAME_TIMEOUT, table.host)
        # in while the game waits for the person's next choice (nobody typed it yet)
        short = peers.spawn("short", "watch", "--text", *table.lobby, "--host-away", "3")
        killed = peers.spawn("killed", "watch", "--text", *table.lobby)
        flood = peers.spawn("flood", f"127.0.0.1:{table.port}", module="tests.lan.watchflood")
        short.wait_for(r"watching: ", 30)
        assert peers.wait([flood], 60) == [0], flood.dump()  # cut off, each of its rounds
        # the player who forgot the game was open starts it again: refused, the game
        # unharmed; reading it meanwhile works (the game waits for the person)
        _refused(peers, "again", typist.peer, "resume", "--text")
        _refused(peers, "again-bot", table.host, "resume", *bot_args())
        code, said = _run(["verify", str(transcript_of(typist.peer))])
        assert code in (0, 1) and said.strip(), said
        assert "not finished" in _games(typist.peer.home / "games")

        _kill_host_at(table, 12_000)
        told = len(_told_watching(typist.peer))
        _short_watcher_stops(table, short, peers)  # before the host is back
        _resume(peers, table, "resumed1", where)
        table.host.wait_for(rf"lobby is open to watchers again on port {table.port}\b", 60)
        # the resumed host's seat tells the other seats again who watches (SPEC 7.5);
        # checked mid-game only: after the second resume the game may end before the
        # line comes round
        again = when(lambda: len(_told_watching(typist.peer)) > told)
        typist.until(again, "/watching after the resume", GAME_TIMEOUT, table.host)
        late = peers.spawn("late", "watch", "--text", *table.lobby, *where)
        late.wait_for(r"game started", 60)  # it caught up on the game so far
        grown = when(lambda: _grown(killed, 20_000))
        typist.until(grown, "20,000 bytes for the killed watcher", GAME_TIMEOUT, killed)
        killed.kill()  # mid-game; the game waits for the person's next card meanwhile

        _kill_host_at(table, 40_000)
        hog = peers.spawn("hog", "127.0.0.1", table.port, module="tests.lan.porthog")
        hog.wait_for(rf"holding {table.port}", 30)  # another program has the port now
        _resume(peers, table, "resumed2", where)
        moved = table.host.wait_for(r"open to watchers again on port (\d+) \(port (\d+) was", 60)
        assert moved.group(2) == table.port != moved.group(1)
        note = rf"table is announced at 127\.0\.0\.1:{moved.group(1)} now: dialling it there"
        early.wait_for(note, 60)

        game = _to_the_end(peers, table, [early, late])
        again_at = _comebacks(early)  # each time from the records it held
        kept = [int(k) for k in re.findall(r"(\d+) records? kept", early.text())]
        assert len(again_at) == 2 and again_at[0] < again_at[1] and kept == again_at, early.dump()
        assert early.text().index("watching: ") < early.text().index("game started")
        assert re.search(r"\d watching: .*Wall \[", table.host.text()), table.host.dump()
        partial = transcript_of(killed).read_bytes()
        assert 20_000 < len(partial) < len(game)
        assert game.startswith(partial)  # what it was fed, as the host has it
        assert verify(transcript_of(killed)).startswith("INCOMPLETE")
        assert "watching" in flood.text() and "cut off" in flood.text(), flood.dump()
        listing = _games(early.home / "games")
        assert "watched, not played: finished" in listing, listing
        listed = _games(typist.peer.home / "games")
        assert f"finished ({typist.peer.stats()['deals']} deal" in listed, listed
        assert "INVALID" not in listed
