"""Exceptions of the fair-dealing deck.

Every exception raised on data that came from another peer is a
:class:`FairDealError`, never a raw libsodium/PyNaCl error, so a caller can
catch one type and blame the peer that sent the data.
"""

from __future__ import annotations


class FairDealError(Exception):
    """Base class: something received from a peer is not acceptable."""


class BadPoint(FairDealError, ValueError):
    """Not a valid element of the prime-order group (wrong type or length,
    not canonical, not on the curve, small order, identity)."""


class BadScalar(FairDealError, ValueError):
    """Not a canonical non-zero scalar (wrong type or length, >= the group order, zero)."""


class BadDeck(FairDealError):
    """A published deck (a pass output) fails a cheap check.

    ``position`` is the first offending position, or ``None`` when the deck as a
    whole is wrong (its length).
    """

    def __init__(self, reason: str, position: int | None = None) -> None:
        super().__init__(reason if position is None else f"position {position}: {reason}")
        self.reason = reason
        self.position = position


class BadShare(FairDealError):
    """A key share sent by ``seat`` for ``position`` is not a valid scalar."""

    def __init__(self, seat: int, position: int, reason: str) -> None:
        super().__init__(f"share of seat {seat} for position {position}: {reason}")
        self.seat = seat
        self.position = position
        self.reason = reason


class NotACard(FairDealError):
    """A position, with all shares applied, is not one of the card points.

    Without per-step proofs this cannot be blamed on a seat at once; the
    end-of-deal audit names the seat whose pass or share was wrong.
    """

    def __init__(self, position: int) -> None:
        super().__init__(f"position {position} does not open to a card")
        self.position = position
