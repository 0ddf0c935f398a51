"""A deal's summary as the table reports it, for tests of the pages drawn from it."""

from __future__ import annotations

from typing import Any

from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.table.events import Fault
from p2pbelka.ui.view import DealEnd


def summary(**changes: Any) -> DealEnd:
    """A deal as a page shows it: the summary's JSON with ``changes`` read back, and
    the ``faults`` charged in it."""
    base: dict[str, object] = {
        "number": 0,
        "dealer": 3,
        "trump": "C",
        "trump_team": 0,
        "hands": ["JC AC", "7D 8D", "9H TH", "KS QS"],
        "redeal_claim": None,
        "tricks": [{"leader": 0, "cards": "JC 7D 9H KS", "winner": 0}],
        "card_points": [70, 50],
        "awarded": [1, 0],
        "score": [1, 0],
        "offenses": [],
        "notes": [],
        "cards_checked": 32,
    }
    faults: list[Fault] = changes.pop("faults", [])
    return DealEnd(BelkaSummary.from_json({**base, **changes}), tuple(faults))
