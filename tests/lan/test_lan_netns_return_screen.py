"""A cable out for longer than the reconnect window, then back, on the returning
player's own screen (tmux, four namespaces): the others seat a bot for the player cut
off; the player's screen says it reaches nobody (never blaming a seat), and when its
cable is back it learns of the signed change and tells it once, the voided hand (and
its trick count) is not left on the table while a bot plays the seat, the seats
panel shows the bot's key there (not the player's own), the status line says what is
going on, and the seat comes back on screen between deals, as ``resume`` does.  A
person who only thinks, over a live link, is never marked missing.  The game then
plays on to its end: no seat aborts, the hand-back lost no deal played (the bot
finished its deal), the four transcripts are the same and verify.

Seat 2 is a person at a terminal in its namespace; seat 1 a person in text mode whose
choice the test leaves open, so the game waits while the cable is out (a game of bots
alone would be over by then).  Needs root, iproute2 and tmux.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import HANG, Peer, PeerSet, Typist, verify, when
from tests.lan.screens import Person, PipedTmux
from tests.netns import Lan, namespace_lan
from tests.ui.cli import cli_env
from tests.ui.test_ui_tmux import ROOT, Tmux, wait_for
from tests.ui.test_ui_tmux_resume import hand_of, play_cards, say_ready

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

VICTIM, PERSON = 2, 1
SILENCE = "4"  # a link silent this long while asked is dead (--link-silence)
WINDOW = "7"  # the reconnect window: past SILENCE, so the cut-off links are dead
TIMING = ["--reconnect-window", WINDOW, "--link-silence", SILENCE, "--pause-after", "1",
          "--auto-approve"]  # fmt: skip


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.22") as built:
        yield built


def _at(lan: Lan, k: int) -> list[str]:
    return ["--listen", lan.addresses[k], "--interface", lan.addresses[k]]


def _screen_join(tmux: Tmux, lan: Lan, port: str, home: Path) -> None:
    """Seat 2's ``join`` on the full screen, inside its namespace."""
    screen_join(tmux, lan, VICTIM, port, home, ["--player", "Victim", *TIMING])


def screen_join(tmux: Tmux, lan: Lan, k: int, port: str, home: Path, extra: list[str]) -> None:
    """A ``join`` of the host in namespace 0 on the full screen (tmux session "play",
    100x30), inside namespace ``k``; ``extra``: its other options; its errors go to
    ``home``/stderr."""
    args = ["join", "--connect", f"{lan.addresses[0]}:{port}", "--lang", "en", "-v", *extra,
            *_at(lan, k)]  # fmt: skip
    command = (
        f"cd {shlex.quote(str(ROOT))} && ip netns exec {lan.namespaces[k]}"
        f" {shlex.quote(sys.executable)} -m p2pbelka.cli.main {shlex.join(args)}"
        f" 2>{shlex.quote(str(home / 'stderr'))}; echo EXIT=$?; sleep 60"
    )
    env = {name: v for name, v in cli_env(home).items() if not name.startswith("TMUX")}
    env.update(P2PBELKA_HOME=str(home), PYTHONPATH=str(ROOT))
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", "100", "-y", "30",
         command],
        check=True, env=env,
    )  # fmt: skip


def _seated(lan: Lan, peers: PeerSet, tmux: Tmux, home: Path) -> list[Peer]:
    common = ["--quiet", "--stats", "-v", *TIMING, "--bot", "random"]
    host = peers.spawn("host", "host", "--no-announce", "--option", "goli=off", *common,
                       *_at(lan, 0), netns=lan.namespaces[0])  # fmt: skip
    port = host.wait_for(r"lobby port (\d+)", 30).group(1)
    dial = ["join", "--connect", f"{lan.addresses[0]}:{port}"]
    text = ["--text", "--player", "Person", "--stats", "-v", *TIMING, *_at(lan, PERSON)]
    person = peers.spawn("person", *dial, *text, netns=lan.namespaces[PERSON], typed=True)
    person.wait_for(r"seats: ", 30)
    _screen_join(tmux, lan, port, home)
    say_ready(tmux)
    bot = peers.spawn("bot", *dial, *common, *_at(lan, 3), netns=lan.namespaces[3])
    return [host, person, bot]


def _log(screen: str) -> str:
    """The side panel's lines joined (a long line wraps onto the next, indented)."""
    side = [line.rsplit("│", 1)[1].strip() for line in screen.splitlines() if "│" in line]
    return " ".join(side)


def _key_of(screen: str, name: str) -> str:
    """The start of the key the seats panel shows for ``name`` (on its row, or on the
    row under a name too long for it)."""
    side = [line.rsplit("│", 1)[1] for line in screen.splitlines() if "│" in line]
    at = next(i for i, row in enumerate(side) if row[1:].startswith(name))
    found = re.search(r"([0-9a-f]{4} [0-9a-f]{4})\s*$", side[at]) or re.search(
        r"([0-9a-f]{4} [0-9a-f]{4})\s*$", side[at + 1]
    )
    assert found, screen
    return found.group(1)


def _said(tmux: Tmux, text: str, timeout: float) -> str:
    """The screen once the log says ``text``."""
    deadline = time.monotonic() + timeout
    while text not in _log(screen := tmux.screen()):
        assert time.monotonic() < deadline, f"{text!r} never said:\n{screen}"
        time.sleep(0.05)
    return screen


def test_the_returning_player_s_screen_tells_the_change_once_and_shows_no_voided_hand(
    lan: Lan, tmp_path: Path
) -> None:
    tmux = PipedTmux(f"p2pbelka-return-{os.getpid()}", tmp_path / "pane")
    home = tmp_path / "victim"
    home.mkdir()
    with PeerSet(tmp_path) as peers:
        try:
            host, person_peer, _bot = _seated(lan, peers, tmux, home)
            person = Typist(person_peer)
            # a card or two of the first deal, the person answering
            deadline = time.monotonic() + 180
            while not hand_of(tmux.screen()) or "Your turn" not in tmux.screen():
                assert time.monotonic() < deadline, tmux.screen()
                if "allows a re-deal" in tmux.screen():  # the deal is not seeded
                    tmux.keys("n")
                elif "[Enter] continue" in tmux.screen():  # a bot's re-deal: its page
                    tmux.keys("Enter")
                person.step()
                time.sleep(0.05)
            play_cards(tmux, 1)
            # the table then waits for the person, whose choice stays open
            deadline = time.monotonic() + 180
            while "Waiting for Person" not in tmux.screen():
                assert time.monotonic() < deadline, tmux.screen()
                if "Your turn" in tmux.screen():
                    play_cards(tmux, 1)
                time.sleep(0.05)
            thinking = tmux.screen()  # past the pause (1 s): the person only thinks
            assert hand_of(thinking), thinking
            assert "missing" not in _log(thinking), thinking
            own_key = _key_of(thinking, "Victim")
            voided = _trick_line(tmux.screen())  # the deal the cut will void, as it stood
            lan.link(VICTIM, up=False)
            # the person plays on till the others wait for seat 2, then stops; the cable
            # stays out until the others seated a bot and the victim's screen says it
            # reaches nobody, not for a fixed time
            person.until(when(lambda: "replaced by Bot for" in host.text()), "the bot", 180, host)
            bot_key = host.wait_for(r"replaced by Bot for Victim \[([0-9a-f ]+)\]", 10).group(1)
            wait_for(tmux, "this machine's network may be down", 120)
            lan.link(VICTIM, up=True)
            _said(tmux, "takes the seat of Victim", 180)
            host.wait_for("is back: hand the seat back", 120)
            time.sleep(1.0)  # what the screen shows while the bot plays the seat
            watching = tmux.screen()
            print(watching)
            # the person plays on: the bot finishes its deal, the seat comes back
            back_at = time.monotonic()
            while "has their seat back" not in _log(tmux.screen()):
                assert time.monotonic() - back_at < 240, tmux.screen()
                if "[Enter] continue" in tmux.screen():  # the bot's deal's end page
                    tmux.keys("Enter")
                person.step()
                time.sleep(0.05)
            back = tmux.screen()
            print(back)
            # the change clears only the deal before it: the next deal's hand is ours
            while not hand_of(dealt := tmux.screen()):
                assert time.monotonic() - back_at < 240, dealt
                if "allows a re-deal" in dealt:
                    tmux.keys("n")
                elif "[Enter] continue" in dealt:  # a re-deal another seat claimed: its page
                    tmux.keys("Enter")
                person.step()
                time.sleep(0.05)
            assert _key_of(dealt, "Victim") == own_key, dealt
            assert _log(watching).count("takes the seat of Victim") == 1, watching
            assert not hand_of(watching), watching  # the voided hand is gone
            # and its trick count: what shows is the bot's deal's own (the deal starts
            # over), never the voided one's as it stood at the cut
            shown = _trick_line(watching)
            assert shown is None or shown != voided or "tricks 0:0" in shown, watching
            assert "Bot for Victim plays your seat" in watching, watching
            assert _key_of(watching, "Bot for Victim") == bot_key[:9] != own_key, watching
            assert _log(back).count("has their seat back") == 1, back
            # and on to the game's end, the person in text mode typing too
            player = Person(tmux, also=person.step)
            player.play_until(lambda s: "Press q to leave" in s, "the game's end", yes=True)
            tmux.keys("q")
            wait_for(tmux, "EXIT=", HANG)
            others = [host, person_peer, _bot]
            codes = peers.wait(others, 60)
            assert codes == [0, 0, 0], "\n".join(p.dump() for p in others)
            said = host.text()
            handed = [line for line in said.splitlines() if "handed back to" in line]
            assert "replaced by Bot for" in said and len(handed) == 1, host.dump()
            # the bot finished its deal: the hand-back loses no deal played
            assert "starts over, no card of it dealt yet" in handed[0], handed
            for peer in others:
                text = peer.text()
                assert "GAME ABORTED" not in text and "went silent" not in text, peer.dump()
            mine = list(home.glob("**/games/*/transcript.p2pb"))
            assert len(mine) == 1, mine
            data = {p.transcript().read_bytes() for p in others} | {mine[0].read_bytes()}
            assert len(data) == 1, "the four transcripts differ"
            assert verify(host.transcript()).startswith("OK")
        finally:
            print((home / "stderr").read_text(errors="replace")[-4000:]
                  if (home / "stderr").exists() else "")  # fmt: skip
            tmux("kill-server")


def _trick_line(screen: str) -> str | None:
    """The table's "trick N of 8 · tricks A:B, points C:D" line, if it shows one."""
    table = "\n".join(line.split("│")[0] for line in screen.splitlines() if "│" in line)
    found = re.search(r"trick \d of \d · tricks \d+:\d+, points \d+:\d+", table)
    return found.group(0) if found else None
