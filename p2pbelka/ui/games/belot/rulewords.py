"""Belot's name and rules in the screen's language, for the lobby and the text lines
that show them: the option names and values of ``rules/belot/options.py`` in words."""

from __future__ import annotations

from p2pbelka.ui.words.i18n import _


def words() -> dict[str, str]:
    """ "" the game; "NAME" a rule; "NAME=VALUE" a value (see ``GameUI.words``)."""
    return {
        "": _("Belot"),
        "preset=classic": _("classic"),
        "hanging_twice": _("two hanging baits"),
        "hanging_twice=together": _("paid together"),
        "hanging_twice=one_each": _("one deal each"),
        "four_eights": _("four eights"),
        "four_eights=0": _("not counted"),
        "four_sevens": _("four sevens"),
        "four_sevens=0": _("not counted"),
    }
