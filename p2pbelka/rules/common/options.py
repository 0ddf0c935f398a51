"""The error every game's options raise."""

from __future__ import annotations


class OptionError(ValueError):
    """An unknown preset, option name or option value."""
