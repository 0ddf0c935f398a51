"""Setting up deals: the draw of the first dealer and, per deal, the deck and the local
seat's secrets."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LotDraw:
    """The commit-reveal draw of the first dealer."""

    commits: dict[int, bytes] = field(default_factory=dict)
    values: dict[int, bytes] = field(default_factory=dict)
    mine: bytes | None = None
