"""Belot's own part of the game-protocol vectors (``bench/vectors.py``).

Its vector shows, in the first deal, the turned card opened to all, the bids and a
declaration: the seed below is the first, from 1, whose first deal at the default
table (three seats) has them (which seed does depends on every seat's nonce,
keys and secrets, all drawn from it).
"""

from __future__ import annotations

SEED = 4
