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
from typing import Any, Protocol

from p2pbelka.cli import game_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    game_args.add_game_argument(parser, "which game")
    parser.add_argument(
        "--players", type=int, default=3, help="Belot only: 2 or 3 seats (default 3)"
    )
    parser.add_argument("--a", default="strong", help="bot level of team A (default strong)")
    parser.add_argument("--b", default="heuristic", help="bot level of team B (default heuristic)")
    parser.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="N",
        help="the strong level of either team thinks N times as long (1-8; or name strong:N)",
    )
    parser.add_argument("--games", type=int, default=20, help="games to play, two per match")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cards and the bots")
    parser.add_argument("--preset", default="classic", help="rules preset: classic or eyes")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--state", help="results file: one line per finished match, to resume")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")


def _progress(args: argparse.Namespace) -> Callable[[int, int], None]:
    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"\rmatches {done}/{total}", end="", file=sys.stderr, flush=True)

    return progress


class Figures(Protocol):
    """A tournament's summary (either game's)."""

    def to_json(self) -> dict[str, Any]: ...


def _printed_json(args: argparse.Namespace, summary: Figures) -> bool:
    """End the progress line; print the summary as JSON if asked (then nothing else)."""
    if not args.quiet:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    return bool(args.json)


def run(args: argparse.Namespace) -> int:
    if args.game == "belot":
        return run_belot(args)
    from p2pbelka.bench.opponents import bench_bot, bench_levels
    from p2pbelka.bots.base import is_level, with_think
    from p2pbelka.bots.tournament import run_tournament
    from p2pbelka.rules.belka.options import PRESETS

    for level in (args.a, args.b):
        if level not in bench_levels() and not is_level(level):
            levels = ", ".join(bench_levels())
            print(f"tournament: unknown level {level!r} ({levels}, strong:N)", file=sys.stderr)
            return 2
    try:
        args.a, args.b = with_think(args.a, args.think), with_think(args.b, args.think)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    if args.preset not in PRESETS:
        print(f"tournament: unknown preset {args.preset!r} ({', '.join(PRESETS)})", file=sys.stderr)
        return 2
    if args.games < 2:
        print("tournament: --games must be at least 2 (one match)", file=sys.stderr)
        return 2

    summary = run_tournament(
        args.a,
        args.b,
        matches=args.games // 2,
        seed=args.seed,
        preset=args.preset,
        workers=args.workers,
        state=args.state,
        progress=_progress(args),
        factory=bench_bot,
    )
    if _printed_json(args, summary):
        return 0
    s = summary
    low, high = s.win_rate_a_ci95
    gl, gh = s.net_game_points_per_deal_a_ci95
    print(f"{s.a} (A) vs {s.b} (B), preset {s.preset}, seed {s.seed}")
    print(f"matches {s.matches}, games {s.games}, deals {s.deals}")
    print(f"games won    A {s.games_a}  B {s.games_b}  draws {s.draws}")
    print(f"A win rate   {s.win_rate_a:.1%}  (95% CI {low:.1%} .. {high:.1%})")
    print(f"deals won    A {s.deals_a}  B {s.deals_b}")
    print(
        f"game points per deal  A {s.game_points_per_deal_a:.3f}"
        f"  B {s.game_points_per_deal_b:.3f}"
        f"  A-B {s.net_game_points_per_deal_a:+.3f} (95% CI {gl:+.3f} .. {gh:+.3f})"
    )
    return 0


def run_belot(args: argparse.Namespace) -> int:
    from p2pbelka.bots.belot.base import BELOT_BOT_LEVELS
    from p2pbelka.bots.belot.tournament import run_tournament

    for level in (args.a, args.b):
        if level not in BELOT_BOT_LEVELS:
            levels = ", ".join(BELOT_BOT_LEVELS)
            print(f"tournament: unknown Belot level {level!r} ({levels})", file=sys.stderr)
            return 2
    if args.players not in (2, 3):
        print("tournament: Belot is for --players 2 or 3", file=sys.stderr)
        return 2
    if args.games < args.players:
        print(f"tournament: --games must be at least {args.players} (one match)", file=sys.stderr)
        return 2

    matches = args.games // args.players
    progress = _progress(args)
    summary = run_tournament(
        args.a, args.b, matches, args.seed, args.players, args.workers, args.state, progress
    )
    if _printed_json(args, summary):
        return 0
    s, n = summary, summary.players
    low, high = s.win_rate_a_ci95
    print(f"Belot, {n} players: one {s.a} (A) against {n - 1} {s.b}, seed {s.seed}")
    print(f"matches {s.matches}, games {s.games}, deals {s.deals}")
    print(f"games won    A {s.wins_a}  B {s.wins_b}  draws {s.draws}")
    print(
        f"A win rate   {s.win_rate_a:.1%}  (95% CI {low:.1%} .. {high:.1%};"
        f" equal bots {s.even_share:.1%})"
    )
    print(
        f"A declared   {s.declared_a} deals, made {s.made_rate_a:.1%};"
        f" mean final score A {s.mean_score_a}  B {s.mean_score_b}"
    )
    return 0
