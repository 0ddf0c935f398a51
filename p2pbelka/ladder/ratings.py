"""Ratings: a pure function of the results, the same numbers on every machine.

The rating system is OpenSkill's Plackett-Luce model (the ``openskill`` library;
docs/playing.md says why): it rates teams, so a Belka result updates both partners
of each side, and a Belot game of three is one result with three sides.  Results are
rated one by one in the canonical order (by date, then by game id), each player from
the prior every machine starts from, so two ledgers holding the same results give the
same floating-point numbers, and the same printed ones.  A player's rating is the
model's conservative estimate (mu - 3 sigma, ``ordinal``): it rises with games won and
with games played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from p2pbelka.ladder.results import Result


@dataclass
class Row:
    """One player (or, for ``pairs``, one partnership) on the ladder of one game."""

    keys: tuple[bytes, ...]
    names: tuple[str, ...] = ()
    rating: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    games: int = 0
    wins: int = 0
    last: int = 0
    """The date of the last result counted (seconds since 1970, UTC)."""

    def to_json(self) -> dict[str, object]:
        return {
            "keys": [k.hex() for k in self.keys],
            "names": list(self.names),
            "rating": round(self.rating, 2),
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "games": self.games,
            "wins": self.wins,
            "last": self.last,
        }


@dataclass
class Record:
    """One's games against one opponent (``--me``)."""

    key: bytes
    name: str = ""
    games: int = 0
    wins: int = 0
    losses: int = 0
    last: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key.hex(),
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "last": self.last,
        }


def canonical(results: Iterable[Result]) -> list[Result]:
    """The results in the one order every machine rates them in (a game counted once)."""
    by_id = {r.game_id: r for r in results}
    return sorted(by_id.values(), key=lambda r: r.order)


def ladder(results: Iterable[Result], pairs: bool = False) -> list[Row]:
    """The players of the results (one game's), best first; ``pairs``: partnerships
    (the seats of one side, rated as one entity) instead of players."""
    model = PlackettLuce()
    rows: dict[tuple[bytes, ...], Row] = {}
    ratings: dict[tuple[bytes, ...], PlackettLuceRating] = {}
    for result in canonical(results):
        sides = result.sides()
        entities: list[list[tuple[bytes, ...]]] = [[(s.key,) for s in side] for side in sides]
        if pairs:
            entities = [[tuple(sorted(s.key for s in side))] for side in sides]
        teams = [[_rating(model, ratings, e) for e in side] for side in entities]
        ranks = [float(side[0].rank) for side in sides]
        updated = model.rate(teams, ranks=ranks)
        someone_lost = len(set(ranks)) > 1
        for side, team, new_team in zip(sides, entities, updated, strict=True):
            for entity, new in zip(team, new_team, strict=True):
                ratings[entity] = new
                row = rows.setdefault(entity, Row(entity))
                row.games += 1
                row.wins += someone_lost and side[0].rank == 0
                row.last = result.at
                by_key = {s.key: s.name for s in side}
                row.names = tuple(by_key[k] for k in entity)
    for entity, row in rows.items():
        rated = ratings[entity]
        row.mu, row.sigma, row.rating = rated.mu, rated.sigma, rated.ordinal()
    return sorted(rows.values(), key=lambda r: (-r.rating, r.keys))


def _rating(
    model: PlackettLuce,
    ratings: dict[tuple[bytes, ...], PlackettLuceRating],
    entity: tuple[bytes, ...],
) -> PlackettLuceRating:
    """The entity's rating so far, or the prior every machine starts from."""
    if entity not in ratings:
        ratings[entity] = model.rating()
    return ratings[entity]


def history(results: Sequence[Result], me: bytes) -> list[Record]:
    """``me``'s record against each opponent it met (a seat of another side), most
    games first."""
    records: dict[bytes, Record] = {}
    for result in canonical(results):
        mine = next((s for s in result.seats if s.key == me), None)
        if mine is None:
            continue
        for other in result.seats:
            if other.side == mine.side:
                continue
            record = records.setdefault(other.key, Record(other.key))
            record.name = other.name
            record.games += 1
            record.wins += mine.rank < other.rank
            record.losses += mine.rank > other.rank
            record.last = result.at
    return sorted(records.values(), key=lambda r: (-r.games, r.name, r.key))
