"""Presets and options by name, with clear errors."""

from __future__ import annotations

import pytest

from p2pbelka.rules.belka import CHOICES, PRESETS, OptionError, Options, options_from


def test_presets() -> None:
    classic = options_from()
    assert classic == options_from("classic")
    assert classic.scoring == "classic" and classic.eggs == "plus4" and classic.goli == "wins_game"
    assert classic.trump_order == "HSD" and classic.no_unled_ace_discard == "off"
    eyes = options_from("eyes")
    assert eyes.eyes and eyes.eggs == "four" and eyes.all_tricks == "wins_game"
    assert set(PRESETS) == {"classic", "eyes"}
    for preset in PRESETS:
        assert options_from(preset).changes() == {}


def test_every_option_switchable_by_name() -> None:
    for name, values in CHOICES.items():
        for value in values:
            opts = options_from("classic", {name: value})
            assert getattr(opts, name) == value
            assert opts.to_dict()[name] == value


def test_overrides() -> None:
    opts = options_from("classic", {"eggs": "double", "no_unled_ace_discard": "on"})
    assert opts.eggs == "double" and opts.ace_rule
    assert opts.changes() == {"eggs": "double", "no_unled_ace_discard": "on"}
    assert opts.preset == "classic"


@pytest.mark.parametrize(
    ("preset", "overrides", "words"),
    [
        ("belot", {}, ["unknown preset", "classic, eyes"]),
        ("classic", {"egs": "double"}, ["unknown option 'egs'", "eggs"]),
        ("classic", {"eggs": "triple"}, ["option eggs", "'triple'", "plus4, four, double, none"]),
        ("classic", {"no_unled_ace_discard": "yes"}, ["off, on"]),
        ("eyes", {"trump_order": "hsd"}, ["HSD, DSH"]),
    ],
)
def test_errors_name_the_allowed_values(
    preset: str, overrides: dict[str, str], words: list[str]
) -> None:
    with pytest.raises(OptionError) as info:
        options_from(preset, overrides)
    for word in words:
        assert word in str(info.value)


def test_values_must_be_strings() -> None:
    with pytest.raises(OptionError, match="must be a string"):
        options_from("classic", {"first_deal_two": True})  # type: ignore[dict-item]
    with pytest.raises(OptionError):
        Options(eggs="x")
