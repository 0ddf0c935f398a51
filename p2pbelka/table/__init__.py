"""One seat's game as a sans-IO state machine: see ``session.Table``.

``flow.py`` is the transition table (the life of a deal), ``belka.py`` the
game Belka as the table drives it, ``track.py`` what any game provides.
"""

from p2pbelka.table.errors import MoveRefused, OrderError, TableError
from p2pbelka.table.moves import Move, PlayCard
from p2pbelka.table.phase import Phase
from p2pbelka.table.session import Table

__all__ = [
    "Move",
    "MoveRefused",
    "OrderError",
    "Phase",
    "PlayCard",
    "Table",
    "TableError",
]
