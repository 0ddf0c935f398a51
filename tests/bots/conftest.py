"""Fixtures for the bot tests."""
