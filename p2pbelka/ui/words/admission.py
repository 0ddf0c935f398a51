"""Why a host refused a joiner or closed its lobby, in the joiner's language.

The reason travels on the wire in English (host and joiner may speak different
languages), so the joiner's side words it: each reason a host of this version
sends has its words here; another one (an older or newer host) is shown as sent.
The joiner's and watcher's own program refuses a table in English too (a wrong key
or invite code, a table of another version): those forms are worded here as well.
"""

from __future__ import annotations

import re

from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import _

_FORMS: Forms = [
    (
        re.compile(r"this table takes no more watchers: it has (\d+), as many as it takes"),
        lambda n: _("this table takes no more watchers: it has {n}, as many as it takes").format(
            n=n
        ),
    ),
    (
        re.compile(r"you hold (\d+) records; this host's transcript has (\d+)"),
        lambda held, has: _("you hold {held} records; this host's transcript has {has}").format(
            held=held, has=has
        ),
    ),
    (
        re.compile(
            r"the key that answered is not the host's you named: someone else is at"
            r" (.+), or the address is wrong"
        ),
        lambda where: _(
            "the key that answered is not the host's you named: someone else is at"
            " {where}, or the address is wrong"
        ).format(where=where),
    ),
    (
        re.compile(r"no lobby at (\S+): (.*)", re.S),
        lambda where, why: _("no lobby at {where}: {why}").format(where=where, why=why),
    ),
    (
        re.compile(r"this version cannot play that table: (.*)", re.S),
        lambda why: _("this version cannot play that table: {why}").format(why=why),
    ),
    (
        re.compile(r"no (\S+) bot at this table: (.*)", re.S),
        lambda level, why: _("no {level} bot at this table: {why}").format(level=level, why=why),
    ),
    (
        re.compile(r"the host speaks another version of the handshake: (.*)", re.S),
        lambda why: _("the host speaks another version of the handshake: {why}").format(why=why),
    ),
]


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
        "this table takes no watchers": _("this table takes no watchers"),
        "the game is over": _("the game is over"),
        "this key is already watching": _("this key is already watching"),
        "the invite code is wrong: the host's table wants another one (ask the host"
        " to read it out again)": _(
            "the invite code is wrong: the host's table wants another one (ask the host"
            " to read it out again)"
        ),
        "the host's invite code is used up by wrong guesses: ask the host for a new one": _(
            "the host's invite code is used up by wrong guesses: ask the host for a new one"
        ),
        "the host tests no code from this address for a while after wrong codes:"
        " ask the host to let you try again": _(
            "the host tests no code from this address for a while after wrong codes:"
            " ask the host to let you try again"
        ),
        "the host's answer does not decrypt: tampered with on the way, or a host of"
        " an older version whose table wants an invite code": _(
            "the host's answer does not decrypt: tampered with on the way, or a host of"
            " an older version whose table wants an invite code"
        ),
        "this table wants an invite code: ask the host for it": _(
            "this table wants an invite code: ask the host for it"
        ),
        "this table has no invite code: join without one": _(
            "this table has no invite code: join without one"
        ),
    }
    if why in words:
        return words[why]
    return matched_words(_FORMS, why)
