"""Shared plumbing of game records: the malformed-record error and typed JSON readers.

Each game's record module (Belka's :mod:`p2pbelka.rules.belka.records`, Belot's
:mod:`p2pbelka.rules.belot.records`) reads decoded JSON with these, so every
malformed record is reported the same way: a JSON path and what was expected.
"""

from __future__ import annotations

from typing import Any

from p2pbelka.cards import Card, CardParseError


class RecordError(ValueError):
    """A malformed record; ``path`` says where (``deals[3].hands[2][5]``)."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path or 'record'}: {message}")


def expect(value: object, kind: type, path: str, what: str) -> Any:
    """``value`` if it is a ``kind`` (bool is never an int here), else :class:`RecordError`."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(path, f"expected {what}, got {json_type(value)}")
    return value


def json_type(value: object) -> str:
    if value is None:
        return "null (or missing)"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


def seat(value: object, path: str, players: int = 4) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        got = repr(value) if isinstance(value, int) else json_type(value)
        raise RecordError(path, f"expected a seat 0..{players - 1}, got {got}")
    return value


def card(value: object, path: str) -> Card:
    try:
        if not isinstance(value, str):
            raise CardParseError(f"not a card: {value!r}")
        return Card.parse(value)
    except CardParseError as exc:
        raise RecordError(path, str(exc)) from None


def cards(
    value: object, path: str, count: int | None, taken: int, twice: str = "is dealt twice"
) -> tuple[int, list[Card]]:
    """A list of cards at ``path`` (exactly ``count`` if given), none in ``taken``
    (``twice`` says what a repeated card is).

    Returns the mask of ``taken`` with these cards added, and the cards.
    """
    what = f"a list of {count} cards" if count is not None else "a list of cards"
    items = expect(value, list, path, what)
    if count is not None and len(items) != count:
        raise RecordError(path, f"{count} cards expected, got {len(items)}")
    found = []
    for k, text in enumerate(items):
        c = card(text, f"{path}[{k}]")
        if taken & c.bit:
            raise RecordError(f"{path}[{k}]", f"{c} {twice}")
        taken |= c.bit
        found.append(c)
    return taken, found
