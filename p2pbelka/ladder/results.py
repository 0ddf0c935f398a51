"""A certified result as the ladder counts it: who sat on which side, and the order
the sides finished in (pure data, the same on every machine for one certificate)."""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.ladder.certificate import Certificate
from p2pbelka.rules.registry import spec


@dataclass(frozen=True, slots=True)
class Seat:
    key: bytes
    name: str
    side: int
    rank: int
    """0 for a side that won, 1 for one that lost (sides of one rank are tied)."""


@dataclass(frozen=True, slots=True)
class Result:
    game_id: bytes
    game: str
    at: int
    seats: tuple[Seat, ...]

    @property
    def order(self) -> tuple[int, bytes]:
        """The canonical order every machine counts results in: by date, then by id."""
        return (self.at, self.game_id)

    def sides(self) -> list[list[Seat]]:
        """The seats of each side, by side."""
        out: list[list[Seat]] = [[] for _ in range(1 + max(s.side for s in self.seats))]
        for seat in self.seats:
            out[seat.side].append(seat)
        return out


def result_of(certificate: Certificate) -> Result:
    """What a certificate counts for: the winning side first and every other tied after
    it; or, for a proven fault, every side with a proven seat after every side without."""
    setup = certificate.setup
    teams = spec(setup.game).teams(len(setup.seats))
    outcome = certificate.outcome
    seats: dict[int, Seat] = {}
    for side, members in enumerate(teams):
        if outcome.winner is not None:
            rank = 0 if side == outcome.winner else 1
        else:
            rank = 1 if set(members) & set(outcome.proven) else 0
        for seat in members:
            info = setup.seats[seat]
            seats[seat] = Seat(info.key, info.name, side, rank)
    in_order = tuple(seats[n] for n in range(len(setup.seats)))
    return Result(certificate.game_id, setup.game, certificate.at, in_order)
