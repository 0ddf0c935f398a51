"""A registry's built-in entries may be made when first asked for (``ByName``'s loaders):
the names are known from the start, in order, and behave as the other built-in ones."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2pbelka.rules.common.byname import ByName


def _registry(made: list[str]) -> ByName[str]:
    def loader(name: str) -> Callable[[], str]:
        def load() -> str:
            made.append(name)
            return name.upper()

        return load

    return ByName(
        {"first": "FIRST"},
        loaders={"second": loader("second"), "third": loader("third")},
        taken="{name} taken",
        unknown="no {name} (known: {known})",
    )


def test_an_entry_is_made_when_its_name_is_first_asked_for() -> None:
    made: list[str] = []
    games = _registry(made)
    assert games.names() == ("first", "second", "third") and made == []
    assert games.get("third") == "THIRD" and made == ["third"]
    assert games.find("third") == "THIRD" and made == ["third"]  # once
    assert games.values() == ("FIRST", "SECOND", "THIRD") and made == ["third", "second"]


def test_an_entry_made_late_is_built_in_all_the_same() -> None:
    games = _registry([])
    with pytest.raises(ValueError, match="second taken"):
        games.add("second", "OTHER")
    games.add("second", "SECOND")  # the same entry again: nothing happens
    games.remove("second")
    assert games.get("second") == "SECOND"
    games.add("toy", "TOY")
    assert games.names() == ("first", "second", "third", "toy")
    games.remove("toy")
    with pytest.raises(ValueError, match=r"no toy \(known: first, second, third\)"):
        games.get("toy")
