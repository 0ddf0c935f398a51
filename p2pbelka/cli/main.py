"""Entry point of the ``p2pbelka`` command.

Each subcommand lives in its own module under ``p2pbelka.cli`` with two
functions: ``add_arguments(parser)`` and ``run(args) -> int``.  Modules are
imported only when their command runs, so ``p2pbelka referee`` does not pay
for prompt_toolkit or trio.

Errors a command lets through end here, as one line in a player's words and an
exit status from :mod:`p2pbelka.cli.errors`; no traceback reaches a user.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Mapping, Sequence

from p2pbelka import __version__
from p2pbelka.cli.errors import EXIT_STATUSES, report_error
from p2pbelka.ui.words.i18n import N_, _

# name -> (module under p2pbelka.cli, one-line help)
COMMANDS: Mapping[str, tuple[str, str]] = {
    "play": ("play_cmd", N_("play at a table with bot peers on this machine (the default)")),
    "games": (
        "games_cmd",
        N_("list the saved games, with the commands to resume, verify or replay"),
    ),
    "replay": ("replay_cmd", N_("verify a saved game, then show it trick by trick")),
    "selfplay": (
        "selfplay_cmd",
        N_("play whole games between four bot peers and save the transcript"),
    ),
    "verify": ("verify_cmd", N_("verify a saved transcript: signatures, shuffles, every card")),
    "ladder": (
        "ladder_cmd",
        N_("the club's ladder: ratings from every result this machine holds"),
    ),
    "bench": ("bench_cmd", N_("print benchmark figures (rules, deal, net, bots)")),
    "referee": ("referee_cmd", N_("check a Belka or Belot game record with the rules engine")),
    "tournament": ("tournament_cmd", N_("duplicate matches between bot levels, with win rates")),
    "host": ("host_cmd", N_("open a table on the LAN and play seat 0")),
    "join": ("join_cmd", N_("find a table on the LAN (or --connect HOST:PORT) and take a seat")),
    "watch": ("watch_cmd", N_("follow a game on the LAN as a watcher, checking every deal")),
    "resume": ("resume_cmd", N_("continue a game after this peer was stopped or crashed")),
    "completion": (
        "completion_cmd",
        N_("print the shell completion script (bash, zsh, fish) or the manual page (man)"),
    ),
}

DESCRIPTION = N_(
    "Belka and Belot on a local network: no server, no trusted dealer, provably fair.\n"
    "Without a command, `p2pbelka [OPTIONS]` is `p2pbelka play [OPTIONS]`."
)

LOG_FILE = N_(
    "log: while a screen is up, nothing is written to the terminal under it; its log goes\n"
    "to $P2PBELKA_HOME/p2pbelka.log when that is set, else $XDG_DATA_HOME/p2pbelka/p2pbelka.log\n"
    "(else ~/.local/share/p2pbelka/p2pbelka.log)"
)

DEFAULT_COMMAND = "play"
TOP_LEVEL_FLAGS = ("-h", "--help", "--version")


def build_parser(
    command: str | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each command's own (for its usage in errors).  Only
    ``command`` gets its arguments (all commands when None): a command's options may
    need the games, bots or network stack, which ``p2pbelka --help`` does not."""
    parser = argparse.ArgumentParser(
        prog="p2pbelka",
        description=_(DESCRIPTION),
        epilog=_("exit status:")
        + "\n"
        + "\n".join(f"  {code:<4}{_(meaning)}" for code, meaning in EXIT_STATUSES.items())
        + "\n\n"
        + _(LOG_FILE),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"p2pbelka {__version__}",
        help=_("show the version and exit"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands: dict[str, argparse.ArgumentParser] = {}
    for name, (module_name, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=_(help_text), description=_(help_text))
        if command is None or name == command:
            _command_module(module_name).add_arguments(command_parser)
        commands[name] = command_parser
    return parser, commands


def _command_module(module_name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"p2pbelka.cli.{module_name}")


def with_default_command(argv: Sequence[str]) -> list[str]:
    """``p2pbelka --seed 7`` is ``p2pbelka play --seed 7``, as the docs promise."""
    words = list(argv)
    if not words or (words[0].startswith("-") and words[0] not in TOP_LEVEL_FLAGS):
        return [DEFAULT_COMMAND, *words]
    return words


def parse(argv: Sequence[str]) -> argparse.Namespace:
    words = with_default_command(argv)
    parser, commands = build_parser(words[0] if words[0] in COMMANDS else "")
    args, extra = parser.parse_known_args(words)
    if extra:
        # the command's own usage, not the top-level one: that is where the fix is
        # argparse's own msgid, so its translation serves here too
        commands[args.command].error(_("unrecognized arguments: %s") % " ".join(extra))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    from p2pbelka.ui.words.argparselines import language_in_argv, speak_argparse
    from p2pbelka.ui.words.i18n import default_language, set_language

    words = sys.argv[1:] if argv is None else list(argv)
    # argparse words its headers as the parser is built: the language comes first,
    # from --lang if given, else the locale; its errors and usage follow it too
    set_language(language_in_argv(words) or default_language())
    from p2pbelka.ui.plainchars import plain_stdio

    # a terminal that is not UTF-8: suits as letters, never a crash on a letter it lacks
    # (argparse's own lines, in the language, too)
    plain_stdio()
    speak_argparse()
    args = parse(words)
    if getattr(args, "lang", None):
        set_language(args.lang)
    try:
        module = _command_module(COMMANDS[args.command][0])
        return int(module.run(args))
    except BrokenPipeError:
        return 0
    except SystemExit:
        raise
    except BaseException as exc:  # a group may hold KeyboardInterrupt: report_error sorts it
        return report_error(f"p2pbelka {args.command}", exc, args)


if __name__ == "__main__":
    sys.exit(main())
