"""Loading a game's compiled search, and the table it keeps (no numba needed here).

:func:`load` imports a kernel module when numba is installed and the compiled path
is not switched off (``P2PBELKA_NO_JIT=1`` in the environment), else gives None: the
game's solver then calls its pure-Python search, which gives the same values.
:class:`Kernels` does it on the first search of the process.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType
from typing import Any


def load(module: str) -> ModuleType | None:
    """The kernel module ``module``, or None without numba or with the path switched off."""
    if os.environ.get("P2PBELKA_NO_JIT") or importlib.util.find_spec("numba") is None:
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None  # numba there but unusable (say, built for another NumPy)


class Kernels:
    """A kernel module :func:`load`-ed on first use, not when the bots are imported:
    numba's import is most of a peer program's start-up (about 0.25 s of CPU), and
    most programs (random and heuristic seats, watchers, ``verify``) never search."""

    def __init__(self, module: str) -> None:
        self.module = module
        self._tried = False
        self._loaded: ModuleType | None = None

    def get(self) -> ModuleType | None:
        """The module, or None when the search runs in pure Python here."""
        if not self._tried:
            self._loaded, self._tried = load(self.module), True
        return self._loaded


class Table:
    """A process's transposition table for a compiled search: ``2**bits`` rows of four
    words, a stamp counter for the solves that write it, and a node counter."""

    def __init__(self, bits: int) -> None:
        import numpy as np

        self.tt: Any = np.zeros((1 << bits, 4), dtype=np.int64)
        self.stamp = 0
        self.nodes: Any = np.zeros(1, dtype=np.int64)


class KeptTable:
    """A process's one :class:`Table` for a game's compiled search, made on first use."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self._table: Table | None = None

    def get(self) -> Table:
        if self._table is None:
            self._table = Table(self.bits)
        return self._table

    def nodes(self) -> int:
        """Nodes the search has visited in this process so far."""
        return 0 if self._table is None else int(self._table.nodes[0])
