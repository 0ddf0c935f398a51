"""End to end in a real terminal: ``p2pbelka play`` in tmux, a whole deal played with keys.

The test reads the screen as a person would (``tmux capture-pane``) and
types as a person would (``tmux send-keys``): a card's number and Enter,
trying the next number when the table refuses a card.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        return done.stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "play")

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", "play", *keys)


def test_play_a_deal_in_tmux(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-test-{os.getpid()}")
    transcript = tmp_path / "game.transcript"
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main play --seed 21 --bot-level random"
        f" --pace 0 --lang en --name Tester --transcript {transcript}; echo EXIT=$?; sleep 30"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    size = ["-x", "100", "-y", "30"]
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", *size, command],
        check=True,
        env=env,
    )
    try:
        screen = play_until_the_deal_is_verified(tmux)
        assert "Hands as dealt" in screen and "Tester" in screen
        tmux.keys("q")
        wait_for(tmux, "Leave the game?")
        tmux.keys("y")
        screen = wait_for(tmux, "EXIT=")
        assert "EXIT=0" in screen and "Transcript saved to" in screen
        assert transcript.stat().st_size > 1000
    finally:
        tmux("kill-server")


def play_until_the_deal_is_verified(tmux: Tmux) -> str:
    deadline = time.monotonic() + 180
    number = 0
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if "Fair deal verified" in screen and "Tricks (leader" in screen:
            return screen
        if "[Enter] continue" in screen:  # a re-deal was claimed: that deal was not played
            tmux.keys("Enter")
        elif "allows a re-deal" in screen:
            tmux.keys("n")
        elif "Your turn" in screen or "cannot be played" in screen:
            number = number % 8 + 1
            tmux.keys(str(number), "Enter")
        time.sleep(0.05)
    raise AssertionError("no verdict on screen:\n" + tmux.screen())


def wait_for(tmux: Tmux, text: str, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if text in screen:
            return screen
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never appeared:\n" + tmux.screen())


def test_host_opens_the_lobby_screen_and_a_joiner_takes_a_seat(tmp_path: Path) -> None:
    """``p2pbelka host`` at a terminal opens the screens; a bot joins by address in text,
    the host fills the other seats with bots (``b``) and the table screen appears."""
    tmux = Tmux(f"p2pbelka-host-{os.getpid()}")
    lobby_port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(P2PBELKA_HOME=str(tmp_path / "host"), XDG_DATA_HOME=str(tmp_path / "data"))
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main host --name Kitchen --lang en"
        f" --player Hostess --listen 127.0.0.1 --no-announce --lobby-port {lobby_port};"
        " echo EXIT=$?; sleep 30"
    )
    size = ["-x", "100", "-y", "30"]
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", *size, command],
        check=True,
        env=env,
    )
    joiner_env = {**env, "P2PBELKA_HOME": str(tmp_path / "joiner")}
    joiner = subprocess.Popen(
        [sys.executable, "-m", "p2pbelka.cli.main", "join", "--connect",
         f"127.0.0.1:{lobby_port}", "--bot", "random", "--player", "Joiner", "--quiet"],
        env=joiner_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(tmux, "Kitchen")
        wait_for(tmux, "Asking to sit down")  # the host decides who sits: let the joiner in
        assert "Joiner" in wait_for(tmux, "y let in")
        tmux.keys("y")
        wait_for(tmux, " 1  Joiner")
        tmux.keys("b")  # one press fills every free seat
        wait_for(tmux, "Score (to 12)", timeout=120)
        wait_for(tmux, "Hostess")  # the names are drawn a moment after the score box
        wait_for(tmux, "Joiner")
    finally:
        tmux("kill-server")
        joiner.kill()
        joiner.wait(timeout=10)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_text_host_lets_a_joiner_in_and_frees_its_seat(tmp_path: Path) -> None:
    """``p2pbelka host`` in text mode at a terminal asks about each joiner (``y``/``n``)
    and frees a seat with ``x N`` before the start; the removed joiner hears why."""
    tmux = Tmux(f"p2pbelka-door-{os.getpid()}")
    lobby_port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(P2PBELKA_HOME=str(tmp_path / "host"), XDG_DATA_HOME=str(tmp_path / "data"))
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main host --name Kitchen --bot random"
        f" --player Hostess --listen 127.0.0.1 --no-announce --lobby-port {lobby_port};"
        " echo EXIT=$?; sleep 30"
    )
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", "120", "-y", "40",
         command],
        check=True, env=env,
    )  # fmt: skip
    joiner_env = {**env, "P2PBELKA_HOME": str(tmp_path / "joiner")}
    joiner = subprocess.Popen(
        [sys.executable, "-m", "p2pbelka.cli.main", "join", "--connect",
         f"127.0.0.1:{lobby_port}", "--bot", "random", "--player", "Joiner"],
        env=joiner_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(tmux, "Joiner [")
        assert "asks to sit down" in wait_for(tmux, "Let in? [y/n]")
        tmux.keys("y", "Enter")
        wait_for(tmux, "1: Joiner [")
        tmux.keys("x 1", "Enter")
        out, _ = joiner.communicate(timeout=120)
        assert joiner.returncode == 3
        assert b"removed you" in out
        wait_for(tmux, "1: free")
    finally:
        tmux("kill-server")
        if joiner.poll() is None:
            joiner.kill()
        joiner.wait(timeout=10)
