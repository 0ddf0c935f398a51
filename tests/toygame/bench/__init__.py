"""Toy's own benchmarks: a figure of ``p2pbelka bench rules`` (``rules.py``)."""

from p2pbelka.bench.games import GameBench
from tests.toygame.rules import game as rules

BENCH = GameBench(game=rules.NAME, package=__name__, topics=frozenset({"rules"}))
