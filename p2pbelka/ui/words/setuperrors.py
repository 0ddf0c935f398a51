"""What the layers below say of a command's wrong set-up (a seat count the game is
not played by, an unknown rule or value, an unknown bot level, no saved game to
resume), in the player's language.

Those layers raise ``ValueError`` or ``LookupError`` in English and know no
language; each form they write is matched here and worded anew (a form this version
does not know is shown as written).  An ``OSError`` gets ``ui/words/oserrors.py``'s words.
"""

from __future__ import annotations

import re
import time

from p2pbelka.peer.storelock import StoreBusy
from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.oserrors import os_error_words


def _counts(counts: str) -> str:
    return _(" or ").join(counts.split(" or "))


_FORMS: Forms = [
    (
        re.compile(r"(\w+) is played by (.+), not (-?\d+)"),
        lambda game, counts, n: _("{game} is played by {counts}, not {n}").format(
            game=_(game), counts=_counts(counts), n=n
        ),
    ),
    (
        re.compile(r"unknown option '(.*)' \(expected one of (.*)\)"),
        lambda name, names: _("unknown rule '{name}' (the rules are: {names})").format(
            name=name, names=names
        ),
    ),
    (
        re.compile(r"unknown preset '(.*)' \(expected one of (.*)\)"),
        lambda name, names: _("unknown preset '{name}' (the presets are: {names})").format(
            name=name, names=names
        ),
    ),
    (
        re.compile(r"option (\w+): unknown value '(.*)' \(expected one of (.*)\)"),
        lambda rule, value, values: _(
            "rule {rule}: unknown value '{value}' (the values are: {values})"
        ).format(rule=rule, value=value, values=values),
    ),
    (
        re.compile(r"(?:(\w+): )?unknown bot level '(.*)' \(expected one of (.*)\)"),
        lambda game, name, names: (
            (f"{_(game)}: " if game else "")
            + _("unknown bot level '{name}' (the levels are: {names})").format(
                name=name, names=names
            )
        ),
    ),
    (re.compile(r"no game to resume"), lambda: _("no game to resume")),
    (
        re.compile(r"no game to resume with id (.*)…"),
        lambda prefix: _("no game to resume with id {prefix}…").format(prefix=prefix),
    ),
    (
        re.compile(r"several games start with (.*)"),
        lambda prefix: _("several games start with {prefix}: give more of the id").format(
            prefix=prefix
        ),
    ),
]


def setup_words(text: str) -> str:
    """A lower layer's ``ValueError`` or ``LookupError`` text in the player's language."""
    return matched_words(_FORMS, text)


def busy_words(exc: StoreBusy, now: float | None = None) -> str:
    """The one line of a program refused a game another one has open: which one."""
    game, holder = exc.game[:12], exc.holder
    if holder is None:
        return _("game {game} is open in another p2pbelka: continue it there").format(game=game)
    day = time.strftime("%Y-%m-%d", time.localtime(holder.since))
    today = day == time.strftime("%Y-%m-%d", time.localtime(now))
    since = time.strftime("%H:%M", time.localtime(holder.since))
    since = since if today else f"{day} {since}"
    return _(
        "game {game} is open in another p2pbelka (pid {pid}, `{command}`, since {since}):"
        " continue it there"
    ).format(game=game, pid=holder.pid, command=holder.command, since=since)


def error_words(exc: BaseException) -> str:
    """One line for an error a command reports itself, in the player's language."""
    if isinstance(exc, StoreBusy):
        return busy_words(exc)
    if isinstance(exc, OSError) and exc.errno is not None:
        return os_error_words(exc)
    if isinstance(exc, LookupError) and exc.args:
        return setup_words(str(exc.args[0]))  # a KeyError's str() adds quotes
    return setup_words(str(exc))
