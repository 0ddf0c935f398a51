"""Entries by a game's name: what each layer's registry keeps (the rules' specs, the
table's tracks and phases, the bots), with the same rules everywhere.

The built-in games' entries are there from the start and stay; a game from outside
(a test's toy game) is added and taken away again.  Adding under a name taken by a
different entry is refused; a lookup of an unknown name says which names are known.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class ByName(Generic[T]):
    def __init__(self, built_in: Mapping[str, T], *, taken: str, unknown: str) -> None:
        """``taken`` and ``unknown``: the messages of a refused ``add`` and of a failed
        ``get``, formatted with ``name`` (and ``known``, the names joined)."""
        self._entries: dict[str, T] = dict(built_in)
        self._built_in = frozenset(built_in)
        self._taken = taken
        self._unknown = unknown

    def add(self, name: str, entry: T) -> None:
        """Add ``entry`` (again: nothing happens); ``ValueError`` if another has ``name``."""
        known = self._entries.get(name)
        if known is not None and known is not entry and known != entry:
            raise ValueError(self._taken.format(name=name))
        self._entries[name] = entry

    def remove(self, name: str) -> None:
        """Forget an entry added with :meth:`add` (the built-in ones stay)."""
        if name not in self._built_in:
            self._entries.pop(name, None)

    def names(self) -> tuple[str, ...]:
        """Every name, the built-in ones first, the others in the order they came."""
        return tuple(self._entries)

    def values(self) -> tuple[T, ...]:
        return tuple(self._entries.values())

    def find(self, name: str) -> T | None:
        return self._entries.get(name)

    def get(self, name: str) -> T:
        """The entry of ``name``; ``ValueError`` naming the names known."""
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(self._entries)
            raise ValueError(self._unknown.format(name=name, known=known)) from None
