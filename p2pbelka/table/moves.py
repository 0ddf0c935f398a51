"""The moves the table core knows: any game's :class:`Move` and :class:`PlayCard`.

A game's own moves are in its rules package (``p2pbelka.rules.<game>.moves``).
"""

from p2pbelka.rules.common.moves import Move, PlayCard

__all__ = ["Move", "PlayCard"]
