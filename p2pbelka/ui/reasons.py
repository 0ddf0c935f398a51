"""Why a host refused a joiner or closed its lobby, in the joiner's language.

The reason travels on the wire in English (host and joiner may speak different
languages), so the joiner's side words it: each reason a host of this version
sends has its words here; another one (an older or newer host) is shown as sent.
"""

from __future__ import annotations

from p2pbelka.ui.i18n import _


def lobby_reason(why: str) -> str:
    """``why``, as a host sent it, in the player's language."""
    words = {
        "this key is already at the table": _("this key is already at the table"),
        "the table is full": _("the table is full"),
        "the host has too many joiners to decide on; try again later": _(
            "the host has too many joiners to decide on; try again later"
        ),
        "the connection failed while the host decided": _(
            "the connection failed while the host decided"
        ),
        "the game has started": _("the game has started"),
        "the host removed you from this table": _("the host removed you from this table"),
        "the host did not let you in": _("the host did not let you in"),
        "the host closed the lobby": _("the host closed the lobby"),
        "the host closed the lobby before the game started": _(
            "the host closed the lobby before the game started"
        ),
    }
    return words.get(why, why)
