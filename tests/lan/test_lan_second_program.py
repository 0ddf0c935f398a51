"""A second p2pbelka on a running seat's home is refused, and the game is unharmed.

Four peer processes play; one seat is a person in text mode, so the game waits for
them while the test, as the player who forgot the game was open, types
``p2pbelka resume --text`` with that seat's home, and ``resume --bot`` with a bot
seat's.  Each is refused before it reads or writes the game: one line naming the
program that has it, exit status 3.  Reading the game meanwhile (``verify``,
``games``) works.  The game then finishes, every seat's transcript the same and
verified OK, and ``games`` says how many deals it had.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from p2pbelka.cli.main import main
from tests.lan.helpers import Peer, PeerSet, Typist, bot_args, transcript_of, verify, when

PERSON = ["--text", "--player", "Person", "--quiet", "--stats", "--listen", "127.0.0.1"]


def _table(peers: PeerSet) -> tuple[Peer, Peer, list[Peer]]:
    """A bot host, a person (seat chosen by the lobby) and two bots, by address."""
    name = ("--name", "Kitchen table")
    host = peers.spawn("host", "host", "--auto-approve", *name, "--no-announce", *bot_args())
    port = host.wait_for(r"lobby port (\d+)", 20).group(1)
    connect = ("--connect", f"127.0.0.1:{port}")
    person = peers.spawn("person", "join", *connect, *PERSON, typed=True)
    bots = [peers.spawn(f"bot{n}", "join", *connect, *bot_args()) for n in (2, 3)]
    return host, person, bots


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


def _games(directory: Path) -> str:
    """What ``p2pbelka games --dir DIRECTORY`` prints (run here: it only reads)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["games", "--dir", str(directory)]) == 0
    return out.getvalue()


def test_a_second_program_on_a_running_seats_home_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # games' cache, not yours
    with PeerSet(tmp_path) as peers:
        host, person, bots = _table(peers)
        everyone = [host, person, *bots]
        # the person is asked to choose: the game is under way and waits for them
        person.wait_for(r"\n  1\) ", 60)
        _refused(peers, "again", person, "resume", "--text")
        _refused(peers, "again-bot", host, "resume", *bot_args())
        # reading the game while it runs: nothing to refuse, nothing written
        reader = peers.spawn("verify", "verify", str(transcript_of(person)), home=person.home)
        assert "not finished" in _games(person.home / "games")
        peers.wait([reader], 60)
        assert reader.proc.returncode in (0, 1) and reader.text().strip(), reader.dump()

        Typist(person).until(when(lambda: person.proc.poll() is not None), "the end", 240, person)
        codes = peers.wait(everyone, 60)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        data = {transcript_of(p).read_bytes() for p in everyone}
        assert len(data) == 1, "the four transcripts differ"
        verdict = verify(transcript_of(person))
        assert verdict.startswith("OK"), verdict
        listed = _games(person.home / "games")
        assert f"finished ({person.stats()['deals']} deal" in listed, listed
        assert "INVALID" not in listed
