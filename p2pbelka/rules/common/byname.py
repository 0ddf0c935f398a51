"""Entries by a game's name: what each layer's registry keeps (the rules' specs, the
table's tracks and phases, the bots), with the same rules everywhere.

The built-in games' entries are there from the start and stay (an entry may be given
as the function that makes it, called when the game is first asked for: a process
that plays one game need not load the others'); a game from outside (a test's toy
game) is added and taken away again.  Adding under a name taken by a
different entry is refused; a lookup of an unknown name says which names are known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class ByName(Generic[T]):
    def __init__(
        self,
        built_in: Mapping[str, T],
        *,
        taken: str,
        unknown: str,
        loaders: Mapping[str, Callable[[], T]] | None = None,
    ) -> None:
        """``taken`` and ``unknown``: the messages of a refused ``add`` and of a failed
        ``get``, formatted with ``name`` (and ``known``, the names joined).  ``loaders``:
        built-in entries made on first use, after those of ``built_in``."""
        self._entries: dict[str, T] = dict(built_in)
        self._loaders = {n: load for n, load in (loaders or {}).items() if n not in built_in}
        self._order = [*built_in, *self._loaders]  # the built-in names, loaded or not
        self._built_in = frozenset(self._order)
        self._taken = taken
        self._unknown = unknown

    def _load(self, name: str) -> None:
        load = self._loaders.pop(name, None)
        if load is not None:
            self._entries[name] = load()

    def add(self, name: str, entry: T) -> None:
        """Add ``entry`` (again: nothing happens); ``ValueError`` if another has ``name``."""
        self._load(name)
        known = self._entries.get(name)
        if known is not None and known is not entry and known != entry:
            raise ValueError(self._taken.format(name=name))
        self._entries[name] = entry
        if name not in self._order:
            self._order.append(name)

    def remove(self, name: str) -> None:
        """Forget an entry added with :meth:`add` (the built-in ones stay)."""
        if name not in self._built_in:
            self._entries.pop(name, None)
            if name in self._order:
                self._order.remove(name)

    def names(self) -> tuple[str, ...]:
        """Every name, the built-in ones first, the others in the order they came."""
        return tuple(self._order)

    def values(self) -> tuple[T, ...]:
        """Every entry (the built-in ones not made yet are made now)."""
        for name in list(self._loaders):
            self._load(name)
        return tuple(self._entries[name] for name in self._order)

    def find(self, name: str) -> T | None:
        self._load(name)
        return self._entries.get(name)

    def get(self, name: str) -> T:
        """The entry of ``name``; ``ValueError`` naming the names known."""
        self._load(name)
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(self._order)
            raise ValueError(self._unknown.format(name=name, known=known)) from None
