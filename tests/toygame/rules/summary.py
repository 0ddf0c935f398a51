"""Toy's deal summary: the hands, the tricks and what each seat took."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from p2pbelka.cards import Card, format_cards, from_mask
from p2pbelka.rules.common.summary import JsonObject, TrickSummary
from tests.toygame.rules import game as rules


@dataclass(frozen=True, slots=True)
class ToySummary:
    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    tricks: tuple[TrickSummary, ...]
    won: tuple[int, ...]

    @classmethod
    def of(cls, deal: rules.ToyDeal, hands: Sequence[int]) -> ToySummary:
        return cls(
            deal.number,
            deal.dealer,
            tuple(tuple(from_mask(h)) for h in hands),
            tuple(TrickSummary.of(t) for t in deal.tricks),
            deal.won(),
        )

    @property
    def cards_checked(self) -> int:
        return sum(len(t.cards) for t in self.tricks)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "hands": [format_cards(h) for h in self.hands],
            "tricks": [t.to_json() for t in self.tricks],
            "won": list(self.won),
        }

    @classmethod
    def from_json(cls, value: object, path: str = "") -> ToySummary:
        obj = JsonObject.of(value, path, ("number", "dealer", "hands", "tricks", "won"))
        seats = rules.SEATS
        return cls(
            obj.integer("number"),
            obj.seat("dealer", seats),
            obj.hands("hands", seats),
            tuple(TrickSummary.from_json(v, p, seats) for v, p in obj.items("tricks")),
            obj.integers("won", seats),
        )

    def line(self, verified: bool = False) -> str:
        checked = f", {self.cards_checked} cards checked" if verified else ""
        return f"deal {self.number + 1}: tricks {self.won[0]}:{self.won[1]}{checked}"

    def log_line(self) -> str:
        return f"tricks {self.won[0]}:{self.won[1]}"
