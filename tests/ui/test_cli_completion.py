"""Shell completion and the manual page: the copies in the repository's ``cli/`` folder are
what the parser makes (an option added without regenerating them fails here), each names
every option of every command, and the scripts complete in the real shells: a command
from its first letters, after ``resume`` the ids of the games that can go on, after
``verify`` and ``replay`` the saved transcripts.  zsh, fish and man are tried where the
machine has them."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from p2pbelka.cli.completion_cmd import FILES, generate, made_by, parser_to_complete
from p2pbelka.peer.store import GameMeta
from tests.ui.cli import home_env, run_main

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "cli"
REGENERATE = "python -m p2pbelka.cli.completion_cmd cli"
LEFT = "3e395f24e1102c96f575b61ff0e6df0d"  # a LAN game left: resume offers it
OVER = "77aa5f24e1102c96f575b61ff0e6df0d"  # a LAN game finished: only verify and replay


@pytest.mark.parametrize("what", list(FILES))
def test_the_committed_file_is_what_the_parser_makes(what: str) -> None:
    """Byte for byte, where the generator and Python are those that made the copy (another
    shtab or argparse words the same parser otherwise; the next test still runs there)."""
    committed = (CLI / FILES[what]).read_text(encoding="utf-8")
    if made_by(what) not in committed.splitlines()[1 if what != "man" else 0]:
        pytest.skip(f"cli/{FILES[what]} was not {made_by(what)}: compared by its options only")
    assert committed == generate(what), f"cli/{FILES[what]} is out of date: run `{REGENERATE}`"


def test_every_option_of_every_command_is_in_each_file() -> None:
    parser = parser_to_complete()
    texts = {what: (CLI / name).read_text(encoding="utf-8") for what, name in FILES.items()}
    texts["man"] = texts["man"].replace("\\-", "-")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert sub.choices, "no commands found in the parser"
    for name, command in sub.choices.items():
        options = [
            option
            for action in command._actions
            if action.help != argparse.SUPPRESS
            for option in action.option_strings
        ]
        for what, text in texts.items():
            assert name in text, (what, name)
            for option in options:
                if what == "man" and option in ("-h", "--help"):
                    continue  # the page is the help: it names it only in the usage
                assert spelled(what, option) in text, (what, name, option)


def spelled(what: str, option: str) -> str:
    """``option`` as the file for ``what`` writes it (fish: ``-l name``, ``-s x``)."""
    if what != "fish":
        return option
    return f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"


def test_the_completion_command_prints_each_file(tmp_path: Path) -> None:
    for what, name in FILES.items():
        ran = run_main(tmp_path, "completion", what, check=True)
        assert ran.stdout == (CLI / name).read_text(encoding="utf-8")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A P2PBELKA_HOME with a LAN game left and one finished, and a local game's
    transcript beside them, where the home keeps a local table's games (completion reads
    no transcript: any bytes do)."""
    for game_id, finished in ((LEFT, False), (OVER, True)):
        store = tmp_path / "p2pbelka-home" / "games" / game_id
        store.mkdir(parents=True)
        meta = GameMeta(game_id, 2, [], ["Asel", "Bolat", "Saule", "Nurlan"], [], "0.0.0.0", 0)
        meta.finished = finished
        (store / "game.json").write_text(json.dumps(meta.__dict__))
        (store / "transcript.p2pb").write_bytes(b"\x00")
    local = tmp_path / "p2pbelka-home" / "games"
    (local / "belka-20261130-211000.transcript").write_bytes(b"\x00")
    return tmp_path


def shell_env(home: Path) -> dict[str, str]:
    """``p2pbelka`` on the PATH as a shell finds it: this checkout's, in ``home``."""
    bin_dir = home / "bin"
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / "p2pbelka"
    program.write_text(
        f"#!/bin/sh\nexec {sys.executable} -c "
        "'import sys; from p2pbelka.cli.main import main; sys.exit(main())' \"$@\"\n"
    )
    program.chmod(0o755)
    return {
        **home_env(home),
        "P2PBELKA_HOME": str(home / "p2pbelka-home"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }


def run_shell(home: Path, argv: list[str]) -> list[str]:
    ran = subprocess.run(
        argv, env=shell_env(home), cwd=home, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.splitlines()


def bash_completes(home: Path, *words: str) -> list[str]:
    """What bash offers for the last of ``words`` after ``p2pbelka`` (as at a Tab)."""
    line = " ".join(("p2pbelka", *words))
    script = (
        f"source {CLI / FILES['bash']}\n"
        f"COMP_WORDS=(p2pbelka {' '.join(repr(w) for w in words)})\n"
        f"COMP_CWORD={len(words)}; COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}\n"
        f"_shtab_p2pbelka p2pbelka {words[-1]!r} {(['p2pbelka', *words])[-2]!r}\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    return [w for w in run_shell(home, ["bash", "--norc", "-c", script]) if w]


def saved(home: Path) -> set[str]:
    games = home / "p2pbelka-home" / "games"
    return {
        str(games / "belka-20261130-211000.transcript"),
        str(games / LEFT / "transcript.p2pb"),
        str(games / OVER / "transcript.p2pb"),
    }


def test_bash_completes_commands_game_ids_and_saved_games(home: Path) -> None:
    assert bash_completes(home, "res") == ["resume"]
    assert set(bash_completes(home, "co")) == {"completion"}
    assert bash_completes(home, "resume", "") == [LEFT[:12]]
    assert bash_completes(home, "play", "--resume", "3e") == [LEFT[:12]]
    assert bash_completes(home, "completion", "") == list(FILES)
    for command in ("verify", "replay"):
        offered = set(bash_completes(home, command, ""))
        assert saved(home) <= offered
        assert {"bin", "p2pbelka-home"} <= offered  # and the files here, as for any path
    assert "--every-pass" in bash_completes(home, "verify", "--ev")


def test_games_lists_ids_and_files_for_the_shell(home: Path) -> None:
    """What the scripts ask at each Tab, in the order ``p2pbelka games`` would say."""
    ids = run_shell(home, ["p2pbelka", "games", "--ids"])
    assert ids == [LEFT[:12]]
    files = run_shell(home, ["p2pbelka", "games", "--files"])
    assert set(files) == saved(home)


def needs(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed on this machine: its check cannot run")


def test_fish_completes_commands_game_ids_and_saved_games(home: Path) -> None:
    needs("fish")

    def completes(line: str) -> list[str]:
        script = f"source {CLI / FILES['fish']}; complete -C {line!r}"
        return [w.split("\t")[0] for w in run_shell(home, ["fish", "--no-config", "-c", script])]

    assert completes("p2pbelka res") == ["resume"]
    assert completes("p2pbelka resume ") == [LEFT[:12]]
    assert saved(home) <= set(completes("p2pbelka verify "))
    assert "--every-pass" in completes("p2pbelka verify --ev")


# An interactive zsh on a pseudo-terminal (zsh's own zpty), the folder of ``_p2pbelka``
# on its fpath as an installed one is: it types the line and a Tab; what the completion
# offers is written out by a ``compadd`` that notes its words.  Each step waits on the
# shell's answer (SETUP, the prompt, READY), not on a clock.
ZSH_TAB = r"""
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT='>' ; fpath=($1 \$fpath); autoload -U compinit && compinit -u -D"
zpty -w z 'compadd () {
  [[ ${@[1,-1]} == *-O* || ${@[1,-1]} == *-A* || ${@[1,-1]} == *-D* ]] &&
    { builtin compadd "$@"; return $? }
  typeset -a __hits
  builtin compadd -A __hits "$@"
  (( $#__hits )) && print -l -- $__hits >> '$3'
  builtin compadd "$@"
}'
zpty -w z "print -- SET''UP"
zpty -r z line '*SETUP*'
zpty -r z line '*>'
zpty -n -w z "$2"$'\t'
zpty -n -w z $'\x15'"print -- RE''ADY"$'\n'
zpty -r z line '*READY*'
zpty -d z
"""


def test_zsh_completes_commands_game_ids_and_saved_games(home: Path) -> None:
    needs("zsh")
    script = home / "tab.zsh"
    script.write_text(ZSH_TAB)

    def completes(line: str) -> list[str]:
        hits = home / "hits"
        hits.unlink(missing_ok=True)
        run_shell(home, ["zsh", "-f", str(script), str(CLI), line, str(hits)])
        return hits.read_text().splitlines() if hits.exists() else []

    assert completes("p2pbelka res") == ["resume"]
    assert completes("p2pbelka resume ") == [LEFT[:12]]
    assert completes("p2pbelka play --resume ") == [LEFT[:12]]
    offered = set(completes("p2pbelka verify "))
    assert saved(home) <= offered and "bin" in offered


def test_the_manual_page_renders_without_warnings() -> None:
    needs("groff")
    page = CLI / FILES["man"]
    ran = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", str(page)], capture_output=True, text=True
    )
    assert ran.returncode == 0 and ran.stderr == "", ran.stderr
    if shutil.which("man") is not None:
        env = {**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": ""}
        shown = subprocess.run(
            ["man", "--warnings", "-l", str(page)], capture_output=True, text=True, env=env
        )
        assert shown.returncode == 0 and shown.stderr == "", shown.stderr
        for heading in ("SYNOPSIS", "EXIT STATUS", "ENVIRONMENT", "p2pbelka resume"):
            assert heading in shown.stdout
