"""The machinery of duplicate tournaments between bot levels, for every game.

A game's match runner (its package's ``tournament.py``) plays match ``i`` of a
tournament as one row of figures; :func:`run_matches` plays the matches on
worker processes, appends each finished match to a results file as one JSON
line, and skips the matches already there: a stopped tournament resumes where
it was.  :func:`mean_ci` is the mean and 95% interval a summary gives over
matches (independent, unlike the games of one match).  :class:`Tournament` is
what a game's entry in the registry offers the ``tournament`` command.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Progress = Callable[[int, int], None]
"""Told (matches done, matches in all) as each match ends."""

BotFactory = Callable[[str, int], Any]
"""Builds a game's bot from a level name and a seed (a module-level function: it goes
to the worker processes)."""


class TournamentSummary(Protocol):
    """What a game's tournament came to: frozen figures, read by attribute; ``to_json``
    is what ``tournament --json`` prints."""

    def to_json(self) -> dict[str, Any]: ...

    def lines(self) -> list[str]:
        """The figures for people, as ``p2pbelka tournament`` prints them."""
        ...


class Tournament(Protocol):
    """A game's tournament, as ``p2pbelka tournament`` runs it."""

    @property
    def kind(self) -> str:
        """How the matches are played, so how the summary reads: ``duplicate`` (two
        sides, the same cards played again with the seats swapped) or ``rotation``
        (one seat of level A against level B, A on every seat in turn)."""
        ...

    def problem(self, preset: str, players: int, games: int) -> str | None:
        """What is wrong with a tournament of ``games`` games, or None."""
        ...

    def run(
        self,
        level_a: str,
        level_b: str,
        games: int,
        seed: int,
        *,
        preset: str,
        players: int,
        workers: int,
        state: str | None,
        progress: Progress | None,
        factory: BotFactory | None = None,
    ) -> TournamentSummary:
        """Play the matches of ``games`` games; their summary.  ``factory``: how the
        bots of a level are built (None: the game's own levels)."""
        ...


def run_matches(
    key: dict[str, Any],
    matches: int,
    submit: Callable[[ProcessPoolExecutor, int], Future[dict[str, Any]]],
    workers: int,
    state: str | None,
    progress: Progress | None,
) -> list[dict[str, Any]]:
    """Every match's row, in order: those already in ``state`` (for the same ``key``)
    read back, the others played on worker processes and appended to it as they end."""
    done = _read_state(state, key)
    todo = [i for i in range(matches) if i not in done]
    if state is not None:
        _end_line(state)
    if todo:
        # here, not at the top: every bot seat imports this module, a tournament runs rarely
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
            for future in as_completed([submit(pool, i) for i in todo]):
                row = future.result()
                row["key"] = key
                done[row["match"]] = row
                if state is not None:
                    with open(state, "a", encoding="utf-8") as f:
                        f.write(json.dumps(row) + "\n")
                if progress is not None:
                    progress(len(done), matches)
    return [done[i] for i in range(matches)]


def mean_ci(values: Iterable[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval over independent matches."""
    xs = list(values)
    n = len(xs)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def share_ci(values: Iterable[float]) -> tuple[float, float, float]:
    """:func:`mean_ci` of shares (each in 0..1), the interval kept within 0..1."""
    mean, low, high = mean_ci(values)
    return (mean, max(0.0, low), min(1.0, high))


def _read_state(path: str | None, key: dict[str, Any]) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    if path is None or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a stop: that match is played again
            if row.get("key") == key:
                done[int(row["match"])] = row
    return done


def _end_line(path: str) -> None:
    """End a line cut short by a stop, so the next row starts on a line of its own."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        last = f.read(1)
    if last != b"\n":
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n")


def summary_json(summary: Any) -> dict[str, Any]:
    """A dataclass of figures as JSON, field by field in order (tuples as lists)."""
    out = {}
    for f in fields(summary):
        value = getattr(summary, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
