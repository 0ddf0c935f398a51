"""A Belka deal's summary: the deal as players read it afterwards (and as ``verify``
prints it), written once by :func:`summarize` when the deal is audited."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pbelka.cards import CARDS, Card, Suit, format_cards, from_mask
from p2pbelka.rules.belka.game import SEATS, DealResult
from p2pbelka.rules.common.summary import JsonObject, TrickSummary

FIELDS = (
    "number", "dealer", "trump", "trump_team", "hands", "redeal_claim", "tricks",
    "card_points", "awarded", "score", "offenses", "notes", "cards_checked",
)  # fmt: skip
"""The JSON fields, in the order written."""

TEAMS = 2


@dataclass(frozen=True, slots=True)
class BelkaSummary:
    """One audited Belka deal.  ``hands``: as dealt, by seat; ``redeal_claim``: the seat
    that claimed a re-deal (the deal has no tricks then), else None; ``card_points``,
    ``awarded`` (game points or eyes) and ``score`` by team; ``offenses``: the reneges
    the rules charged, in words; ``notes``: what else happened, in words."""

    number: int
    dealer: int
    trump: Suit
    trump_team: int
    hands: tuple[tuple[Card, ...], ...]
    redeal_claim: int | None
    tricks: tuple[TrickSummary, ...]
    card_points: tuple[int, ...]
    awarded: tuple[int, ...]
    score: tuple[int, ...]
    offenses: tuple[str, ...]
    notes: tuple[str, ...]
    cards_checked: int

    def to_json(self) -> dict[str, object]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "trump": self.trump.letter,
            "trump_team": self.trump_team,
            "hands": [format_cards(h) for h in self.hands],
            "redeal_claim": self.redeal_claim,
            "tricks": [t.to_json() for t in self.tricks],
            "card_points": list(self.card_points),
            "awarded": list(self.awarded),
            "score": list(self.score),
            "offenses": list(self.offenses),
            "notes": list(self.notes),
            "cards_checked": self.cards_checked,
        }

    @classmethod
    def from_json(cls, value: object, path: str = "") -> BelkaSummary:
        """The summary ``to_json`` gave; ``RecordError`` naming the path of a bad field."""
        obj = JsonObject.of(value, path, FIELDS)
        return cls(
            number=obj.integer("number"),
            dealer=obj.seat("dealer", SEATS),
            trump=obj.suit("trump"),
            trump_team=obj.seat("trump_team", TEAMS),
            hands=obj.hands("hands", SEATS),
            redeal_claim=obj.optional_seat("redeal_claim", SEATS),
            tricks=tuple(TrickSummary.from_json(v, p, SEATS) for v, p in obj.items("tricks")),
            card_points=obj.integers("card_points", TEAMS),
            awarded=obj.integers("awarded", TEAMS),
            score=obj.integers("score", TEAMS),
            offenses=obj.texts("offenses"),
            notes=obj.texts("notes"),
            cards_checked=obj.integer("cards_checked"),
        )

    def _kind(self) -> str:
        return "re-deal" if self.redeal_claim is not None else f"trump {self.trump.letter}"

    def _points(self) -> str:
        return (
            f"card points {list(self.card_points)}, awarded {list(self.awarded)},"
            f" score {list(self.score)}"
        )

    def line(self, verified: bool = False) -> str:
        checked = "shuffle and 32 cards verified, " if verified else ""
        return f"dealer {self.dealer}, {self._kind()}, {checked}{self._points()}"

    def log_line(self) -> str:
        return f"{self._kind()}, {self._points()}"


def summarize(result: DealResult, hands: Sequence[int]) -> BelkaSummary:
    """The summary of a scored deal whose hands (masks, by seat) the audit found."""
    return BelkaSummary(
        number=result.number,
        dealer=result.dealer,
        trump=result.trump,
        trump_team=result.trump_team,
        hands=tuple(tuple(from_mask(h)) for h in hands),
        redeal_claim=result.redeal_claim,
        tricks=tuple(TrickSummary.of(t) for t in result.tricks),
        card_points=tuple(result.card_points),
        awarded=tuple(result.awarded),
        score=tuple(result.score),
        offenses=tuple(f"seat {o.seat}: {o.rule} with {o.card}" for o in result.offenses),
        notes=tuple(result.notes),
        cards_checked=len(result.plays) or len(CARDS),
    )
