"""``--json``: the seat's log for scripts, one JSON object per line with the raw figures
(the format is documented in ``docs/text-mode.md`` and kept stable).

Each event is ``{"event": NAME, ...its fields}``: NAME the event's kind in snake case
(``card_played``), its fields as the table holds them (seats by number, cards in the
record notation ``QD``, a suit by its letter, a deal's summary as ``verify --json`` has
it).  A field of a kind this format does not carry is left out.  The prompts are
objects too (``{"prompt": ...}``), and ``JsonLines`` turns any other line the program
prints (the lobby, the end) into ``{"event": "text", "text": LINE}``.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import json
import re
from collections.abc import Sequence
from typing import TextIO

from p2pbelka.cards import Card, Suit
from p2pbelka.peer.chat import ChatLine
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move, PlayCard
from p2pbelka.table.session import Table

_SKIP = object()
"""A value this format does not carry (a question's answer channel, say)."""


def _raw(value: object) -> object:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, PlayCard):
        return str(value.card)
    if isinstance(value, Move):
        return str(value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, enum.Enum):
        return _raw(value.value)
    if isinstance(value, list | tuple):
        return [v for v in (_raw(x) for x in value) if v is not _SKIP]
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    return _SKIP


def _fields(value: object) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        raw = _raw(getattr(value, f.name))
        if raw is not _SKIP:
            out[f.name] = raw
    return out


def _kind(event: object) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).lower()


def event_object(event: ev.Event) -> dict[str, object]:
    """The event as one JSON object: its kind, then its fields."""
    return {"event": _kind(event), **(_fields(event) if dataclasses.is_dataclass(event) else {})}


def _line(obj: dict[str, object]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class JsonWords:
    """The seat's log as JSON lines (a :class:`~p2pbelka.peer.text.Words`)."""

    def describe(self, event: ev.Event, table: Table) -> str:
        return _line(event_object(event))

    def chat_line(self, line: ChatLine) -> str:
        return _line({"event": "chat", **_fields(line)})

    def offer_choices(self, back: bool, later: bool = False) -> str:
        prompt = {"prompt": "seat_offer", "answers": ["y", "n"], "back": back, "later": later}
        return _line(prompt)

    def arrange(self, moves: Sequence[Move]) -> list[Move]:
        return list(moves)  # as the event lists them: the numbers scripts type

    def choices(self, moves: Sequence[Move]) -> str:
        return _line({"prompt": "move", "moves": _raw(list(moves))})

    def move_label(self, move: Move) -> str:
        return str(move)

    def no_input(self) -> str:
        return _line({"prompt": "no_input"})

    def type_choice(self, options: int) -> str:
        return _line({"prompt": "again", "options": options})

    def no_chat(self) -> str:
        return _line({"prompt": "no_chat"})

    def chat_not_sent(self, why: str) -> str:
        return _line({"prompt": "chat_not_sent", "why": why})


class JsonLines(io.TextIOBase):
    """A text stream every line of which is one JSON object: a line that is one already
    (the events', a prompt's, ``--stats``) goes through as it is, any other is wrapped
    as ``{"event": "text", "text": LINE}``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending += text
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            self.out.write(self._as_json(line) + "\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()

    @staticmethod
    def _as_json(line: str) -> str:
        stripped = line.strip()
        if stripped.startswith("{"):
            try:
                json.loads(stripped)
            except ValueError:
                pass
            else:
                return stripped
        return _line({"event": "text", "text": line})
