"""Nothing is written over a screen, and a screen's ends are seen, at a real terminal
(tmux): the refusals a host logs go to the log file while its lobby stays clean and its
new invite code readable; Ctrl-L draws the screen anew over what else wrote to the
terminal; ``q`` on a terminal too small for the table asks where it can be read;
Ctrl-C ends a replay with 130 and a text-mode game with the line saying how to go on."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.cli.errors import EXIT_INTERRUPTED
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import LobbyRefused, NetOptions, join_game
from p2pbelka.ui.bigcode import big_code
from tests.ui.cli import selfplayed
from tests.ui.test_cli_exits_tmux import start
from tests.ui.test_ui_tmux import ROOT, Tmux, _free_port, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

LOCAL = "127.0.0.1"
HANG = 90.0
"""Real seconds a wait may take before the test is called hung (never a time limit)."""


def wait_for_file(path: Path, text: str) -> str:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if path.exists() and text in (found := path.read_text(encoding="utf-8")):
            return found
        time.sleep(0.05)
    raise AssertionError(f"{text!r} never written to {path}")


def wait_until(tmux: Tmux, shows: Callable[[str], bool]) -> str:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if shows(screen := tmux.screen()):
            return screen
        time.sleep(0.05)
    raise AssertionError("the screen never showed it:\n" + tmux.screen())


def try_wrong_codes(port: int, home: Path, count: int) -> None:
    """``count`` joiners, one after the other, each with a wrong code (real handshakes)."""

    async def main() -> None:
        for n in range(count):
            with pytest.raises(LobbyRefused, match="the invite code is wrong"):
                await join_game(
                    Identity.generate(f"guesser{n}"),
                    LOCAL,
                    port,
                    BotFrontEnd(make_bot("random")),
                    net=NetOptions(listen_host=LOCAL, announce=False, home=home / f"g{n}"),
                    invite=f"guess {n:04d}",
                )

    trio.run(main)


def shown_code(screen: str) -> str:
    found = re.search(r"Invite code: (\d{3} \d{3})", screen)
    assert found, screen
    return found.group(1)


def test_wrong_codes_go_to_the_log_file_and_ctrl_l_redraws_the_host_s_lobby(
    tmp_path: Path,
) -> None:
    tmux = Tmux(f"p2pbelka-slog-{os.getpid()}")
    port = _free_port()
    start(
        tmux,
        tmp_path,
        f"host --table Kitchen --lang en --player Hostess --listen {LOCAL} --no-announce"
        f" --invite --lobby-port {port}",
    )
    log = tmp_path / "p2pbelka" / "p2pbelka.log"  # the home keeps its log
    try:
        old = shown_code(wait_for(tmux, "players join with"))
        try_wrong_codes(port, tmp_path, 10)
        # the door's summary, a warning once written over the screen, is in the file
        assert "10 wrong invite code" in wait_for_file(log, "refused 10 connection(s)")
        screen = wait_for(tmux, "Press c for a new one.")
        assert "refused" not in screen and "p2pbelka:" not in screen, screen
        tmux.keys("c")
        screen = wait_until(tmux, lambda s: "Invite code:" in s and shown_code(s) != old)
        rows = big_code(shown_code(screen))  # the new code drawn large, every row whole
        assert rows and all(row.rstrip() in screen for row in rows), screen
        assert "refused" not in screen and "p2pbelka:" not in screen, screen
        tty = tmux("display", "-p", "-t", "play", "#{pane_tty}").strip()
        with open(tty, "w") as terminal:  # someone else writes over the screen
            terminal.write("\x1b[5;5HGARBAGE-GARBAGE\x1b[20;1HMORE-GARBAGE")
        wait_for(tmux, "GARBAGE")
        tmux.keys("C-l")
        screen = wait_until(tmux, lambda s: "GARBAGE" not in s and "Invite code:" in s)
        assert all(row.rstrip() in screen for row in rows), screen  # drawn anew, whole
        tmux.keys("C-c")
        screen = wait_for(tmux, "EXIT=")
        assert f"EXIT={EXIT_INTERRUPTED}" in screen and "refused" not in screen, screen
    finally:
        tmux("kill-server")


def test_q_on_a_table_too_small_asks_where_the_question_can_be_read(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-smallq-{os.getpid()}")
    start(tmux, tmp_path, "play --seed 5 --bot-level random --pace 0 --lang en", size=(60, 15))
    try:
        wait_for(tmux, "press q to quit")
        tmux.keys("q")
        screen = wait_for(tmux, "Leave the game?")
        assert "too small" in screen and "[y] leave" in screen, screen
        tmux.keys("n")  # staying: the question goes, the page stays
        wait_until(tmux, lambda s: "Leave the game?" not in s and "too small" in s)
        tmux.keys("q")
        wait_for(tmux, "Leave the game?")
        tmux.keys("y")
        screen = wait_for(tmux, "EXIT=")
        assert "EXIT=0" in screen and "p2pbelka resume" in screen, screen
    finally:
        tmux("kill-server")


def test_ctrl_c_in_a_replay_ends_with_130(tmp_path: Path) -> None:
    saved = tmp_path / "game.transcript"
    selfplayed(saved)
    tmux = Tmux(f"p2pbelka-replaycc-{os.getpid()}")
    start(tmux, tmp_path, f"replay --lang en {saved}")
    try:
        wait_for(tmux, "q quit")
        tmux.keys("C-c")
        screen = wait_for(tmux, "EXIT=")
        assert f"EXIT={EXIT_INTERRUPTED}" in screen, screen
    finally:
        tmux("kill-server")


def test_ctrl_c_in_a_text_mode_game_says_how_to_go_on_with_it(tmp_path: Path) -> None:
    """A text-mode host (a bot plays its seat) stopped with Ctrl-C during the game prints
    the ``resume`` line the screen prints, then ends with 130."""
    tmux = Tmux(f"p2pbelka-textcc-{os.getpid()}")
    port = _free_port()
    start(
        tmux,
        tmp_path,
        f"host --table Kitchen --lang en --player Hostess --listen {LOCAL} --no-announce"
        f" --lobby-port {port} --game belot --players 2 --bot random --auto-approve",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(P2PBELKA_HOME=str(tmp_path / "joiner"), XDG_DATA_HOME=str(tmp_path / "jdata"))
    joiner = None
    try:
        wait_for(tmux, "lobby port")
        joiner = subprocess.Popen(
            [sys.executable, "-m", "p2pbelka.cli.main", "join", "--connect",
             f"{LOCAL}:{port}", "--bot", "random", "--player", "Joiner", "--quiet"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        screen = wait_for(tmux, "starting game ")
        game = re.search(r"starting game ([0-9a-f]{12})", screen)
        assert game, screen
        tmux.keys("C-c")
        screen = wait_for(tmux, "EXIT=")
        assert f"EXIT={EXIT_INTERRUPTED}" in screen, screen
        assert f"p2pbelka resume {game.group(1)} goes on with it" in screen, screen
    finally:
        tmux("kill-server")
        if joiner is not None:
            if joiner.poll() is None:
                joiner.kill()
            joiner.wait(timeout=10)
