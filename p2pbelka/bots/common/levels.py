"""Bot levels by name: ``random``, ``heuristic``, ``strong``, and ``strong:N`` (the same
thinking N times as long), parsed once into a :class:`BotLevel`.

Which names a level may have, and which of them think at more than one level,
is a game's to say (its entry in :mod:`p2pbelka.bots.registry`); this module only
reads the text against those lists.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BotLevel:
    """A level's name and its think level (1: as the plain level thinks)."""

    name: str
    think: int = 1

    def __str__(self) -> str:
        return self.name if self.think == 1 else f"{self.name}:{self.think}"


def parse(
    text: str,
    levels: Sequence[str],
    thinking: Mapping[str, int],
    what: str = "bot level",
) -> BotLevel:
    """``"strong:3"`` -> ``BotLevel("strong", 3)``, checked against ``levels`` (the names)
    and ``thinking`` (each level that thinks at more than one level, to its highest).

    ``ValueError`` for an unknown level, a think level on a level without any, or one
    out of range; ``what`` names the kind of level in the message.
    """
    name, sep, think = text.partition(":")
    if name not in levels:
        raise ValueError(f"unknown {what} {name!r} (expected one of {', '.join(levels)})")
    if not sep:
        return BotLevel(name)
    highest = thinking.get(name)
    if highest is None:
        only = ", ".join(repr(level) for level in thinking) or "none"
        raise ValueError(f"{what} {name!r} has no think levels (only {only})")
    if not think.isdigit() or not 1 <= int(think) <= highest:
        raise ValueError(f"think level {think!r} (expected 1 to {highest})")
    return BotLevel(name, int(think))


def with_think(level: str, think: int | None, thinking: Mapping[str, int]) -> str:
    """``level`` thinking at ``think`` (``--think N``): only the levels of ``thinking`` scale,
    and 1 is the level itself; ``ValueError`` for a think level none of them reaches."""
    if think is None:
        return level
    highest = max(thinking.values(), default=1)
    if not 1 <= think <= highest:
        raise ValueError(f"--think {think} (expected 1 to {highest})")
    if level not in thinking:
        return level
    return level if think == 1 else f"{level}:{think}"


def bot_name(level: str) -> str:
    """The name a bot's seat plays under when nobody named it: its level's
    (``heuristic`` and ``heuristic:2``: "Heuristic bot"); data that travels, so English."""
    return f"{level.split(':')[0].capitalize()} bot"
