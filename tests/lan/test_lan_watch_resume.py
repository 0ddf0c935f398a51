"""A host's program killed mid-game and resumed, twice, while ``watch --text`` processes
follow it over loopback: the resumed host reopens its lobby on the port it had, the
watcher that was following comes back and is fed exactly the rest, a watcher that
comes only after a resume catches up on the whole game, and both files are the
host's transcript byte for byte and verify OK.

One seat is a person in text mode (the test types the first choice offered), so the
game waits for that seat while the host is away and while a watcher comes in."""

from __future__ import annotations

import re
from pathlib import Path

from tests.lan.helpers import (
    Peer,
    PeerSet,
    Typist,
    bot_args,
    transcript_of,
    verify,
    when,
)

GAME_TIMEOUT = 240.0


def _records(peer: Peer) -> int:
    """The records the watcher says it kept when its feed was lost last."""
    kept = re.findall(r"(\d+) records? kept", peer.text())
    return int(kept[-1]) if kept else -1


def test_a_resumed_host_takes_its_watchers_back(tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        name = ("--name", "Kitchen table")
        host = peers.spawn("host", "host", "--auto-approve", *name, "--no-announce", *bot_args())
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        lobby = ("--connect", f"127.0.0.1:{port}")
        early = peers.spawn("early", "watch", "--text", *lobby, "--name", "Wall")
        early.wait_for(r"watching: ", 30)
        person = ("--text", "--player", "Person", "--stats", "--listen", "127.0.0.1")
        joiners = [peers.spawn("joiner1", "join", *lobby, *person, typed=True)]
        joiners += [peers.spawn(f"joiner{n}", "join", *lobby, *bot_args()) for n in (2, 3)]
        typist = Typist(joiners[0])
        home = host.home

        def grown(size: int) -> bool:
            file = transcript_of(early)
            return file.exists() and file.stat().st_size > size

        for n, size in enumerate((12_000, 40_000), 1):
            typist.until(when(lambda size=size: grown(size)), f"{size} bytes", GAME_TIMEOUT, early)
            host.kill()  # mid-game; the game waits for the person's next card meanwhile
            early.wait_for(r"The host is away: waiting up to 120 s", 60)
            host = peers.spawn(f"resumed{n}", "resume", *bot_args(), home=home)
            host.wait_for(rf"the lobby is open to watchers again on port {port}\b", 60)
            if n == 1:
                late = peers.spawn("late", "watch", "--text", *lobby)
                late.wait_for(r"game started", 60)  # it caught up on the game so far

        everyone = [host, *joiners]
        over = when(lambda: all(p.proc.poll() is not None for p in everyone))
        typist.until(over, "the game's end", GAME_TIMEOUT, host)
        codes = peers.wait(everyone, 30)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        watchers = [early, late]
        assert peers.wait(watchers, 60) == [0, 0], "\n".join(p.dump() for p in watchers)

        game = host.transcript().read_bytes()
        assert verify(host.transcript()).startswith("OK")
        assert {p.transcript().read_bytes() for p in joiners} == {game}
        for watcher in watchers:
            saved = transcript_of(watcher)
            assert saved.read_bytes() == game, watcher.dump()  # nothing skipped or twice
            assert verify(saved).startswith("OK")
            assert "the game's verdict: OK" in watcher.text()
            assert "Traceback" not in watcher.log()
        text = early.text()
        # it came back twice, each time from the records it held
        again = [int(k) for k in re.findall(r"following again from record (\d+)", text)]
        assert len(again) == 2 and again[0] < again[1], early.dump()
        assert _records(early) == again[1]
        assert "Traceback" not in "".join(p.log() for p in everyone)
