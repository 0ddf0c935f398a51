"""Whole games of the real peers on a simulated network, clock and disk, every fault
drawn from one seed, the invariants checked after each run (docs/simulation.md).

``world.simulate`` runs one game; ``checks.violations`` says what broke; ``shrink``
makes a failing schedule short; ``main`` is ``scripts/simulate``.  A layer beside
``bench``: it imports the peer and below, never the screens or the commands.
"""
