"""Belka's name and rules in the screen's language, for the lobby and the text lines
that show them: the option names and values of ``rules/belka/options.py`` in words."""

from __future__ import annotations

from p2pbelka.ui.words.i18n import _


def words() -> dict[str, str]:
    """ "" the game; "NAME" a rule; "NAME=VALUE" a value (see ``GameUI.words``)."""
    return {
        "": _("Belka"),
        "preset=classic": _("classic"),
        "preset=eyes": _("eyes"),
        "scoring": _("scoring"),
        "scoring=classic": _("classic count"),
        "scoring=eyes": _("eyes"),
        "trump_order": _("suits after ♣"),
        "trump_order=HSD": "♥ ♠ ♦",  # the suits themselves: the same in every language
        "trump_order=DSH": "♦ ♠ ♥",
        "first_lead": _("first lead"),
        "first_lead=after_dealer": _("after the dealer"),
        "first_lead=before_dealer": _("before the dealer"),
        "no_unled_ace_discard": _("no ace thrown off"),
        "goli": _("120 (goli)"),
        "goli=wins_game": _("wins the game"),
        "goli=continues": _("a game won, play on"),
        "goli=off": _("an ordinary win"),
        "eggs": _("60:60 (eggs)"),
        "eggs=plus4": _("+4 or the title"),
        "eggs=four": _("exactly 4"),
        "eggs=double": _("doubled"),
        "eggs=none": _("nothing"),
        "first_deal_two": _("first deal: 2"),
        "all_tricks": _("all eight tricks"),
        "all_tricks=off": _("an ordinary win"),
        "all_tricks=wins_game": _("wins the game"),
    }
