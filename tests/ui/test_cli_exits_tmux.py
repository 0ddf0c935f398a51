"""How the real program ends at a real terminal (tmux): Ctrl-C ends with 130, as
``--help`` says, wherever the player presses it (the table, after answering the
question; the host's lobby; the list of tables heard), and a terminal too small for
the replay gets the game's own page saying so, not the library's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_INTERRUPTED
from tests.ui.cli import selfplayed
from tests.ui.test_ui_tmux import Tmux, _free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)


def start(tmux: Tmux, home: Path, argv: str, size: tuple[int, int] = (100, 30)) -> None:
    """``p2pbelka ARGV`` in a tmux window of its own, ``home`` holding its files; the
    shell prints its exit status after it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(
        P2PBELKA_HOME=str(home / "p2pbelka"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
    )
    command = f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main {argv}; echo EXIT=$?; sleep 30"
    geometry = ["-x", str(size[0]), "-y", str(size[1])]
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", *geometry, command],
        check=True,
        env=env,
    )


PLAY = "play --seed 5 --bot-level random --pace 0 --lang en --name Tester"


@pytest.mark.parametrize(
    ("second", "status"),
    [("C-c", EXIT_INTERRUPTED), ("q", 0)],  # q after a Ctrl-C answered "no": an ordinary end
)
def test_ctrl_c_at_the_table_asks_then_ends_with_130(
    tmp_path: Path, second: str, status: int
) -> None:
    tmux = Tmux(f"p2pbelka-cc-{second}-{os.getpid()}")
    start(tmux, tmp_path, PLAY)
    try:
        wait_for(tmux, "Score (to 12)")
        tmux.keys("C-c")
        wait_for(tmux, "Leave the game?")
        tmux.keys("n")  # staying: the Ctrl-C is forgotten
        tmux.keys(second)
        wait_for(tmux, "Leave the game?")
        tmux.keys("y")
        screen = wait_for(tmux, "EXIT=")
        assert f"EXIT={status}" in screen, screen
    finally:
        tmux("kill-server")


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (  # the host's lobby
            "host --table Kitchen --lang en --player Hostess --listen 127.0.0.1 --no-announce",
            "you host it",
        ),
        ("join --lang en --player Guest --listen 127.0.0.1", "Tables heard"),  # the tables heard
    ],
    ids=["host", "join"],
)
def test_ctrl_c_in_the_lobby_ends_with_130_at_once(tmp_path: Path, argv: str, shown: str) -> None:
    # ``shown`` is the program's own screen, never the typed command line (a name from
    # the command matched the shell's echo, and Ctrl-C could come before the program ran)
    tmux = Tmux(f"p2pbelka-ccl-{argv.split()[0]}-{os.getpid()}")
    port = f" --lobby-port {_free_port()}" if argv.startswith("host") else ""
    start(tmux, tmp_path, argv + port)
    try:
        wait_for(tmux, shown)
        tmux.keys("C-c")
        screen = wait_for(tmux, "EXIT=")
        assert f"EXIT={EXIT_INTERRUPTED}" in screen, screen
    finally:
        tmux("kill-server")


def test_a_replay_too_small_for_its_terminal_says_so_in_the_game_s_words(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "game.transcript"
    selfplayed(saved)
    tmux = Tmux(f"p2pbelka-small-{os.getpid()}")
    start(tmux, tmp_path, f"replay --lang en {saved}", size=(60, 15))
    try:
        screen = wait_for(tmux, "too small")
        assert "The terminal is 60×15: too small." in screen, screen
        assert "Window too small" not in screen
        tmux.keys("q")
        assert "EXIT=0" in wait_for(tmux, "EXIT=")
    finally:
        tmux("kill-server")
