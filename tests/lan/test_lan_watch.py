"""``p2pbelka watch`` as OS processes over loopback, beside a game of four processes:
two watchers in text mode (one from the start, one from the middle of the game), one
killed mid-game and one that floods.  The game goes on as without them, and every
file a watcher keeps verifies as the seats' does."""

from __future__ import annotations

from pathlib import Path

from tests.lan.helpers import PeerSet, bot_args, transcript_of, verify, wait_for_bytes

GAME_TIMEOUT = 120.0


def test_watchers_follow_a_lan_game_of_four_processes(tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        name = ("--name", "Kitchen table")
        host = peers.spawn("host", "host", "--auto-approve", *name, "--no-announce", *bot_args())
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        early = peers.spawn("early", "watch", "--text", "--connect", f"127.0.0.1:{port}")
        killed = peers.spawn("killed", "watch", "--text", "--connect", f"127.0.0.1:{port}")
        flood = peers.spawn("flood", f"127.0.0.1:{port}", module="tests.lan.watchflood")
        early.wait_for(r"watch(ing)?: ", 30)
        joiners = [
            peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bot_args())
            for n in range(1, 4)
        ]
        everyone = [host, *joiners]
        wait_for_bytes(killed, 20_000, 60)  # the first deal is under way
        killed.kill()
        late = peers.spawn("late", "watch", "--text", "--connect", f"127.0.0.1:{port}")
        codes = peers.wait(everyone, GAME_TIMEOUT)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        watchers = [early, late]
        assert peers.wait(watchers, GAME_TIMEOUT) == [0, 0], "\n".join(p.dump() for p in watchers)
        peers.wait([flood], 30)

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
        assert "game started" in early.text()  # it was there before the first deal
        partial = transcript_of(killed)
        assert 0 < len(partial.read_bytes()) < len(game)
        assert game.startswith(partial.read_bytes())  # what it was fed, as the host has it
        assert verify(partial).startswith("INCOMPLETE")
        assert "watching" in flood.text() and "cut off" in flood.text(), flood.dump()
        assert "Traceback" not in "".join(p.log() for p in everyone)
        listing = peers.spawn("games", "games", "--dir", str(early.home / "games"))
        peers.wait([listing], 30)
        assert "watched" in listing.text(), listing.dump()
