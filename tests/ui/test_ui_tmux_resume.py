"""``p2pbelka resume`` in a real terminal (tmux): a local game left with ``q`` ``y``,
or killed with SIGKILL, comes back on the full screen with the same hand and score;
a LAN seat killed in the middle of a game reopens its table screen too."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.lan.helpers import Peer, PeerSet, bot_args
from tests.ui.cli import cli_env, run_main
from tests.ui.test_ui_tmux import ROOT, Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

P2PBELKA = f"{shlex.quote(sys.executable)} -m p2pbelka.cli.main"
CARD = re.compile(r"│((?:10|[6-9JQKA])[♣♦♥♠])\s*│")
NUMBERS = re.compile(r"^\s+1\s+2(\s+\d)*\s*(│|$)")


def hand_of(screen: str) -> list[str]:
    """The cards drawn above the row of their numbers (the chosen one sits higher),
    left to right."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if NUMBERS.match(line):
            found = [(m.start(), m.group(1)) for row in lines[max(0, i - 3) : i]
                     for m in CARD.finditer(row)]  # fmt: skip
            return [card for _column, card in sorted(found)]
    return []


def score_of(screen: str) -> list[str]:
    """Each side's points, read off its bar (a long pair's names take a line of their own
    above it)."""
    return re.findall(r"(\d+) [□■]+", screen)


def shell(tmux: Tmux, home: Path) -> None:
    """A shell in a 100×30 terminal with the data, config and cache under ``home``."""
    env = {k: v for k, v in cli_env(home).items() if not k.startswith("TMUX")}
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", "100", "-y", "30",
         "bash --norc --noprofile"],
        check=True, env=env, cwd=home,
    )  # fmt: skip
    tmux.keys(f"cd {shlex.quote(str(ROOT))}; PS1='$ '", "Enter")


def run(tmux: Tmux, command: str) -> None:
    tmux("send-keys", "-t", "play", "clear", "Enter")
    tmux.keys(f"{command}; echo EXIT=$?", "Enter")


def say_ready(tmux: Tmux) -> None:
    """Press ``r`` once the lobby shows this seat, again if the seat still says not
    ready a while later (a key pressed as the seat was being given is not lost on
    a person, who sees it and presses again; the test does the same)."""
    wait_for(tmux, "(you)")
    for _ in range(5):
        if "not ready (you)" not in tmux.screen():
            return
        tmux.keys("r")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "not ready (you)" in tmux.screen():
            time.sleep(0.05)
    screen = tmux.screen()
    assert "not ready (you)" not in screen, "never ready:\n" + screen


def play_cards(tmux: Tmux, cards: int) -> None:
    """Press a card's number and Enter until ``cards`` cards left the hand."""
    deadline = time.monotonic() + 180
    played, number = 0, 0
    while played < cards:
        assert time.monotonic() < deadline, "cards not played:\n" + tmux.screen()
        screen = tmux.screen()
        if "[Enter] continue" in screen:
            tmux.keys("Enter")
        elif "allows a re-deal" in screen:
            tmux.keys("n")
        elif "Your turn" in screen or "cannot be played" in screen:
            before = hand_of(screen)
            number = number % max(1, len(before)) + 1
            refused = f"{before[number - 1]} cannot be played" if before else "?"
            tmux.keys(str(number), "Enter")
            for _ in range(200):
                time.sleep(0.02)
                now = tmux.screen()
                if hand_of(now) != before and refused not in now:
                    played += 1
                    break
                if refused in now:
                    break
        time.sleep(0.05)


def at_my_turn(tmux: Tmux) -> tuple[list[str], list[str]]:
    """Wait for the player's turn with no report open: the hand and the score."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if "[Enter] continue" in screen:
            tmux.keys("Enter")
        elif "allows a re-deal" in screen:
            tmux.keys("n")
        elif "Your turn" in screen and hand_of(screen) and len(score_of(screen)) == 2:
            return sorted(hand_of(screen)), score_of(screen)
        time.sleep(0.05)
    raise AssertionError("never the player's turn:\n" + tmux.screen())


def exited(tmux: Tmux, timeout: float = 90) -> str:
    """The screen once the command has ended (``EXIT=<status>`` printed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if re.search(r"EXIT=\d", screen):
            return screen
        time.sleep(0.05)
    raise AssertionError("the command did not end:\n" + tmux.screen())


def leave(tmux: Tmux) -> str:
    tmux.keys("q")
    wait_for(tmux, "Leave the game?")
    tmux.keys("y")
    return exited(tmux)


def resume_command(screen: str) -> str:
    found = re.search(r"run: (p2pbelka resume [0-9a-f]{12})", screen)
    assert found, "no resume command:\n" + screen
    return found.group(1)


def test_a_local_game_left_with_q_y_comes_back_with_resume(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-resume-{os.getpid()}")
    shell(tmux, tmp_path)
    try:
        play = f"{P2PBELKA} play --seed 21 --bot-level random --pace 0 --lang en --name Tester"
        run(tmux, play)
        play_cards(tmux, 3)
        hand, score = at_my_turn(tmux)
        screen = leave(tmux)
        assert "EXIT=0" in screen and "The game is saved." in screen
        command = resume_command(screen)
        listed = run_main(tmp_path, "games", check=True).stdout
        assert f"resume: {command}" in listed and "not finished" in listed

        run(tmux, command.replace("p2pbelka", P2PBELKA, 1))
        assert at_my_turn(tmux) == (hand, score)
        assert "Tester" in tmux.screen()
        play_cards(tmux, 1)
        at_my_turn(tmux)
        screen = leave(tmux)
        assert resume_command(screen) == command
    finally:
        tmux("kill-server")


def test_a_local_game_killed_with_sigkill_resumes(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-killed-{os.getpid()}")
    shell(tmux, tmp_path)
    pid_file = tmp_path / "pid"
    try:
        play = f"{P2PBELKA} play --seed 22 --bot-level random --pace 0 --lang en --name Tester"
        run(tmux, f"sh -c 'echo $$ > {pid_file}; exec {play}'")
        play_cards(tmux, 4)
        hand, score = at_my_turn(tmux)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        assert "EXIT=137" in exited(tmux)

        run(tmux, f"{P2PBELKA} resume --lang en")
        assert at_my_turn(tmux) == (hand, score)
        play_cards(tmux, 2)
        at_my_turn(tmux)
        screen = leave(tmux)
        assert "EXIT=0" in screen and resume_command(screen)
    finally:
        tmux("kill-server")


def test_a_lan_seat_resumed_at_a_terminal_reopens_the_table_screen(tmp_path: Path) -> None:
    """Three bot processes and a person's seat in tmux; the person's ``join`` is killed
    in the game, and ``resume`` brings the table screen back, playable by keys."""
    tmux = Tmux(f"p2pbelka-lanresume-{os.getpid()}")
    patient = ("--give-up-after", "600", "--linger", "1")
    person = tmp_path / "person"
    person.mkdir()
    env_home = dict(P2PBELKA_HOME=str(person))
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--auto-approve", "--no-announce", *bot_args(*patient))
        port = host.wait_for(r"lobby port (\d+)", 30).group(1)
        shell(tmux, tmp_path)
        pid_file = tmp_path / "pid"
        try:
            tmux.keys(f"export P2PBELKA_HOME={shlex.quote(env_home['P2PBELKA_HOME'])}", "Enter")
            join = (
                f"{P2PBELKA} join --connect 127.0.0.1:{port} --player Person --lang en"
                " --listen 127.0.0.1"
            )
            run(tmux, f"sh -c 'echo $$ > {pid_file}; exec {join}'")
            say_ready(tmux)
            joiners: list[Peer] = [
                peers.spawn(f"bot{n}", "join", "--connect", f"127.0.0.1:{port}",
                            *bot_args(*patient))
                for n in (1, 2)
            ]  # fmt: skip
            play_cards(tmux, 2)
            hand, score = at_my_turn(tmux)
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
            exited(tmux)

            run(tmux, f"{P2PBELKA} resume --lang en --listen 127.0.0.1")
            assert at_my_turn(tmux) == (hand, score)
            assert "Person" in tmux.screen() and "Score (to 12)" in tmux.screen()
            play_cards(tmux, 1)
            at_my_turn(tmux)
            leave(tmux)
        finally:
            tmux("kill-server")
        for peer in [host, *joiners]:
            assert "Traceback" not in peer.log(), peer.dump()
