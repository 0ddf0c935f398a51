"""End to end in a real terminal: at 80x24 a question keeps its keys whole on its last
row in Kazakh, and a chat line the chat gave back after "slow down" is written on at
its end, not in front of it; at a LAN table a player sees who watches."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet, bot_args
from tests.ui.test_ui_tmux import ROOT, Tmux, wait_for
from tests.ui.test_ui_tmux_resume import P2PBELKA, run, say_ready, shell

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)


def _start(tmux: Tmux, tmp_path: Path, args: str) -> None:
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main play {args} --bot-level random"
        f" --pace 0 --name Tester --transcript {tmp_path / 'game.transcript'};"
        " echo EXIT=$?; sleep 30"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", "-x", "80", "-y", "24",
         command],
        check=True, env=env,
    )  # fmt: skip


def test_a_call_keeps_its_keys_on_one_row_in_kazakh_at_80x24(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-wrapq-{os.getpid()}")
    _start(tmux, tmp_path, "--game belot --players 2 --seed 3 --lang kk")
    try:
        screen = wait_for(tmux, "Сіздің сөзіңіз:")
        rows = screen.splitlines()
        asked = next(i for i, row in enumerate(rows) if "Сіздің сөзіңіз:" in row)
        keys = [row for row in rows[asked:] if "[n] пас" in row]
        assert keys, screen  # the last key whole, on the question's last row
        assert "[y]" in keys[0] or "[1]" in keys[0], screen  # with the keys before it
        assert all(len(row) <= 80 for row in rows)
    finally:
        tmux("kill-server")


def test_a_line_given_back_after_slow_down_is_written_on_at_its_end(tmp_path: Path) -> None:
    tmux = Tmux(f"p2pbelka-wrapc-{os.getpid()}")
    _start(tmux, tmp_path, "--game belot --players 2 --seed 3 --lang en")
    try:
        wait_for(tmux, "Your call:")  # the table waits for us: nothing covers it
        for n in range(1, 9):  # five in a row are let through, then one every 2 s
            tmux.keys("c")
            tmux.keys("-l", f"line {n}")
            tmux.keys("Enter")
        wait_for(tmux, "Slow down")
        # the keys of the last lines may still be on their way when "Slow down" shows:
        # the line given back is read once the chat line has settled
        given_back = _settled_chat_row(tmux)
        tmux.keys("c")
        tmux.keys("-l", " again")
        screen = wait_for(tmux, given_back + " again")
        assert "againline" not in screen
    finally:
        tmux("kill-server")


def _settled_chat_row(tmux: Tmux, timeout: float = 90) -> str:
    """The chat line being written, once it has stayed the same for a second (the
    keys typed before it have all been read)."""
    deadline = time.monotonic() + timeout
    last, same = "", 0
    while time.monotonic() < deadline:
        rows = [row for row in tmux.screen().splitlines() if row.startswith("chat> line")]
        row = rows[-1].rstrip() if rows else ""
        same = same + 1 if row and row == last else 0
        if same >= 20:
            return row
        last = row
        time.sleep(0.05)
    raise AssertionError("the chat line never settled:\n" + tmux.screen())


def test_a_player_sees_who_watches_under_the_seats(tmp_path: Path) -> None:
    """A bot host, a watcher in text mode, and a person joining on screen: once the game
    starts, the person's seats panel names the watcher (the host's seat said it)."""
    tmux = Tmux(f"p2pbelka-wrapw-{os.getpid()}")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--auto-approve", "--no-announce", *bot_args())
        port = host.wait_for(r"lobby port (\d+)", 30).group(1)
        lobby = ("--connect", f"127.0.0.1:{port}")
        watcher = peers.spawn("dana", "watch", "--text", *lobby, "--name", "Dana")
        watcher.wait_for(r"watching: ", 60)
        shell(tmux, tmp_path)
        try:
            run(tmux, f"{P2PBELKA} join {' '.join(lobby)} --player Person --lang en --listen"
                " 127.0.0.1")  # fmt: skip
            say_ready(tmux)
            for n in (1, 2):
                peers.spawn(f"bot{n}", "join", *lobby, *bot_args())
            screen = wait_for(tmux, "1 watching: Dana", 300)
            assert "Seats in play order" in screen
        finally:
            tmux("kill-server")
