"""A game's name and its rules in the player's language: what each game's screen
says of them (``GameUI.words``), with the words of the wire where it says nothing
(a game from outside, a rule newer than its words)."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.rules import registry as rules
from p2pbelka.rules import rulebook
from p2pbelka.ui.words.i18n import _


def _words(game: str) -> Mapping[str, str]:
    from p2pbelka.ui import registry  # the games' words: only when words are wanted

    try:
        return registry.words(game).words()
    except ValueError:
        return {}


def game_word(game: str) -> str:
    """``Белка``: the game as players of the language call it."""
    found = _words(game).get("")
    if found:
        return found
    try:
        return rules.spec(game).title
    except ValueError:
        return game


def rule_word(game: str, name: str) -> str:
    if name == "preset":
        return _("rules")
    return _words(game).get(name) or name


def value_word(game: str, name: str, value: str) -> str:
    words = _words(game)
    found = words.get(f"{name}={value}")
    if found:
        return found
    if value in ("on", "off"):
        return _("yes") if value == "on" else _("no")
    return value


def rule_values(game: str, preset: str, options: Mapping[str, str]) -> list[tuple[str, str]]:
    """Every rule of a table as (name, value) on the wire, the preset first."""
    try:
        values = rulebook.resolved(game, preset, options)
    except ValueError:  # a lobby checked on arrival: not expected
        values = dict(options)
    return [("preset", preset), *values.items()]


def changes(game: str, before: list[tuple[str, str]], after: list[tuple[str, str]]) -> list[str]:
    """Each rule that differs, in words: ``60:60 (eggs): +4 or the title → doubled``."""
    old = dict(before)
    out = []
    for name, value in after:
        if old.get(name) != value:
            was = value_word(game, name, old[name]) if name in old else "-"
            now = value_word(game, name, value)
            out.append(f"{rule_word(game, name)}: {was} → {now}")
    return out
