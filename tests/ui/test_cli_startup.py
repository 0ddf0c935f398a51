"""``p2pbelka --help`` answers without loading what no command runs yet: the network
stack, trio, the crypto library or the screen library are imported by the command
that needs them, after parsing (it took about 0.8 s when they were loaded first).
The cheap commands stay cheap too: ``games --ids`` (a shell's completion runs it at
every Tab) and ``verify`` load neither the screen library nor the bots, their
compiler or the LAN's discovery.  A seat in text (a bot's, ``--text``, ``--quiet``)
opens its table and says its rules without the screen library or another game's
screen and words: the LAN and terminal tests start hundreds of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.cli import cli_env, first_line_matching

HEAVY = ("trio", "cryptography", "prompt_toolkit", "msgpack", "p2pbelka.net", "p2pbelka.peer")
NOT_FOR_CHEAP_COMMANDS = ("prompt_toolkit", "numba", "zeroconf", "p2pbelka.bots")
FLOW = Path(__file__).resolve().parents[1] / "protocol" / "flow2"


def modules_in(importtime: str) -> set[str]:
    """The modules ``-X importtime`` says were imported."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in importtime.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def imported_by(
    home: Path, *argv: str, language: str = "en", check: bool = True
) -> tuple[str, set[str]]:
    """What ``p2pbelka ARGV`` printed, and every module it imported (``-X importtime``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "p2pbelka.cli.main", *argv],
        capture_output=True,
        text=True,
        env={**cli_env(home), "LANGUAGE": language},
        cwd=Path(__file__).resolve().parents[2],
        timeout=300,
        check=check,
    )
    return done.stdout, modules_in(done.stderr)


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["-h"]])
def test_top_level_help_imports_no_network_trio_or_crypto(tmp_path: Path, argv: list[str]) -> None:
    out, modules = imported_by(tmp_path, *argv)
    assert "p2pbelka" in out
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert heavy == []


def test_help_in_russian_imports_nothing_more(tmp_path: Path) -> None:
    out, modules = imported_by(tmp_path, "--help", language="ru")
    assert "показать эту справку и выйти" in out
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)) == []


def test_help_names_both_games_and_every_command(tmp_path: Path) -> None:
    out, _modules = imported_by(tmp_path, "--help")
    assert "Belka and Belot" in out and "three bot" not in out
    for command in ("play", "host", "join", "resume", "verify", "replay", "games"):
        assert f"    {command}" in out


def test_a_command_s_help_still_lists_its_options(tmp_path: Path) -> None:
    out, _modules = imported_by(tmp_path, "host", "--help")
    assert "--lobby-port" in out and "--game {" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["games", "--ids"], ""),
        (["games", "--files"], "first-deal.p2pb"),
        (["verify", str(FLOW / "first-deal.p2pb")], "envelopes checked"),
    ],
    ids=["games-ids", "games-files", "verify"],
)
def test_a_cheap_command_loads_no_screen_bots_or_discovery(
    tmp_path: Path, argv: list[str], said: str
) -> None:
    """Each of these starts a process for a line or two: what it imports is its cost."""
    games = tmp_path / "data" / "p2pbelka" / "games"
    games.mkdir(parents=True)
    (games / "first-deal.p2pb.transcript").write_bytes((FLOW / "first-deal.p2pb").read_bytes())
    out, modules = imported_by(tmp_path, *argv, check=False)
    assert said in out
    loaded = sorted(
        m
        for m in modules
        if m.split(".")[0] in NOT_FOR_CHEAP_COMMANDS or m.startswith(NOT_FOR_CHEAP_COMMANDS)
    )
    assert loaded == []


def imported_until(home: Path, needle: str, *argv: str) -> tuple[str, set[str]]:
    """What ``p2pbelka ARGV`` printed up to its first line holding ``needle``, and every
    module it had imported by then; the program is stopped there (it would wait on)."""
    with (home / "importtime").open("w+") as err:  # a file: a pipe nobody reads would fill
        _line, said = first_line_matching(
            home, needle, *argv, env_changes={"PYTHONPROFILEIMPORTTIME": "1"}, stderr=err
        )
        err.seek(0)
        return said, modules_in(err.read())


@pytest.mark.parametrize(
    ("game", "players", "other", "mode"),
    [("belot", "2", "belka", "--quiet"), ("belka", "4", "belot", "--text")],
)
def test_a_text_seat_opens_its_table_without_the_screen_library(
    tmp_path: Path, game: str, players: str, other: str, mode: str
) -> None:
    """A bot's seat in text, up to its lobby's lines (the table's rules in words, asked
    of the game's screen until its words were parted from it)."""
    bot = ("--bot", "random", "--auto-approve", "--no-announce", "--listen", "127.0.0.1")
    said, modules = imported_until(
        tmp_path, "seats:", "host", "--game", game, "--players", players, *bot, mode
    )
    assert "table: " in said and "rules: " in said
    assert sorted(m for m in modules if m.split(".")[0] == "prompt_toolkit") == []
    screens = sorted(m for m in modules if m.startswith("p2pbelka.ui.games."))
    assert not any(m.endswith(".screen") or f".{other}" in m for m in screens), screens
    assert f"p2pbelka.ui.games.{game}.logwords" in modules  # its own game's, worded


ONE_GAME = """
import sys
from p2pbelka.rules import registry as rules
from p2pbelka.table import registry as table
from p2pbelka.ui import registry as ui
from p2pbelka.ui.words.rulenames import game_word
for name in rules.names():
    rules.spec(name).check_seats(rules.spec(name).default_seats)  # every game's spec
table.game(sys.argv[1])
ui.words(sys.argv[1]).sort_hand([], None)
game_word(sys.argv[1])
print(" ".join(sorted(sys.modules)))
"""


@pytest.mark.parametrize(("game", "other"), [("belka", "belot"), ("belot", "belka")])
def test_the_registries_load_the_game_asked_for_alone(game: str, other: str) -> None:
    """Every game's spec is read (the help names them all), but only the game played
    brings its rules engine, its track and its words; no screen."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_GAME, game],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
        check=True,
    )
    modules = set(done.stdout.split())
    assert {f"p2pbelka.table.games.{game}.track", f"p2pbelka.ui.games.{game}.logwords"} <= modules
    assert f"p2pbelka.rules.{game}.game" in modules
    # of the other game, what its spec imports: its name and options (Belot's options
    # read its fast core's values); neither its engine, its track nor its words
    spec_parts = ("spec", "name", "options", "core")
    others = sorted(m for m in modules if f".{other}." in m)
    assert [m for m in others if m.rsplit(".", 1)[1] not in spec_parts] == [], others
    assert not any(m.startswith("prompt_toolkit") or m.endswith(".screen") for m in modules)
