"""Fixtures for the table tests.  Helpers: ``helpers`` (a seeded game run synchronously, dishonest
tables, forked chains).
"""
