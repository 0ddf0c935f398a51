"""Entry point of the ``p2pbelka`` command.

Each subcommand lives in its own module under ``p2pbelka.cli`` with two
functions: ``add_arguments(parser)`` and ``run(args) -> int``.  Modules are
imported only when their command runs, so ``p2pbelka referee`` does not pay
for prompt_toolkit or trio.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from p2pbelka import __version__

# name -> (module under p2pbelka.cli, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play_cmd", "play at a table with three bot peers on this machine (the default)"),
    "selfplay": ("selfplay_cmd", "play whole games between four bot peers and save the transcript"),
    "verify": ("verify_cmd", "verify a saved transcript: signatures, shuffles, every card"),
    "bench": ("bench_cmd", "print benchmark figures (rules, deal, net, bots)"),
    "referee": ("referee_cmd", "check a Belka or Belot game record with the rules engine"),
    "tournament": ("tournament_cmd", "duplicate matches between bot levels, with win rates"),
    "host": ("host_cmd", "open a table on the LAN and play seat 0"),
    "join": ("join_cmd", "find a table on the LAN (or --connect HOST:PORT) and take a seat"),
    "resume": ("resume_cmd", "continue a game after this peer was stopped or crashed"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2pbelka",
        description="Belka on a local network: no server, no trusted dealer, provably fair.",
    )
    parser.add_argument("--version", action="version", version=f"p2pbelka {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        module = _command_module(module_name)
        module.add_arguments(command_parser)
    return parser


def _command_module(module_name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"p2pbelka.cli.{module_name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or [])])
    module = _command_module(COMMANDS[args.command][0])
    try:
        return int(module.run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
