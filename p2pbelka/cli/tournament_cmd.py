"""``p2pbelka tournament --a LEVEL --b LEVEL --games N``: duplicate matches between bot levels.

Every deal is played twice on the same cards, team A on seats 0/2 and then on
seats 1/3; ``--games`` counts games, two per match.  With ``--state FILE``
each finished match is appended to FILE, and a rerun with the same levels,
seed and preset plays only the matches still missing.

``--game belot [--players 2|3]``: Belot, one bot of level A against bots of
level B, the same deals played once with A on each seat (``--games`` then
counts games, ``--players`` per match); see :mod:`p2pbelka.bots.belot.tournament`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from p2pbelka.bots.common.tournament import TournamentSummary
from p2pbelka.cli import game_args
from p2pbelka.ui.words.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    game_args.add_game_argument(parser, "which game")
    parser.add_argument(
        "--players", type=int, default=3, help=_("Belot only: 2 or 3 seats (default 3)")
    )
    parser.add_argument("--a", default="strong", help=_("bot level of team A (default strong)"))
    parser.add_argument(
        "--b", default="heuristic", help=_("bot level of team B (default heuristic)")
    )
    parser.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="N",
        help=_("the strong level of either team thinks N times as long (1-8; or name strong:N)"),
    )
    parser.add_argument("--games", type=int, default=20, help=_("games to play, two per match"))
    parser.add_argument("--seed", type=int, default=1, help=_("seed of the cards and the bots"))
    parser.add_argument("--preset", default="classic", help=_("rules preset: classic or eyes"))
    parser.add_argument("--workers", type=int, default=2, help=_("processes (default 2)"))
    parser.add_argument("--state", help=_("results file: one line per finished match, to resume"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--quiet", action="store_true", help=_("no progress on standard error"))


def _progress(args: argparse.Namespace) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"\rmatches {done}/{total}", end="", file=sys.stderr, flush=True)

    return progress


def _printed_json(args: argparse.Namespace, summary: TournamentSummary) -> bool:
    """End the progress line; print the summary as JSON if asked (then nothing else)."""
    if not args.quiet:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    return bool(args.json)


def run(args: argparse.Namespace) -> int:
    from p2pbelka.bench.bots import sparring
    from p2pbelka.bots import is_level, with_think
    from p2pbelka.bots import levels as bot_levels
    from p2pbelka.bots.registry import thinking, tournament
    from p2pbelka.rules.registry import spec

    try:
        cup = tournament(args.game)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    partners, factory = sparring(args.game)
    for level in (args.a, args.b):
        if level not in partners and not is_level(level, args.game):
            named = [*bot_levels(args.game), *partners, *(f"{n}:N" for n in thinking(args.game))]
            title = spec(args.game).title
            print(
                f"tournament: unknown {title} level {level!r} ({', '.join(named)})", file=sys.stderr
            )
            return 2
    try:
        args.a = with_think(args.a, args.think, args.game)
        args.b = with_think(args.b, args.think, args.game)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    problem = cup.problem(args.preset, args.players, args.games)
    if problem is not None:
        print(f"tournament: {problem}", file=sys.stderr)
        return 2

    summary = cup.run(
        args.a,
        args.b,
        args.games,
        args.seed,
        preset=args.preset,
        players=args.players,
        workers=args.workers,
        state=args.state,
        progress=_progress(args),
        factory=factory,
    )
    if _printed_json(args, summary):
        return 0
    for line in summary.lines():
        print(line)
    return 0
