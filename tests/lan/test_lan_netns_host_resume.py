"""A table of people at their screens on a LAN: four namespaces, the host and two
joiners at full screens (tmux, played by keys), a bot joiner in text mode.

The host leaves with ``q`` ``y`` in the middle of a deal and resumes at once, with the
program's own windows: it is playing again as soon as its peers answered, not after a
timer.  A joiner's cable out past the reconnect window: every screen tells the seat
change once, and the hand-back once.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import HANG, Peer, PeerSet
from tests.lan.screens import PipedTmux
from tests.netns import Lan, namespace_lan
from tests.ui.cli import cli_env
from tests.ui.test_ui_tmux import ROOT
from tests.ui.test_ui_tmux_resume import hand_of

pytestmark = [
    pytest.mark.netns,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

P2PBELKA = f"{shlex.quote(sys.executable)} -m p2pbelka.cli.main"
PORT = "7700"  # the host's lobby, in its own namespace: nothing else listens there


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.23") as built:
        yield built


class Screen:
    """A person at a terminal in namespace ``ns``: a shell in its own tmux server."""

    def __init__(self, name: str, ns: str, home: Path) -> None:
        self.name, self.home = name, home
        self.tmux = PipedTmux(f"p2pbelka-{name}-{os.getpid()}", home.parent / f"{name}.pane")
        self.number = 0
        home.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in cli_env(home).items() if not k.startswith("TMUX")}
        env.update(P2PBELKA_HOME=str(home), PYTHONPATH=str(ROOT))
        shell = f"ip netns exec {ns} bash --norc --noprofile"
        subprocess.run(
            ["tmux", "-L", self.tmux.socket, "new-session", "-d", "-s", "play",
             "-x", "100", "-y", "50", shell],
            check=True, env=env, cwd=home,
        )  # fmt: skip
        self.tmux.keys(f"cd {shlex.quote(str(ROOT))}; PS1='$ '", "Enter")

    def run(self, args: str) -> None:
        """``p2pbelka ARGS`` at the prompt, its log kept beside (``err``)."""
        self.tmux.keys("clear", "Enter")
        err = shlex.quote(str(self.home / "stderr"))
        self.tmux.keys(f"{P2PBELKA} {args} 2>>{err}; echo EXIT=$?", "Enter")

    def screen(self) -> str:
        return self.tmux.screen()

    def between_turns(self, screen: str | None = None) -> bool:
        """Go on past a page (a re-deal's or a deal's end), or decline a re-deal the
        hand allows (the deal is random: the question may come at any deal), if one
        is up; whether a key was pressed."""
        screen = self.screen() if screen is None else screen
        if "[Enter] continue" in screen:
            self.tmux.keys("Enter")
        elif "allows a re-deal" in _status(screen):  # not an old line of the side panel
            self.tmux.keys("n")
        else:
            return False
        return True

    def step(self) -> None:
        """What a person does at a glance: go on past a page, decline a re-deal, say yes
        to a question about a seat, play the next card its turn allows."""
        screen = self.screen()
        status = _status(screen)  # the side panel keeps old questions: not those
        if self.between_turns(screen):
            pass
        elif "in their place from the next deal?" in status or "Hand the seat back" in status:
            self.tmux.keys("y")
        elif "not ready (you)" in screen:
            self.tmux.keys("r")
        elif _my_turn(status):
            # the last card has no row of numbers ``hand_of`` reads: it is card 1
            self.number = self.number % max(1, len(hand_of(screen))) + 1
            self.tmux.keys(str(self.number), "Enter")

    def log(self) -> str:
        """What the program logged: its standard error, and (while its screen was up)
        the log file its home keeps."""
        paths = (self.home / "stderr", self.home / "p2pbelka.log")
        return "".join(p.read_text(errors="replace") for p in paths if p.exists())

    def close(self) -> None:
        self.tmux("kill-server")


def _screens(lan: Lan, root: Path) -> list[Screen]:
    """The host's, P1's and P2's terminals, in namespaces 0, 1 and 2."""
    return [
        Screen(name, lan.namespaces[k], root / name)
        for k, name in enumerate(("host", "ann", "bob"))
    ]


def _status(screen: str) -> str:
    """The status line: the one above the chat line (or the screen's last lines)."""
    lines = [line for line in screen.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith("chat>"):
            return " ".join(lines[max(0, i - 2) : i])
    return " ".join(lines[-3:])


def _turn(who: Screen) -> bool:
    return _my_turn(_status(who.screen()))


def _my_turn(screen: str) -> bool:
    return "Your turn" in screen or "cannot be played" in screen


def _at(lan: Lan, k: int) -> str:
    return f"--listen {lan.addresses[k]} --interface {lan.addresses[k]}"


def _wait(
    check: object,
    screens: list[Screen],
    steppers: list[Screen],
    what: str,
    pages: Screen | None = None,
) -> None:
    """Until ``check()``, the people at ``steppers`` playing on meanwhile; ``pages``: a
    person who only goes on past a page (a re-deal's or a deal's end) or declines a
    re-deal, and plays nothing."""
    deadline = time.monotonic() + HANG
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what + ":\n" + "\n".join(s.screen() for s in screens)
        for who in steppers:
            who.step()
        if pages is not None and pages not in steppers:
            pages.between_turns()
        time.sleep(0.1)


def _seated(lan: Lan, peers: PeerSet, screens: list[Screen], extra: str) -> Peer:
    """The host and two joiners at their screens, a bot joiner in text: seats 0-3."""
    host, ann, bob = screens
    host.run(f"host --no-announce --player Hostess --lang en -v --option goli=off"
             f" --lobby-port {PORT} {extra} {_at(lan, 0)}")  # fmt: skip
    for k, who in ((1, ann), (2, bob)):  # one at a time: seat k
        who.run(f"join --connect {lan.addresses[0]}:{PORT} --player P{k} --lang en -v"
                f" {extra} {_at(lan, k)}")  # fmt: skip
        _wait(lambda who=who: "(you)" in who.screen(), screens, [], f"P{k} not seated")
    bot = peers.spawn(
        "bot", "join", "--connect", f"{lan.addresses[0]}:{PORT}", "--bot", "random",
        "--quiet", "-v", *extra.split(), *_at(lan, 3).split(), netns=lan.namespaces[3],
    )  # fmt: skip
    # everyone says ready (a key pressed as the seat was given may be lost: again)
    _wait(lambda: "starting game" in bot.text(), screens, [ann, bob], "no start")
    return bot


def _leave_and_resume(host: Screen, screens: list[Screen], at: str) -> None:
    """``q`` ``y`` on the host's screen, then ``resume`` at once, at its prompt."""
    host.tmux.keys("q")
    _wait(lambda: "Leave the game?" in host.screen(), screens, [], "no question")
    host.tmux.keys("y")
    _wait(lambda: "EXIT=0" in host.screen(), screens, [], "the host did not leave")
    host.run(f"resume --lang en -v {at}")


def test_a_host_left_with_q_y_plays_again_once_its_peers_answered(lan: Lan, tmp_path: Path) -> None:
    """Twice: at its own turn, and while another seat is to play.  The program's own
    windows (a held seat waits at most half the reconnect window, 60 s, for a seat
    that never answers): the release must come from every seat's answer, and the
    host's turn follow it, not a timer."""
    screens = _screens(lan, tmp_path)
    host, ann, bob = screens
    try:
        with PeerSet(tmp_path) as peers:
            bot = _seated(lan, peers, screens, "--auto-approve")
            turns = 0
            for own_turn in (True, False):
                # a card or two by keys, then the moment to leave
                # a re-deal's page or question may come first: the host goes on past it
                _wait(lambda: _turn(host), screens, [ann, bob], "no turn", pages=host)
                host.step()
                turns += 1
                others = [ann, bob] if own_turn else screens
                _wait(lambda o=own_turn: _turn(host) == o and hand_of(host.screen()),
                      screens, others, "no moment to leave", pages=host)  # fmt: skip
                _leave_and_resume(host, screens, _at(lan, 0))
                _wait(lambda: _turn(host), screens, screens, "never played again")
                log = host.log()
                assert log.count("every seat has answered: this seat may sign again") == turns, log
                assert "every seat that can be reached" not in log, log
                assert "Traceback" not in log, log
            assert bot.proc.poll() is None, bot.dump()
            assert "Traceback" not in bot.log(), bot.dump()
    finally:
        for who in screens:
            who.close()


def _log(screen: str) -> str:
    """The side panel's lines joined (a long line wraps onto the next, indented)."""
    side = [line.rsplit("│", 1)[1].strip() for line in screen.splitlines() if "│" in line]
    return " ".join(side)


CHANGE_LINES = ("takes the seat of P2", "has their seat back")
SILENCE = 4  # a link silent this long while asked is dead (--link-silence)
WINDOW = 7  # the reconnect window: past the links' silence limit


def test_every_screen_tells_a_seat_change_once(lan: Lan, tmp_path: Path) -> None:
    """P2's cable out past the reconnect window, then back: the host's, P1's and P2's
    screens, and the bot's text, tell the bot's taking the seat once, and the hand-back
    once.  (The window is past the links' own silence limit, so P2's program knows
    its links are dead before the window ends.)"""
    screens = _screens(lan, tmp_path)
    host, ann, _bob = screens
    seen = {who.name: dict.fromkeys(CHANGE_LINES, 0) for who in screens}

    def look() -> bool:
        """Each line's count on each screen, the most seen at once (the panel scrolls)."""
        for who in screens:
            said = _log(who.screen())
            for line in CHANGE_LINES:
                seen[who.name][line] = max(seen[who.name][line], said.count(line))
        return True

    try:
        with PeerSet(tmp_path) as peers:
            bot = _seated(lan, peers, screens, f"--reconnect-window {WINDOW} --pause-after 1"
                          f" --link-silence {SILENCE} --auto-approve")  # fmt: skip
            _wait(lambda: "Waiting for P2" in host.screen(), screens, [host, ann], "no wait")
            lan.link(2, up=False)
            # the cable stays out until the others seated a bot, not for a fixed time (P2's
            # program, at its own turn, waits for nobody and has nothing to say meanwhile)
            _wait(lambda: look() and "replaced by Bot for P2" in bot.text(), screens,
                  [host, ann], "no bot for P2")  # fmt: skip
            lan.link(2, up=True)
            _wait(lambda: look() and "handed back to P2" in bot.text(), screens, screens,
                  "P2 never got its seat back")  # fmt: skip
            _wait(lambda: look() and all(seen[w.name][CHANGE_LINES[1]] for w in screens),
                  screens, screens, "a screen never said it")  # fmt: skip
            for _ in range(30):  # a second line would come at once
                look()
                time.sleep(0.1)
            text = bot.text()
            assert text.count("replaced by Bot for P2") == 1, bot.dump()
            assert text.count("handed back to P2") == 1, bot.dump()
            for who in screens:
                assert seen[who.name] == dict.fromkeys(CHANGE_LINES, 1), (who.name, seen)
    finally:
        for who in screens:
            who.close()
