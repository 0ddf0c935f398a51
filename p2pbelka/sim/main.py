"""``scripts/simulate``: many seeds, or one seed replayed.

    scripts/simulate --seeds 200 --game belka --players 4     # a long run
    scripts/simulate --seed 17 --game belot --players 3       # replay one
    scripts/simulate --seed 17 --game belot --players 3 --faults "kill 1@40+90"
    scripts/simulate --seeds 200 --stop 120                   # short runs (the suite's)

A long run prints each failing seed as it comes (its violations, the command
that replays it, its schedule shrunk), then what the runs reached: every
seat-change stage and transition, every recovery path, every fault kind, every
answer and every exit, with how many runs reached each.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from functools import partial

from p2pbelka.peer.seatchange.stages import TRANSITIONS
from p2pbelka.rules import registry
from p2pbelka.sim.checks import violations
from p2pbelka.sim.faults import Schedule, parse
from p2pbelka.sim.shrink import shrink
from p2pbelka.sim.world import Outcome, simulate


def replay_command(
    seed: int,
    game: str,
    players: int,
    schedule: Schedule | None = None,
    twice: bool = True,
    stop: float | None = None,
) -> str:
    line = f"scripts/simulate --seed {seed} --game {game} --players {players}"
    if stop is not None:
        line += f" --stop {stop:g}"
    if schedule is not None:
        return f'{line} --faults "{schedule}"'
    return line if twice else f"{line} --no-twice"


def _fails(seed: int, game: str, players: int, stop: float | None, schedule: Schedule) -> bool:
    return bool(violations(simulate(seed, game, players, schedule, stop=stop)))


def report_failure(
    outcome: Outcome, found: list[str], shrinking: bool, out: object, twice: bool = True
) -> None:
    write = partial(print, file=out)
    seed, game, players, stop = outcome.seed, outcome.game, outcome.players, outcome.stop
    write(f"seed {seed}: {len(found)} violation(s)")
    for line in found:
        write(f"  - {line}")
    write(f"  schedule: {outcome.schedule}")
    write(f"  replay:   {replay_command(seed, game, players, twice=twice, stop=stop)}")
    if shrinking and outcome.schedule.faults:
        small = shrink(outcome.schedule, partial(_fails, seed, game, players, stop))
        write(f"  shrunk:   {small}")
        write(f"  replay:   {replay_command(seed, game, players, small, stop=stop)}")


def reached(outcome: Outcome) -> Counter[str]:
    """What one run reached, each thing once (the report counts runs)."""
    seen: Counter[str] = Counter()
    for key in outcome.counts:
        if not key.startswith("log "):
            seen[key] = 1
    for key in outcome.answers:
        seen[f"answer {key}"] = 1
    for exit in outcome.exits:
        seen[f"exit {exit.what.split(':')[0]}"] = 1
    return seen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/simulate", description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=registry.DEFAULT, choices=registry.names())
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seeds", type=int, default=None, help="run this many seeds")
    parser.add_argument("--first", type=int, default=0, help="the first seed of --seeds")
    parser.add_argument("--seed", type=int, default=None, help="replay this seed")
    parser.add_argument("--faults", default=None, help="a schedule instead of the seed's")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument(
        "--stop", type=float, default=None, help="short runs: stop the world this many seconds in"
    )
    parser.add_argument(
        "--no-twice",
        action="store_true",
        help="never resume a seat twice at once (the second is refused: the game is locked)",
    )
    args = parser.parse_args(argv)
    players = args.players or registry.spec(args.game).default_seats
    if args.seed is not None:
        seeds = [args.seed]
    else:
        seeds = list(range(args.first, args.first + (args.seeds or 20)))
    schedule = parse(args.faults) if args.faults is not None else None
    runs: Counter[str] = Counter()
    failed = 0
    started, cpu = time.monotonic(), time.process_time()
    for seed in seeds:
        outcome = simulate(
            seed, args.game, players, schedule, twice=not args.no_twice, stop=args.stop
        )
        runs.update(reached(outcome))
        found = violations(outcome)
        if found:
            failed += 1
            report_failure(outcome, found, not args.no_shrink, sys.stdout, not args.no_twice)
        elif args.seed is not None:
            print(f"seed {seed}: no violation ({outcome.schedule})")
            print("  exits: " + ", ".join(f"seat {e.seat} {e.what}" for e in outcome.exits))
        sys.stdout.flush()
    took, cpu = time.monotonic() - started, time.process_time() - cpu
    # Both: on a busy machine the wall clock says more of the others than of this run.
    print(
        f"\n{len(seeds)} run(s) of {args.game} for {players}, {failed} failed; "
        f"{took:.0f} s, {60 * len(seeds) / max(took, 1e-9):.1f} seeds a minute "
        f"({60 * len(seeds) / max(cpu, 1e-9):.1f} a minute of this process's CPU)"
    )
    print("reached (in how many runs):")
    for key, n in sorted(runs.items()):
        print(f"  {n:6d}  {key}")
    never = [key for key in declared_transitions() if key not in runs]
    if never:
        print("declared seat-change transitions no run took:")
        for key in never:
            print(f"  {key}")
    return 1 if failed else 0


def declared_transitions() -> list[str]:
    """Every transition the seat-change machine declares, named as ``coverage`` counts
    them, so a long run's report shows those it never reached."""
    pairs = sorted((a.value, b.value) for a, b in TRANSITIONS)
    return [f"transition {a} -> {b}" for a, b in pairs]


if __name__ == "__main__":
    sys.exit(main())
