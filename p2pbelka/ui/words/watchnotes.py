"""What a watch tells its watcher of itself (``peer.watch.WatchNote``: lost, trying
again, refused, cut off), in the player's language: the watcher's text log and screen
both say these."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from p2pbelka.peer.watch import WatchNote
from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.oserrors import trying_why


def _kept(held: int) -> str:
    return ngettext("{n} record kept", "{n} records kept", held).format(n=held)


def _gone(f: Mapping[str, Any]) -> str:
    return _("the host did not come back within {n:.0f} s ({why}): the watch stops, {kept}").format(
        n=f["wait"], why=f["why"], kept=_kept(f["held"])
    )


def _lost(f: Mapping[str, Any]) -> str:
    return _(
        "the feed is lost ({why}); {kept}. The host is away: waiting up to {n:.0f} s"
        " for it to come back, dialling again in {s:.0f} s"
    ).format(why=f["why"], kept=_kept(f["held"]), n=f["wait"], s=f["delay"])


def _not_back(f: Mapping[str, Any]) -> str:
    return _(
        "the host is not back yet ({why}); dialling again in {s:.0f} s"
        " ({left:.0f} s of the wait left)"
    ).format(why=f["why"], s=f["delay"], left=f["left"])


def _set_aside(f: Mapping[str, Any]) -> str:
    return _(
        "the host took its seat back and set aside the records from {n} on; so does"
        " this watch: they are kept in {path}"
    ).format(n=f["n"], path=f["path"])


_NOTES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "waiting": lambda f: _("waiting for the host to let us watch"),
    "no_answer": lambda f: _("no answer yet ({why}); trying again").format(
        why=trying_why(str(f["why"]), f.get("error"), str(f.get("where", "")))
    ),
    "reached": lambda f: _("reached {address}, host key {key}").format(**f),
    "following": lambda f: _("following again from record {n}").format(n=f["n"]),
    "lost": _lost,
    "not_back": _not_back,
    "gone": _gone,
    "moved": lambda f: _("the host's table is announced at {where} now: dialling it there").format(
        where=f["where"]
    ),
    "left": lambda f: _("the host's feed is left: {why}").format(why=f["why"]),
    "set_aside": _set_aside,
    "forged_chat": lambda f: _("the host passed on a chat line nobody signed: dropped"),
    "refused": lambda f: lobby_reason(str(f["why"])),
    "watchers": lambda f: ngettext(
        "{n} watching: {names}", "{n} watching: {names}", len(f["names"])
    ).format(n=len(f["names"]), names=", ".join(f["names"])),
}


def note_words(note: WatchNote) -> str:
    """The note in the player's language (a kind this version does not know: as data)."""
    words = _NOTES.get(note.kind)
    return words(note.fields) if words is not None else f"{note.kind}: {dict(note.fields)}"


# why a watch stopped, as it kept it (peer/watch.py's FeedBroken and HostLied): the
# reason ``games`` shows on a watched game's "ended:" line
_ENDS: Forms = [
    (
        re.compile(r"the host closed the connection before the game's end"),
        lambda: _("the host closed the connection before the game's end"),
    ),
    (
        re.compile(r"nothing came for ([\d.]+) s"),
        lambda s: _("nothing came for {s} s").format(s=s),
    ),
    (
        re.compile(r"the host's transcript holds (\d+) records, (\d+) came"),
        lambda n, held: _("the host's transcript holds {n} records, {held} came").format(
            n=n, held=held
        ),
    ),
    (
        re.compile(r"the feed does not open with a table the host signed"),
        lambda: _("the feed does not open with a table the host signed"),
    ),
    (
        re.compile(r"a record came before the host said we may watch"),
        lambda: _("a record came before the host said we may watch"),
    ),
]


def watch_end_words(why: str) -> str:
    """Why a watch stopped, in the player's language (a host's refusal too; as written
    if this version does not know the form)."""
    said = matched_words(_ENDS, why)
    return lobby_reason(why) if said == why else said
