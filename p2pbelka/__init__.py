"""p2pbelka: Belka and Belot on a local network, dealt fairly with no trusted dealer."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping

__version__ = "0.1.0"


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """A package's ``__getattr__`` (PEP 562) for the names it re-exports: ``homes`` maps
    each name to its module (relative to ``package``: ``.events``), loaded when the name
    is first asked for.  Every command starts a process, and one that needs a single
    module of a package (``table.events``, ``net.identity``) should not pay for the whole
    package at its start."""

    def load(name: str) -> object:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(homes[name], package), name)

    return load
