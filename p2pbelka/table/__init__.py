"""One seat's game as a sans-IO state machine: see ``session.Table``.

``flow.py`` is the transition table (the life of a deal), ``belka.py`` the
game Belka as the table drives it, ``track.py`` what any game provides.
"""

from p2pbelka.table.errors import MoveRefused, OrderError, TableError
from p2pbelka.table.moves import ChooseEggs, ClaimRedeal, Move, PlayCard, Ready
from p2pbelka.table.phase import Phase
from p2pbelka.table.session import Table

__all__ = [
    "ChooseEggs",
    "ClaimRedeal",
    "Move",
    "MoveRefused",
    "OrderError",
    "Phase",
    "PlayCard",
    "Ready",
    "Table",
    "TableError",
]
