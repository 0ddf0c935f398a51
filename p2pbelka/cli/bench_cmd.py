"""``p2pbelka bench TOPIC [--json]``: print figures measured on this machine."""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
from collections.abc import Mapping

from p2pbelka.cli import game_args
from p2pbelka.rules import registry
from p2pbelka.ui.words.i18n import _

# topic -> module under p2pbelka.bench; each has ``run(quick: bool) -> dict[str, object]``
TOPICS: Mapping[str, str] = {
    "rules": "rules",
    "deal": "deal",
    "transport": "transport",
    "door": "door",
    "bounds": "bounds",
    "net": "net",
    "bots": "bots",
    "model": "model",
    "solver": "solver",
    "coach": "coach",
    "ladder": "ladder",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # the choices named in the help, not in the usage line: the list outgrew a line
    topics = sorted(TOPICS)
    parser.add_argument(
        "topic",
        choices=topics,
        metavar="TOPIC",
        help=_("what to measure: {topics}").format(topics=", ".join(topics)),
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--quick", action="store_true", help=_("a short run, for smoke tests"))
    game_args.add_game_argument(parser, _("which game"))
    parser.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="N",
        help=_("bench bots: time the strong level at think level N (1-8) in place of strong+"),
    )
    game_args.add_players_argument(parser)
    parser.add_argument(
        "--watchers",
        type=int,
        default=None,
        metavar="N",
        help=_("bench net: games with N watchers following the host, beside games without"),
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help=_("bench net: one game with every peer under cProfile, and where its CPU went"),
    )


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(f"p2pbelka.bench.{TOPICS[args.topic]}")
    if args.profile:
        if args.topic != "net":
            print(f"bench {args.topic}: --profile is for bench net", file=sys.stderr)
            return 2
        module = importlib.import_module("p2pbelka.bench.netprofile")
    if args.watchers is not None:
        from p2pbelka.peer.lan.watchers import MAX_WATCHERS

        if args.topic != "net" or args.profile or not 1 <= args.watchers <= MAX_WATCHERS:
            print(
                f"bench {args.topic}: --watchers N (1-{MAX_WATCHERS}) is for bench net",
                file=sys.stderr,
            )
            return 2
        module = importlib.import_module("p2pbelka.bench.netwatchers")
    options: dict[str, object] = {"quick": args.quick}
    if args.watchers is not None:
        options["watchers"] = args.watchers
    if args.game != registry.DEFAULT:
        # Topics measure the default game; those with a ``game`` parameter the others too.
        if "game" not in inspect.signature(module.run).parameters:
            print(f"bench {args.topic}: no {args.game} figures yet", file=sys.stderr)
            return 2
        options["game"] = args.game
    if args.players is not None:
        try:
            options["players"] = game_args.seats_of(args.game, args.players)
        except ValueError as exc:
            print(f"bench {args.topic}: {exc}", file=sys.stderr)
            return 2
        if "players" not in inspect.signature(module.run).parameters:
            print(f"bench {args.topic}: measures no other number of players", file=sys.stderr)
            return 2
    if args.think is not None:
        if "think" not in inspect.signature(module.run).parameters:
            print(f"bench {args.topic}: --think is for bench bots", file=sys.stderr)
            return 2
        from p2pbelka.bots import max_think

        if not 1 <= args.think <= max_think():
            print(f"bench {args.topic}: --think expects 1 to {max_think()}", file=sys.stderr)
            return 2
        options["think"] = args.think
    figures: dict[str, object] = module.run(**options)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(key) for key in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0
