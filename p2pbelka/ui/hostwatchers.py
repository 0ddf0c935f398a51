"""The host's side of watchers on its table screen: who watches, listed under the
seats, and the question about someone who asks to watch during the game."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.ui.linewrap import wrap
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.view import TableView
from p2pbelka.ui.words.i18n import _, ngettext


def watchers_line(view: TableView, width: int) -> StyleAndTextTuples:
    """Who watches the table, on one line (nothing when nobody does)."""
    names = view.watchers
    if not names:
        return []
    line = ngettext("{n} watching: {names}", "{n} watching: {names}", len(names))
    text = line.format(n=len(names), names=", ".join(names))
    return [("class:hint", "\n".join(wrap(text, width - 1, indent="  ")) + "\n")]


def question(view: TableView, answer: Callable[[bool], object]) -> StyleAndTextTuples:
    """The status line while someone asks to watch: who, with their key, and y or n."""
    name, key = view.watch_asking
    return [
        ("class:status", _("{name} ({key}) wants to watch.").format(name=name, key=key)),
        ("", " "),
        ("class:button", _("[y] let in"), on_click(lambda: answer(True))),
        ("", "  "),
        ("class:button", _("[n] turn away"), on_click(lambda: answer(False))),
    ]
