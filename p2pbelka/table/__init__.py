"""One seat's game as a sans-IO state machine: see ``session.Table``.

The core: ``flow.py`` is the transition table of the phases every game shares (the
life of a deal), ``phase.py`` what a phase is made of, ``context.py`` what a phase's
code sees of its table, ``state.py`` the object it sees (``TableState``),
``track.py`` what any game provides, ``session.py`` the table's face over its parts
(``chains.py``, ``blame.py``, ``runner.py``, ``state.py``, ``dealsetup.py``,
``opening.py``), ``replay.py`` a transcript fed to it in order, ``segments.py`` a game
of several segments; ``events.py`` holds the events every game shares.  The games sit
beside the core, each in its own folder ``games/<game>/``: its track and its own phases
(``track.py``) and its own events (``events.py``, which screens and bots import without
the phases); ``registry.py`` lists them by the name their rules go by, and the core
imports none of them.
"""

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from p2pbelka.table.errors import MoveRefused, OrderError, TableError
    from p2pbelka.table.moves import Move, PlayCard
    from p2pbelka.table.phase import Phase
    from p2pbelka.table.session import Table

# each name loads its module when first asked for (PEP 562): see ``lazy_names``
__getattr__ = lazy_names(
    __name__,
    {
        "MoveRefused": ".errors",
        "OrderError": ".errors",
        "TableError": ".errors",
        "Move": ".moves",
        "PlayCard": ".moves",
        "Phase": ".phase",
        "Table": ".session",
    },
)

__all__ = [
    "Move",
    "MoveRefused",
    "OrderError",
    "Phase",
    "PlayCard",
    "Table",
    "TableError",
]
