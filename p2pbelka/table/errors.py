"""Errors of the table: one root, a family for the local player, one for what peers send.

Modelled on ``net/errors.py``.  Nothing a peer sends raises out of
``Table.receive``: a bad envelope becomes a ``Rejected`` event, a proven fault
a ``Fault``.  These exceptions are for the local side (a move the table will
not make) and for transcripts replayed in order (``verify``, resume).
"""

from __future__ import annotations


class TableError(Exception):
    """Root of every error the table raises."""


class MoveRefused(TableError, ValueError):
    """The local player's move is not one the table can make now (not asked, or illegal)."""


class OrderError(TableError, ValueError):
    """A replayed transcript whose envelopes are not in the canonical order, or do not apply."""
