"""What the text logs ask of a game: its own events and deal summaries in words, a hand
in the order its screen shows it, the names of its rules.

A game's :class:`GameWords` is the part of its screen (:class:`~p2pbelka.ui.gameui.GameUI`)
that needs no screen library: a text or bot seat, a watcher in text, ``verify`` ask
``ui/registry.py`` for these alone and never load prompt_toolkit (about a tenth of a
CPU-second at each start) nor the game's screen.  A built-in game keeps its own in
``ui/games/<game>/logwords.py``; its screen takes the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table import events as ev


def no_words() -> Mapping[str, str]:
    return {}


def no_event_words(event: ev.GameEvent, names: Sequence[str]) -> str | None:
    return None


def no_summary_words(summary: DealSummary, names: Sequence[str]) -> str | None:
    return None


def by_suit(cards: list[Card], trump: Suit | None) -> list[Card]:
    return sorted(cards, key=lambda c: c.index)


@dataclass(frozen=True)
class GameWords:
    """One game in the text logs (see :class:`~p2pbelka.ui.gameui.GameUI`'s fields of
    the same names)."""

    name: str
    event_line: Callable[[ev.GameEvent, Sequence[str]], str | None] = no_event_words
    summary_line: Callable[[DealSummary, Sequence[str]], str | None] = no_summary_words
    sort_hand: Callable[[list[Card], Suit | None], list[Card]] = by_suit
    words: Callable[[], Mapping[str, str]] = no_words
