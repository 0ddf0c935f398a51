"""``p2pbelka tournament --a LEVEL --b LEVEL --games N``: duplicate matches between bot levels.

Every deal is played twice on the same cards, team A on seats 0/2 and then on
seats 1/3; ``--games`` counts games, two per match.  With ``--state FILE``
each finished match is appended to FILE, and a rerun with the same levels,
seed and preset plays only the matches still missing.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--a", default="strong", help="bot level of team A (default strong)")
    parser.add_argument("--b", default="heuristic", help="bot level of team B (default heuristic)")
    parser.add_argument("--games", type=int, default=20, help="games to play, two per match")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cards and the bots")
    parser.add_argument("--preset", default="classic", help="rules preset: classic or eyes")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--state", help="results file: one line per finished match, to resume")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")


def run(args: argparse.Namespace) -> int:
    from p2pbelka.bench.opponents import bench_bot, bench_levels
    from p2pbelka.bots.tournament import run_tournament
    from p2pbelka.rules.options import PRESETS

    for level in (args.a, args.b):
        if level not in bench_levels():
            levels = ", ".join(bench_levels())
            print(f"tournament: unknown level {level!r} ({levels})", file=sys.stderr)
            return 2
    if args.preset not in PRESETS:
        print(f"tournament: unknown preset {args.preset!r} ({', '.join(PRESETS)})", file=sys.stderr)
        return 2
    if args.games < 2:
        print("tournament: --games must be at least 2 (one match)", file=sys.stderr)
        return 2

    def progress(done: int, total: int) -> None:
        if not args.quiet:
            print(f"\rmatches {done}/{total}", end="", file=sys.stderr, flush=True)

    summary = run_tournament(
        args.a,
        args.b,
        matches=args.games // 2,
        seed=args.seed,
        preset=args.preset,
        workers=args.workers,
        state=args.state,
        progress=progress,
        factory=bench_bot,
    )
    if not args.quiet:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    a, b = summary["a"], summary["b"]
    low, high = summary["win_rate_a_ci95"]
    gl, gh = summary["net_game_points_per_deal_a_ci95"]
    print(f"{a} (A) vs {b} (B), preset {summary['preset']}, seed {summary['seed']}")
    print(f"matches {summary['matches']}, games {summary['games']}, deals {summary['deals']}")
    print(f"games won    A {summary['games_a']}  B {summary['games_b']}  draws {summary['draws']}")
    print(f"A win rate   {summary['win_rate_a']:.1%}  (95% CI {low:.1%} .. {high:.1%})")
    print(f"deals won    A {summary['deals_a']}  B {summary['deals_b']}")
    print(
        f"game points per deal  A {summary['game_points_per_deal_a']:.3f}"
        f"  B {summary['game_points_per_deal_b']:.3f}"
        f"  A-B {summary['net_game_points_per_deal_a']:+.3f} (95% CI {gl:+.3f} .. {gh:+.3f})"
    )
    return 0
