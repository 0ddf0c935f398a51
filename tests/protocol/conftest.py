"""Fixtures for the codec, envelope and spec tests.  Helpers: ``strategies`` (hypothesis strategies
for every message body).
"""
