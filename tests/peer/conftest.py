"""Fixtures for the peer drivers."""
