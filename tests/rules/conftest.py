"""Fixtures for the rules tests.  Helpers: ``referee_helpers`` (running the referee),
``belot_helpers`` and ``belot_naive`` (a second, naive Belot referee).
"""
