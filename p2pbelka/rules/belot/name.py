"""Belot's name: what its spec and its engine both say, in a module of its own so that
the spec, which every command reads, imports none of the engine."""

GAME = "belot"
"""The game's name in the registry, in records and in summaries."""
