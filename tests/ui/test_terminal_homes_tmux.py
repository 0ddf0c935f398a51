"""The real program at a real terminal (tmux): ``P2PBELKA_HOME`` keeps a local game's
transcript and seats under it, so ``games`` and ``resume`` of another home never see
it; and a terminal that is not UTF-8 (``LC_ALL=C``) shows the suits as letters a
player can tell apart (``c d h s``), never ``?``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.cli import Ran, cli_env, run_main
from tests.ui.test_ui_tmux import ROOT, Tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

NOT_UTF8 = {"LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0", "LANG": "C"}
CARD = r"(?:[789]|10|[JQKA])"


def _play(tmux: Tmux, env: dict[str, str]) -> None:
    """``p2pbelka play`` in tmux, under ``env``, until the player's hand is drawn."""
    command = (
        f"cd {ROOT} && {sys.executable} -m p2pbelka.cli.main play --seed 7 --bot-level random"
        " --pace 0 --lang en --name Tester; echo EXIT=$?; sleep 30"
    )
    size = ["-x", "100", "-y", "30"]
    subprocess.run(
        ["tmux", "-L", tmux.socket, "new-session", "-d", "-s", "play", *size, command],
        check=True,
        env={k: v for k, v in env.items() if not k.startswith("TMUX")},
    )
    wait_for(tmux, "Your turn", timeout=120)


def _leave(tmux: Tmux) -> str:
    tmux.keys("q")
    wait_for(tmux, "Leave the game?")
    tmux.keys("y")
    return wait_for(tmux, "EXIT=")


def test_a_home_keeps_its_local_game_and_another_home_does_not_see_it(tmp_path: Path) -> None:
    env = dict(cli_env(tmp_path), PYTHONPATH=str(ROOT))
    first = dict(env, P2PBELKA_HOME=str(tmp_path / "A"))
    tmux = Tmux(f"p2pbelka-homes-{os.getpid()}")
    try:
        _play(tmux, first)
        screen = _leave(tmux)
    finally:
        tmux("kill-server")
    assert "EXIT=0" in screen, screen
    (transcript,) = (tmp_path / "A" / "games").glob("belka-*.transcript")
    assert list((tmp_path / "A" / "games").glob("local-*/local.json"))
    # nothing of it in the default data directory
    assert not list((tmp_path / "data").rglob("*.transcript")), list((tmp_path / "data").rglob("*"))

    # the commands that only print, by main() in this process, in each home
    def in_home(name: str, *argv: str) -> Ran:
        return run_main(tmp_path, *argv, env_changes={"P2PBELKA_HOME": str(tmp_path / name)})

    listed = in_home("A", "games").stdout
    assert f"verify: p2pbelka verify {transcript}" in listed, listed
    game_id = re.search(r"resume: p2pbelka resume (\w+)", listed)
    assert game_id is not None, listed  # the local game left open can go on

    other = in_home("B", "games")
    assert other.stdout.startswith(f"No saved games in {tmp_path / 'B' / 'games'}"), other
    refused = in_home("B", "resume", game_id.group(1))
    assert refused.returncode == 2 and "no game to resume" in refused.stderr, refused
    # in its own home the game is found: it only wants a terminal to go on
    found = in_home("A", "resume", game_id.group(1))
    assert "needs a terminal" in found.stderr, found


def test_a_terminal_not_utf8_shows_suits_as_letters(tmp_path: Path) -> None:
    env = dict(cli_env(tmp_path), PYTHONPATH=str(ROOT), **NOT_UTF8)
    env.pop("LANGUAGE", None)
    tmux = Tmux(f"p2pbelka-ascii-{os.getpid()}")
    try:
        _play(tmux, env)
        screen = tmux.screen()
        hand = re.findall(rf"\b{CARD}([cdhs])\b", screen)
        assert len(hand) >= 8, screen  # the hand of eight at least, each with its suit letter
        assert len(set(hand)) >= 2, screen  # two suits at least: told apart
        assert not re.search(rf"\b{CARD}\?", screen), screen  # no suit as ?
        assert "+---+" in screen and "|" in screen  # the cards' boxes drawn with + - |
        screen = _leave(tmux)
    finally:
        tmux("kill-server")
    assert "EXIT=0" in screen, screen
