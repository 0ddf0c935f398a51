"""The rules engines of the games, as siblings, and the one registry every layer asks.

- :mod:`p2pbelka.rules.common` -- what every game shares: plays, tricks, the rules'
  exception, record plumbing;
- :mod:`p2pbelka.rules.belka` -- Belka (four players, two teams);
- :mod:`p2pbelka.rules.belot` -- Belot (two or three players, each for themself);
- :mod:`p2pbelka.rules.spec` -- :class:`~p2pbelka.rules.spec.GameSpec`, what a game
  says of itself (name, seat counts, teams, presets and options, record format);
- :mod:`p2pbelka.rules.registry` -- ``spec(name)``, the games this version plays.

Each engine is built the same way: immutable states, ``apply(action)`` returning a
new state or raising :class:`~p2pbelka.rules.common.errors.RuleViolation`, a fast
int core for bots, and JSON game records that the referee replays.
"""
