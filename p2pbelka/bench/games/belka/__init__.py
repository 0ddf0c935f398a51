"""Belka's own benchmarks: the figures and vectors only Belka has.

``rules`` (legal-card masks), ``deal`` (four seats' fair deal), ``bots`` (each level's
time to decide), ``opponents`` (sparring partners written apart from the bots),
``model`` (how well the bots' model of the hidden hands fits), ``paths`` (Belka's path
vectors), ``solver`` (the exact search, compiled and pure Python), ``bounds``
(``p2pbelka bench bounds``: one seated peer against another);
``scenarios`` and ``segments`` write Belka's scenario vectors.
"""

from p2pbelka.bench.games import GameBench
from p2pbelka.rules.belka.game import GAME

BENCH = GameBench(
    game=GAME,
    package=__name__,
    topics=frozenset(
        {"rules", "deal", "bots", "opponents", "model", "paths", "bounds", "solver", "coach"}
    ),
)
