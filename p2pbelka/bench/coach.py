"""``p2pbelka bench coach [--game G]``: does the coach's grading hold up under a much
deeper search, and how long does it take a decision?

Games between heuristic players (each game's own part, ``bench/games/<game>/coach.py``:
``sample_games(seed, count)``) are graded seat by seat as ``replay --coach`` grades
them (the coach's worlds a decision).  Every decision it flags is graded again on ten
times the worlds, drawn with another seed: the flag *agrees* when the deeper search
also finds the move made costs more than the threshold.  Printed: the share of flags
that agree, the share where both name the same better move, and the time a graded
decision takes (wall and CPU, median and 99th percentile, and the median in
yardsticks: one PyNaCl ed25519 scalar multiplication timed in the same run).
"""

from __future__ import annotations

import statistics
import time

from p2pbelka.bench.registry import game_part
from p2pbelka.bench.timing import percentile
from p2pbelka.bots.common import coach as grading
from p2pbelka.bots.common.coach import WORLDS, Coach, Position, judge, position_rng
from p2pbelka.bots.registry import coach
from p2pbelka.rules.registry import DEFAULT

FLAGS = 150
"""Flagged decisions checked against the deeper search in a full run."""
DEEPER = 10
"""How many times the coach's worlds the deeper search draws."""
MAX_GAMES = 40
"""Games graded at most, however few decisions they flag."""


def run(
    quick: bool = False, game: str = DEFAULT, seed: int = 2026, flags: int = FLAGS
) -> dict[str, object]:
    """The figures of ``game``'s coach, over games from ``seed`` until ``flags`` decisions
    were flagged (or :data:`MAX_GAMES` games)."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    part = game_part("coach", game)
    if part is None:
        raise ValueError(f"no coach figures for {game!r}")
    found = coach(game)
    worlds = 20 if quick else WORLDS
    target = 3 if quick else flags
    figures: dict[str, object] = {
        "game": game,
        "worlds": worlds,
        "deeper_worlds": DEEPER * worlds,
        "threshold": found.threshold,
        "unit": found.unit,
        "yardstick_us": round(yardstick_us(200 if quick else 2000), 1),
    }
    tally = _Tally()
    for g in range(MAX_GAMES):
        played, seats = part.sample_games(seed + g, 1)[0]
        for seat in range(seats):
            for position in found.positions(played, seat):
                tally.grade(found, position, worlds, seed)
                if len(tally.agree) >= target:
                    break
            if len(tally.agree) >= target:
                break
        if len(tally.agree) >= target:
            figures["games"] = g + 1
            break
    figures.update(tally.figures(float(figures["yardstick_us"])))  # type: ignore[arg-type]
    figures["yardstick_us_after"] = round(yardstick_us(200 if quick else 2000), 1)
    return figures


class _Tally:
    """The decisions graded so far, and what the deeper search said of the flagged ones."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.deep_wall: list[float] = []
        self.agree: list[bool] = []
        self.same: list[bool] = []
        self.kinds: list[str] = []
        self.decisions = 0

    def grade(self, found: Coach, position: Position, worlds: int, seed: int) -> None:
        self.decisions += 1
        t0, c0 = time.perf_counter(), time.process_time()
        graded = found.grade(position, worlds, position_rng(seed, position))
        if len(graded.moves) < 2:
            return
        judged = judge(graded, position.played)
        self.wall.append((time.perf_counter() - t0) * 1000)
        self.cpu.append((time.process_time() - c0) * 1000)
        if not grading.flags(judged, found.threshold):
            return
        t0 = time.perf_counter()
        deep = found.grade(position, DEEPER * worlds, position_rng(seed + 1, position))
        self.deep_wall.append((time.perf_counter() - t0) * 1000)
        deeper = judge(deep, position.played)
        self.kinds.append(position.kind)
        self.agree.append(deeper.cost > found.threshold)
        self.same.append(deep.moves[deeper.best] == graded.moves[judged.best])

    def figures(self, yardstick_us: float) -> dict[str, object]:
        wall, cpu = sorted(self.wall), sorted(self.cpu)
        n = max(len(self.agree), 1)
        unit_ms = max(yardstick_us, 1e-3) / 1000
        return {
            "decisions": self.decisions,
            "with_a_choice": len(wall),
            "flagged": len(self.agree),
            "agreement": round(sum(self.agree) / n, 3),
            "same_better_move": round(sum(self.same) / n, 3),
            "ms_median": percentile(wall, 0.5),
            "ms_p99": percentile(wall, 0.99),
            "cpu_ms_median": percentile(cpu, 0.5),
            "cpu_ms_p99": percentile(cpu, 0.99),
            "median_yardsticks": round(statistics.median(wall) / unit_ms, 1) if wall else 0.0,
            "deeper_ms_median": percentile(sorted(self.deep_wall), 0.5),
            **self.by_kind(),
        }

    def by_kind(self) -> dict[str, object]:
        """The flags and their agreement by kind of decision, where there are several."""
        kinds = sorted(set(self.kinds))
        if len(kinds) < 2:
            return {}
        out: dict[str, object] = {}
        for kind in kinds:
            agree = [a for a, k in zip(self.agree, self.kinds, strict=True) if k == kind]
            out[f"flagged_{kind}"] = len(agree)
            out[f"agreement_{kind}"] = round(sum(agree) / len(agree), 3)
        return out
