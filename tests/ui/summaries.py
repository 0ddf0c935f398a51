"""A deal's summary as the table reports it, for tests of the pages drawn from it."""

from __future__ import annotations


def summary(**changes: object) -> dict[str, object]:
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
        "faults": [],
    }
    return {**base, **changes}
