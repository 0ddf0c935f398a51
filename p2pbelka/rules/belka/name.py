"""Belka's name and seats: what its spec and its engine both say, in a module of its own
so that the spec, which every command reads, imports none of the engine."""

GAME = "belka"
"""The game's name in table descriptions, records and beacons."""
SEATS = 4
