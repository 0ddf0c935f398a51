"""Fixtures for the screens."""
