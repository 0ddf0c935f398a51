"""A seat asked to hand a seat back, at its own screen (tmux, four namespaces): the
question is asked over the end-of-deal page it arrives under, ``n`` takes it away and
the bot plays on; the next question, left unanswered, goes away when its time is up
and the bot plays on again; a third one, answered ``y``, gives the seat back, and the
game finishes with the four transcripts the same and ``verify`` OK.

Seat 1 is the person at the screen (in its namespace); the host and seat 3 are bots
that say yes to every question; seat 2 is a bot in text mode whose cable the test
pulls past the reconnect window (a bot takes its seat) and plugs back, so it asks
for its seat back at every deal until it has it.  The person's play holds the game,
so nothing runs away while the test looks.  Needs root, iproute2 and tmux.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import HANG, Peer, PeerSet, verify
from tests.lan.screens import Person, PipedTmux
from tests.lan.test_lan_netns_return_screen import _at, _log, screen_join
from tests.netns import Lan, namespace_lan
from tests.ui.test_ui_tmux import Tmux, wait_for
from tests.ui.test_ui_tmux_resume import hand_of, say_ready

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SCREEN, VICTIM = 1, 2
OFFER = "10"
"""How long a question waits for its answers: the unanswered one's stall, and the time
the person (the test, reading tmux on a busy machine) has to see one and answer it."""
TIMING = ["--reconnect-window", "7", "--link-silence", "4", "--pause-after", "1",
          "--offer-timeout", OFFER, "--decide-limit", "120"]  # fmt: skip
"""The reconnect window past the links' silence limit: the links cut off are dead."""
QUESTION = "Victim is back. Hand the seat back from the next deal?"
BOX = "A question about a seat"  # the box a question is asked in over a page
KEPT = "seat 2 stays with the bot for this deal"  # what the player back is told


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.24") as built:
        yield built


def _seated(lan: Lan, peers: PeerSet, tmux: Tmux, home: Path) -> list[Peer]:
    common = ["--quiet", "--stats", "-v", *TIMING, "--bot", "random"]
    host = peers.spawn("host", "host", "--no-announce", "--option", "goli=off", "--auto-approve",
                       *common, *_at(lan, 0), netns=lan.namespaces[0])  # fmt: skip
    port = host.wait_for(r"lobby port (\d+)", 30).group(1)
    dial = ["join", "--connect", f"{lan.addresses[0]}:{port}"]
    # the person answers every question about a seat: no --auto-approve
    screen_join(tmux, lan, SCREEN, port, home, ["--player", "Asker", *TIMING])
    say_ready(tmux)
    victim = peers.spawn("victim", *dial, "--player", "Victim", *common, *_at(lan, VICTIM),
                         netns=lan.namespaces[VICTIM])  # fmt: skip
    victim.wait_for(r"seats: ", 30)
    bot = peers.spawn("bot", *dial, *common, *_at(lan, 3), netns=lan.namespaces[3])
    return [host, victim, bot]


def _played_deal_end(screen: str) -> bool:
    """The page at the end of a deal that was played: a re-deal's (the deal dealt again,
    with the same number) is not, and the person goes on past it."""
    return "[Enter] continue" in screen and "claimed a re-deal" not in screen


def _told(peer: Peer, text: str, times: int) -> None:
    """Until ``peer`` has said ``text`` ``times`` times."""
    deadline = time.monotonic() + HANG
    while peer.text().count(text) < times:
        assert time.monotonic() < deadline, peer.dump()
        time.sleep(0.05)


def test_a_seat_asked_to_hand_a_seat_back_says_no_then_nothing_and_the_game_goes_on(
    lan: Lan, tmp_path: Path
) -> None:
    tmux = PipedTmux(f"p2pbelka-handback-{os.getpid()}", tmp_path / "pane")
    home = tmp_path / "asker"
    home.mkdir()
    with PeerSet(tmp_path) as peers:
        try:
            host, victim, bot = _seated(lan, peers, tmux, home)
            person = Person(tmux)
            # the first deal under way, then the victim's cable out while the game
            # waits for the person
            person.play_until(lambda s: bool(hand_of(s)) and "Your turn" in s, "a deal")
            lan.link(VICTIM, up=False)
            # the person plays on till the table waits for seat 2, and seats a bot
            gone = person.play_until(lambda s: "Seat a bot" in s, "the bot's question")
            assert "Victim has been gone" in gone, gone
            tmux.keys("y")
            person.play_until(lambda s: "takes the seat of Victim" in _log(s), "the bot seated")
            victim.wait_for("none of the other seats can be reached", 60)
            # the cable back while the bot's deal waits for the person: the player back
            # asks for its seat, and the host (its program runs the bot) says yes
            lan.link(VICTIM, up=True)
            host.wait_for("is back: hand the seat back", 60)
            # the bot finishes its deal, which the person plays to its end; its page
            # stays up, and the others are asked as the next deal waits for the bot
            paged = person.play_until(_played_deal_end, "a page", pages=False)
            asked = person.play_until(lambda s: QUESTION in s, "the question", pages=False)
            assert BOX in asked and "[Enter] continue" in asked, asked  # asked over the page
            assert "[y] yes" in asked and "[n] no" in asked, asked
            tmux.keys("n")
            answered = person.play_until(lambda s: BOX not in s, "the box gone", pages=False)
            assert QUESTION not in answered, answered  # not in the status line either
            assert "[Enter] continue" in answered, answered  # the page is still there
            _told(victim, KEPT, 1)  # the player back: the seat stays with the bot
            print(paged, asked, answered, sep="\n")
            # the game goes on, the bot playing seat 2, till the seat is asked back again
            again = person.play_until(lambda s: QUESTION in s, "the second question")
            assert "has their seat back" not in _log(again), again
            # nobody answers: the question goes away when its time is up (no key pressed)
            gone = person.play_until(lambda s: QUESTION not in s, "the question gone", False)
            assert BOX not in gone, gone
            withdrawn = "The question about the seat of Bot for Victim no longer applies"
            person.play_until(lambda s: withdrawn in _log(s), "the question withdrawn")
            _told(victim, KEPT, 2)
            # and the bot plays on to the game's end; a later question is answered yes
            # (the seat may come back, or the game end first: its length is the cards')
            end = person.play_until(lambda s: "Press q to leave" in s, "the game's end", yes=True)
            assert "Waiting for Bot for Victim" not in end, end
            tmux.keys("q")
            wait_for(tmux, "EXIT=", HANG)
            codes = peers.wait([host, victim, bot], 60)
            assert codes == [0, 0, 0], "\n".join(p.dump() for p in (host, victim, bot))
            assert victim.text().count(KEPT) >= 2, victim.dump()
            mine = list(home.glob("**/games/*/transcript.p2pb"))
            assert len(mine) == 1, mine
            data = {p.transcript().read_bytes() for p in (host, victim, bot)}
            data.add(mine[0].read_bytes())
            assert len(data) == 1, "the four transcripts differ"
            verdict = verify(host.transcript())
            assert verdict.startswith("OK") and "DISPUTED" not in verdict, verdict
        finally:
            print(tmux.screen())
            print((home / "stderr").read_text(errors="replace")[-4000:]
                  if (home / "stderr").exists() else "")  # fmt: skip
            tmux("kill-server")
