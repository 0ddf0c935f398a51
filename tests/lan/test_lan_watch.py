"""``p2pbelka watch`` as OS processes over loopback, beside a game of four processes:
two watchers in text mode (one from the start, one from the middle of the game), one
killed mid-game and one that floods.  The game goes on as without them, and every
file a watcher keeps verifies as the seats' does.

One seat is a person in text mode (the test types the first choice offered), so the
game waits for it while the second watcher comes in: a game of bots alone may be
over before a process has started."""

from __future__ import annotations

import re
from pathlib import Path

from tests.lan.helpers import PeerSet, transcript_of, verify, watched_table, when

GAME_TIMEOUT = 240.0


def test_watchers_follow_a_lan_game_of_four_processes(tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        table = watched_table(peers)
        host, early, joiners, typist, lobby = (
            table.host, table.watcher, table.joiners, table.typist, table.lobby
        )  # fmt: skip
        # in while the game waits for the person's first choice (nobody typed it yet)
        killed = peers.spawn("killed", "watch", "--text", *lobby)
        flood = peers.spawn("flood", f"127.0.0.1:{table.port}", module="tests.lan.watchflood")
        everyone = [host, *joiners]

        def killed_file() -> Path:
            return transcript_of(killed)

        grown = when(lambda: killed_file().exists() and killed_file().stat().st_size > 20_000)
        typist.until(grown, "the first deal", GAME_TIMEOUT, killed)
        killed.kill()  # mid-game; the game waits for the person's next card meanwhile
        late = peers.spawn("late", "watch", "--text", *lobby)
        late.wait_for(r"game started", 60)  # it caught up on the game so far
        over = when(lambda: all(p.proc.poll() is not None for p in everyone))
        typist.until(over, "the game's end", GAME_TIMEOUT, host)
        codes = peers.wait(everyone, 30)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        watchers = [early, late]
        assert peers.wait(watchers, 60) == [0, 0], "\n".join(p.dump() for p in watchers)
        peers.wait([flood], 60)

        seats = {Path(p.stats()["transcript"]).read_bytes() for p in everyone}
        assert len(seats) == 1, "the four transcripts differ"
        game = seats.pop()
        assert verify(Path(host.stats()["transcript"])).startswith("OK")
        for watcher in watchers:
            saved = transcript_of(watcher)
            assert saved.read_bytes() == game, watcher.dump()  # the host's, byte for byte
            assert verify(saved).startswith("OK")
            text = watcher.text()
            assert "verified: the shuffle was fair and every card checked" in text
            assert "the game's verdict: OK" in text and " plays " in text
            assert "Traceback" not in watcher.log()
        assert early.text().index("watching: ") < early.text().index("game started")
        assert re.search(r"\d watching: .*Wall \[", host.text()), host.dump()  # the host's list
        partial = killed_file().read_bytes()
        assert 20_000 < len(partial) < len(game)
        assert game.startswith(partial)  # what it was fed, as the host has it
        assert verify(killed_file()).startswith("INCOMPLETE")
        assert "watching" in flood.text() and "cut off" in flood.text(), flood.dump()
        assert "Traceback" not in "".join(p.log() for p in everyone)
        listing = peers.spawn("games", "games", "--dir", str(early.home / "games"))
        peers.wait([listing], 30)
        assert "watched, not played: finished" in listing.text(), listing.dump()
