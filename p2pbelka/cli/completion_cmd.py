"""``p2pbelka completion bash|zsh|fish|man``: the shell completion script or the manual
page, made from the command's own parser, printed for the player to install.

The completion scripts come from ``shtab``, the page from ``argparse-manpage``: both read
the argparse parser :func:`p2pbelka.cli.main.build_parser` builds, so what a shell
offers and what ``man p2pbelka`` says are the options the program takes.  They are
made in English whatever the locale: a script is installed once for every language,
and the page is the English manual.  The repository keeps a copy of each in its
top-level ``cli/`` folder (``python -m p2pbelka.cli.completion_cmd cli`` writes them;
``tests/ui/test_cli_completion.py`` fails when they differ from what the parser makes).

At a Tab after ``resume`` (or ``play --resume``) the shell asks ``p2pbelka games --ids``
for the games that can go on; after ``verify`` or ``replay``, ``p2pbelka games --files``
for the saved transcripts, besides the files of the current directory.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from p2pbelka import __version__
from p2pbelka.ui.words.i18n import _

# what each is called where it is installed (zsh autoloads ``_NAME`` from its fpath)
FILES: Mapping[str, str] = {
    "bash": "p2pbelka.bash",
    "zsh": "_p2pbelka",
    "fish": "p2pbelka.fish",
    "man": "p2pbelka.1",
}

WIDTH = 80  # of the usage lines in the manual page

# shtab's custom completion: the action each shell runs, with the functions it needs.
# bash's function name holds ``_file`` so that shtab lets bash treat the words as paths.
GAME_IDS: dict[str, Any] = {
    "bash": "_shtab_p2pbelka_game_ids",
    "zsh": "_p2pbelka_game_ids",
    "fish": "(p2pbelka games --ids 2>/dev/null)",
    "preamble": {
        "bash": """
_shtab_p2pbelka_game_ids() {
  compgen -W "$(p2pbelka games --ids 2>/dev/null)" -- "$1"
}
""",
        "zsh": """
_p2pbelka_game_ids() {
  local -a ids
  ids=(${(f)"$(p2pbelka games --ids 2>/dev/null)"})
  compadd -a ids
}
""",
    },
}
SAVED_FILES: dict[str, Any] = {
    "bash": "_shtab_p2pbelka_saved_file_compgen",
    "zsh": "_p2pbelka_saved_files",
    "fish": "(p2pbelka games --files 2>/dev/null; __fish_complete_path (commandline -ct))",
    "preamble": {
        "bash": """
_shtab_p2pbelka_saved_file_compgen() {
  local IFS=$'\\n'
  compgen -W "$(p2pbelka games --files 2>/dev/null)" -- "$1"
  compgen -f -- "$1"
}
""",
        "zsh": """
_p2pbelka_saved_files() {
  local -a saved
  saved=(${(f)"$(p2pbelka games --files 2>/dev/null)"})
  compadd -a saved
  _files
}
""",
    },
}
# (command, dest) -> completion; other paths complete as files or directories
COMPLETIONS: Mapping[tuple[str, str], dict[str, Any]] = {
    ("resume", "game"): GAME_IDS,
    ("play", "resume"): GAME_IDS,
    ("verify", "file"): SAVED_FILES,
    ("replay", "file"): SAVED_FILES,
}

MAN_SECTIONS = {
    "ENVIRONMENT": (
        ".TP\n.B P2PBELKA_HOME\n"
        "This peer's identity and its LAN games (in its games folder), instead of the "
        "user's config and data directories.\n"
        ".TP\n.B XDG_DATA_HOME\n"
        "Games are saved in p2pbelka/games under it (default ~/.local/share).\n"
        ".TP\n.B LANGUAGE, LC_ALL, LC_MESSAGES, LANG\n"
        "The language of the screens and messages (en, ru or kk), unless --lang is given."
    ),
    "FILES": (
        ".TP\n.I ~/.local/share/p2pbelka/games\n"
        "The saved games: see\n.B p2pbelka games\n"
        "for the commands to resume, verify or replay each."
    ),
    "SEE ALSO": (
        "The project's docs/playing.md (playing, on one machine and on a LAN) and "
        "protocol/SPEC.md (the wire format)."
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "what",
        choices=tuple(FILES),
        help=_("bash, zsh or fish: print that shell's completion script; man: the manual page"),
    )


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(generate(args.what))
    return 0


def generate(what: str) -> str:
    """The completion script for the shell ``what``, or (``man``) the manual page."""
    from p2pbelka.ui.words.i18n import language, set_language

    was = language()
    set_language("en")
    try:
        parser = parser_to_complete()
        text = manual_page(parser) if what == "man" else completion_script(parser, what)
    finally:
        set_language(was)
    # after zsh's ``#compdef`` line, which must come first
    first, _nl, rest = text.partition("\n")
    if what == "man":
        return f'.\\" {made_by(what)}\n{text}'
    return f"{first}\n# {made_by(what)}\n{rest}"


def made_by(what: str) -> str:
    """What made the file for ``what``: the same parser words it alike only with the same
    generator and Python (argparse lays out usage lines differently across versions)."""
    from importlib.metadata import version

    tool = "argparse-manpage" if what == "man" else "shtab"
    python = ".".join(str(n) for n in sys.version_info[:2])
    return f"made by `p2pbelka completion {what}` with {tool} {version(tool)}, Python {python}"


def parser_to_complete() -> argparse.ArgumentParser:
    """The whole parser, every command's arguments in it, marked with what completes them."""
    import shtab

    from p2pbelka.cli.main import build_parser

    parser, commands = build_parser(None)
    for each in (parser, *commands.values()):
        # laid out for a width of its own, not the terminal's that made it
        wide = functools.partial(each.formatter_class, width=WIDTH)  # type: ignore[call-arg]
        each.formatter_class = wide
    for name, command in commands.items():
        for action in command._actions:
            wanted = COMPLETIONS.get((name, action.dest))
            if wanted is None and action.type is Path:
                wanted = shtab.DIRECTORY if action.dest.endswith("dir") else shtab.FILE
            if wanted is not None:
                action.complete = wanted  # type: ignore[attr-defined]
    return parser


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    import shtab

    return str(shtab.complete(parser, shell=shell)).rstrip("\n") + "\n"


def manual_page(parser: argparse.ArgumentParser) -> str:
    from argparse_manpage.manpage import Manpage  # type: ignore[import-untyped]

    from p2pbelka.cli.errors import EXIT_STATUSES

    # the epilog's table of exit statuses, which the page would reflow, as a list of its own
    parser.epilog = None
    page = Manpage(parser)
    # no date: the page changes only when the parser does (its copy in cli/ is checked)
    page.date = ""
    page.source = f"p2pbelka {__version__}"
    page.manual = "p2pbelka manual"
    page.description = "Belka and Belot card games peer to peer on a local network"
    statuses = "\n".join(
        f".TP\n.B {code}\n{' '.join(meaning.split())}" for code, meaning in EXIT_STATUSES.items()
    )
    for heading, content in {"EXIT STATUS": statuses, **MAN_SECTIONS}.items():
        page.add_section(heading, "=", content)
    return str(page)


def write_all(directory: Path) -> None:
    """Write every file of :data:`FILES` into ``directory`` (the repository's ``cli/``)."""
    directory.mkdir(parents=True, exist_ok=True)
    for what, name in FILES.items():
        (directory / name).write_text(generate(what), encoding="utf-8")


if __name__ == "__main__":
    write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "cli"))
