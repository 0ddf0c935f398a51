"""A deal's summary, whatever the game: what every game's summary offers, and the
pieces and JSON readers the games' summaries share.

Each game writes its own summary once, when a deal is audited (a frozen dataclass
in ``rules/<game>/summary.py``), and everything after reads its attributes: the
pages, the replay, ``verify`` and the text front end.  Code that handles any game's
summary uses :class:`DealSummary` only; a saved summary is read back by the game's
``GameSpec.summary_from_json``.  ``to_json`` gives the summary as ``verify --json``
prints it and a replay reads it; ``from_json`` is its inverse and refuses malformed
input with a :class:`~p2pbelka.rules.common.recordio.RecordError` naming the JSON
path (a summary may come from a saved file).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from p2pbelka.cards import Card, CardParseError, Suit, format_cards, parse_cards
from p2pbelka.rules.common.play import Trick
from p2pbelka.rules.common.recordio import RecordError, expect


class DealSummary(Protocol):
    """One audited deal as players read it afterwards, any game's."""

    @property
    def number(self) -> int:
        """The deal's number in the game, from 0."""
        ...

    @property
    def dealer(self) -> int: ...

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's hand as dealt (the first cards, in a game that deals twice)."""
        ...

    @property
    def cards_checked(self) -> int:
        """How many cards the audit checked against the seeds."""
        ...

    def to_json(self) -> dict[str, object]:
        """The summary as JSON (``verify --json``, the vectors, a replay's input)."""
        ...

    def line(self, verified: bool = False) -> str:
        """The deal on one line: who dealt, what was played, what it scored (``selfplay``;
        ``verified`` adds what the audit checked, as ``verify`` prints it)."""
        ...

    def log_line(self) -> str:
        """What the deal came to, shortly (the text front end's log)."""
        ...


@dataclass(frozen=True, slots=True)
class TrickSummary:
    """A finished trick: who led, the cards in play order, who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    @classmethod
    def of(cls, trick: Trick) -> TrickSummary:
        return cls(trick.leader, tuple(trick.cards), trick.winner)

    def to_json(self) -> dict[str, object]:
        return {"leader": self.leader, "cards": format_cards(self.cards), "winner": self.winner}

    @classmethod
    def from_json(cls, value: object, path: str, seats: int) -> TrickSummary:
        obj = JsonObject.of(value, path, ("leader", "cards", "winner"))
        return cls(obj.seat("leader", seats), obj.cards("cards"), obj.seat("winner", seats))


def field_path(path: str, key: str | int) -> str:
    """``path`` and then ``key``, as a JSON path (``deals[3].hands[2]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


@dataclass(frozen=True, slots=True)
class JsonObject:
    """A decoded JSON object with exactly the fields asked for, read field by field;
    every error names the field's path."""

    obj: dict[str, object]
    path: str

    @classmethod
    def of(cls, value: object, path: str, keys: Sequence[str]) -> JsonObject:
        """``value`` as an object holding each of ``keys`` and nothing else."""
        obj = expect(value, dict, path, "an object")
        for key in obj:
            if key not in keys:
                raise RecordError(field_path(path, str(key)), "unknown field")
        for key in keys:
            if key not in obj:
                raise RecordError(field_path(path, key), "missing field")
        return cls(obj, path)

    def at(self, key: str) -> str:
        return field_path(self.path, key)

    def integer(self, key: str, low: int = 0, high: int | None = None) -> int:
        """A whole number from ``low`` to ``high`` (no bound above if None)."""
        value = expect(self.obj[key], int, self.at(key), "a whole number")
        if value < low or (high is not None and value > high):
            bounds = f"{low}..{high}" if high is not None else f"at least {low}"
            raise RecordError(self.at(key), f"expected {bounds}, got {value}")
        return int(value)

    def seat(self, key: str, seats: int) -> int:
        return self.integer(key, 0, seats - 1)

    def optional_seat(self, key: str, seats: int) -> int | None:
        return None if self.obj[key] is None else self.seat(key, seats)

    def flag(self, key: str) -> bool:
        return bool(expect(self.obj[key], bool, self.at(key), "true or false"))

    def text(self, key: str) -> str:
        return str(expect(self.obj[key], str, self.at(key), "a string"))

    def choice(self, key: str, choices: Sequence[str]) -> str:
        """One of ``choices``."""
        return _choice(self.obj[key], self.at(key), choices)

    def choices(self, key: str, choices: Sequence[str]) -> tuple[str, ...]:
        """A list, each of ``choices``."""
        return tuple(_choice(v, path, choices) for v, path in self.items(key))

    def items(self, key: str, count: int | None = None) -> list[tuple[object, str]]:
        """A list's elements, each with its path (exactly ``count`` if given)."""
        what = f"a list of {count}" if count is not None else "a list"
        values = expect(self.obj[key], list, self.at(key), what)
        if count is not None and len(values) != count:
            raise RecordError(self.at(key), f"{count} items expected, got {len(values)}")
        return [(v, field_path(self.at(key), i)) for i, v in enumerate(values)]

    def integers(self, key: str, count: int | None = None) -> tuple[int, ...]:
        return tuple(_integer(v, path) for v, path in self.items(key, count))

    def texts(self, key: str) -> tuple[str, ...]:
        return tuple(str(expect(v, str, path, "a string")) for v, path in self.items(key))

    def cards(self, key: str) -> tuple[Card, ...]:
        """Cards written as one string (``"JC 7D"``)."""
        return cards_text(self.obj[key], self.at(key))

    def hands(self, key: str, count: int | None = None) -> tuple[tuple[Card, ...], ...]:
        """One string of cards per seat."""
        return tuple(cards_text(v, path) for v, path in self.items(key, count))

    def card(self, key: str) -> Card:
        found = self.cards(key)
        if len(found) != 1:
            raise RecordError(self.at(key), f"expected one card, got {len(found)}")
        return found[0]

    def suit(self, key: str) -> Suit:
        try:
            return Suit.parse(self.text(key))
        except CardParseError as exc:
            raise RecordError(self.at(key), str(exc)) from None


def _choice(value: object, path: str, choices: Sequence[str]) -> str:
    named = ", ".join(repr(c) for c in choices)
    text = str(expect(value, str, path, f"one of {named}"))
    if text not in choices:
        raise RecordError(path, f"expected one of {named}, got {text!r:.20}")
    return text


def _integer(value: object, path: str) -> int:
    return int(expect(value, int, path, "a whole number"))


def cards_text(value: object, path: str) -> tuple[Card, ...]:
    """Cards written as one string at ``path`` (``"JC 7D"``; empty for none)."""
    try:
        return tuple(parse_cards(expect(value, str, path, "a string of cards")))
    except CardParseError as exc:
        raise RecordError(path, str(exc)) from None
