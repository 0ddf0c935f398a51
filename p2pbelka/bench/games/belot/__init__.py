"""Belot's own benchmarks: the figures and vectors only Belot has.

``rules`` (the bidding and void deals), ``deal`` (two and three seats' fair deal),
``bots`` (each level's time to decide), ``opponents`` (sparring partners written apart
from the bots), ``paths`` (Belot's path vectors), ``vectors`` (the seed of Belot's
first-deal vector), ``coach`` (games for the coach to grade), ``solver`` (the exact
search, compiled and pure Python).
"""

from p2pbelka.bench.games import GameBench
from p2pbelka.rules.belot.game import GAME

BENCH = GameBench(
    game=GAME,
    package=__name__,
    topics=frozenset({"rules", "deal", "bots", "opponents", "paths", "vectors", "coach", "solver"}),
)
